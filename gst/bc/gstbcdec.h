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

#ifndef __GST_BC_DEC_H__
#define __GST_BC_DEC_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_BC_DEC (gst_bc_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstBcDec, gst_bc_dec, GST, BC_DEC, GstVideoDecoder);

G_END_DECLS

#endif /* __GST_BC_DEC_H__ */
