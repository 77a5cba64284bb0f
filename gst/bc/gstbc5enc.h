/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

#ifndef __GST_BC5_ENC_H__
#define __GST_BC5_ENC_H__

#include "gstbcenc.h"

G_BEGIN_DECLS

#define GST_TYPE_BC5_ENC (gst_bc5_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstBc5Enc, gst_bc5_enc, GST, BC5_ENC, GstBcEnc);

G_END_DECLS

#endif /* __GST_BC5_ENC_H__ */
