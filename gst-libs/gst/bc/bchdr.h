/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_HDR_H__
#define __GST_BC_HDR_H__

#include <gst/bc/bc-prelude.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GST_BC_HDR_REFERENCE_WHITE:
 *
 * The luminance in cd/m2 of 1.0 in BC6H's linear light: the HDR reference
 * white of ITU-R BT.2408.
 */
#define GST_BC_HDR_REFERENCE_WHITE 203.0

/**
 * GST_BC_HDR_TONE_KNEE:
 *
 * Where the SDR tone curve of gst_bc_hdr_tone_curve() leaves the identity,
 * in units of the reference white.
 */
#define GST_BC_HDR_TONE_KNEE 0.8

GST_BC_API
gdouble  gst_bc_hdr_half_to_double (guint16 half);

GST_BC_API
guint16  gst_bc_hdr_pq_from_half (guint16 half);

GST_BC_API
gdouble  gst_bc_hdr_tone_curve (gdouble x);

GST_BC_API
void     gst_bc_hdr_tone_map (const guint16 rgb[3], guint8 out[3]);

GST_BC_API
GstVideoColorPrimaries gst_bc_hdr_primaries_from_caps (const GstCaps * caps);

GST_BC_API
void     gst_bc_hdr_output_colorimetry (GstVideoColorPrimaries primaries,
                                        gboolean pq,
                                        GstVideoColorimetry * colorimetry);

G_END_DECLS

#endif /* __GST_BC_HDR_H__ */
