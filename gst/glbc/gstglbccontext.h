/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_GL_BC_CONTEXT_H__
#define __GST_GL_BC_CONTEXT_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <gst/bc/bcformat.h>

G_BEGIN_DECLS

/* glbcupload's debug category (gstglbcupload.c), which its pool, ring and
 * draw log to as well */
GST_DEBUG_CATEGORY_EXTERN (gst_gl_bc_upload_debug);

/* What a GL context must have for glbcupload: its capability checks and
 * its GL error check. Any thread but gst_gl_bc_check_gl_error (). */

/* Whether the GL context can sample a format, and as what. */
typedef struct
{
  GLenum internal_format;       /* 0 when the context cannot sample it */
  const gchar *missing;         /* what the context lacks, or NULL */
} GstGLBcFormatSupport;

G_GNUC_INTERNAL
void          gst_gl_bc_format_support (GstGLContext * context,
                                        GstBcFormat format,
                                        GstGLBcFormatSupport * support);

/* What the context lacks for persistent coherent buffers and immutable
 * textures, or NULL. */
G_GNUC_INTERNAL
const gchar * gst_gl_bc_context_missing (GstGLContext * context);

/* GL thread. Logs and counts glGetError() reports, with the debug category
 * at DEBUG. */
G_GNUC_INTERNAL
guint         gst_gl_bc_check_gl_error (GstGLContext * context,
                                        GstObject * obj, const gchar * what);

G_END_DECLS

#endif /* __GST_GL_BC_CONTEXT_H__ */
