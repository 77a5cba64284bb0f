/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_GL_BC_UPLOAD_H__
#define __GST_GL_BC_UPLOAD_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>

G_BEGIN_DECLS

#define GST_TYPE_GL_BC_UPLOAD (gst_gl_bc_upload_get_type ())
G_DECLARE_FINAL_TYPE (GstGLBcUpload, gst_gl_bc_upload, GST, GL_BC_UPLOAD,
    GstGLBaseFilter)

G_END_DECLS

#endif /* __GST_GL_BC_UPLOAD_H__ */
