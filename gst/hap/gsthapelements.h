/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_HAP_ELEMENTS_H__
#define __GST_HAP_ELEMENTS_H__

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/bc/bc.h>
#include <gst/bc/bchap.h>

G_BEGIN_DECLS

/* the caps of Hap frames as qtdemux gives them: video/x-gst-fourcc-Hap1 ... */
#define GST_HAP_FOURCC_CAPS(size) \
    "video/x-gst-fourcc-Hap1, " size "; " \
    "video/x-gst-fourcc-Hap5, " size "; " \
    "video/x-gst-fourcc-HapY, " size "; " \
    "video/x-gst-fourcc-HapA, " size "; " \
    "video/x-gst-fourcc-Hap7, " size "; " \
    "video/x-gst-fourcc-HapH, " size
#define GST_HAP_SIZE_CAPS \
    "width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE
/* the formats Hap has a variant for (not BC5) */
#define GST_HAP_BC_FORMATS \
    "{ BC1, BC3, YCoCg-BC3, BC4, BC7, BC6H, BC6H-SF }"

GstBcFormat gst_hap_structure_get_format (const GstStructure * s);
gboolean    gst_hap_format_shares_fourcc (GstBcFormat format);
void        gst_hap_element_init (GstPlugin * plugin);
GstCaps *   gst_hap_transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    gboolean hap_on_sink);
GstBcWorkers * gst_hap_workers_new (GstElement * element,
    const guint * threads);

GST_ELEMENT_REGISTER_DECLARE (hapdec);
GST_ELEMENT_REGISTER_DECLARE (hapenc);

G_END_DECLS

#endif /* __GST_HAP_ELEMENTS_H__ */
