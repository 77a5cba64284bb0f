/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
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
