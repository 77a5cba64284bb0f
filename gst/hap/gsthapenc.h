/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_HAP_ENC_H__
#define __GST_HAP_ENC_H__

#include <gst/base/gstbasetransform.h>

#include "gsthapelements.h"

G_BEGIN_DECLS

#define GST_TYPE_HAP_ENC (gst_hap_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstHapEnc, gst_hap_enc, GST, HAP_ENC, GstBaseTransform)

G_END_DECLS

#endif /* __GST_HAP_ENC_H__ */
