/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC6H_ENC_H__
#define __GST_BC6H_ENC_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_BC6H_ENC (gst_bc6h_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstBc6hEnc, gst_bc6h_enc, GST, BC6H_ENC,
    GstVideoEncoder);

G_END_DECLS

#endif /* __GST_BC6H_ENC_H__ */
