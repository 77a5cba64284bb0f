/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_GL_BC_DRAW_H__
#define __GST_GL_BC_DRAW_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <gst/bc/bcformat.h>

G_BEGIN_DECLS

/* glbcupload's draw: a compressed texture (a slot of the pool's ring)
 * into an RGBA GstGLMemory at the visible size, one texel per pixel, which
 * crops the block padding and converts by format (glsl/draw.frag; BC6H
 * and BC6H-SF through bcdec's SDR tone curve). The GL program, its quad and the
 * framebuffer. GL thread only. */
typedef struct _GstGLBcDraw GstGLBcDraw;

/* NULL with @error set when the shaders do not compile or link */
G_GNUC_INTERNAL
GstGLBcDraw * gst_gl_bc_draw_new (GstGLContext * context, GError ** error);

G_GNUC_INTERNAL
void          gst_gl_bc_draw_free (GstGLBcDraw * draw);

/* Draws @texture, of a frame of @format, into @out (its size is the
 * frame's visible size). FALSE when @out cannot be mapped or drawn
 * into. */
G_GNUC_INTERNAL
gboolean      gst_gl_bc_draw_frame (GstGLBcDraw * draw, GLuint texture,
                                    GstBcFormat format, GstGLMemory * out);

G_END_DECLS

#endif /* __GST_GL_BC_DRAW_H__ */
