/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
