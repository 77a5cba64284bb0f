/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_HAP_DEC_H__
#define __GST_HAP_DEC_H__

#include <gst/base/gstbasetransform.h>

#include "gsthapelements.h"

G_BEGIN_DECLS

#define GST_TYPE_HAP_DEC (gst_hap_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstHapDec, gst_hap_dec, GST, HAP_DEC, GstBaseTransform)

G_END_DECLS

#endif /* __GST_HAP_DEC_H__ */
