/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC7_ENC_H__
#define __GST_BC7_ENC_H__

#include "gstbcenc.h"

G_BEGIN_DECLS

#define GST_TYPE_BC7_ENC (gst_bc7_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstBc7Enc, gst_bc7_enc, GST, BC7_ENC, GstBcEnc);

G_END_DECLS

#endif /* __GST_BC7_ENC_H__ */
