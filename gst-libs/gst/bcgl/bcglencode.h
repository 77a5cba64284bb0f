/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_GL_ENCODE_H__
#define __GST_BC_GL_ENCODE_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/bc/bc.h>

G_BEGIN_DECLS

/* The GL compute encode path, without any element: a GLSL port of the CPU
 * kernels (glsl/, embedded at build time) run on a GstGLContext, one
 * invocation per 4x4 block, writing each frame into a slot of a ring that
 * is one persistently and coherently mapped shader storage buffer. Each
 * submitted frame is fenced; the CPU reads a slot once its fence has
 * signalled, so frame N can be read while frame N + 1 runs. Used by
 * GstBcEnc (gst/bc/gstbcencgl.c) and benchmarks/encode; tested in
 * tests/check/libs/bcglencode.c. */
typedef struct _GstBcGLEncoder GstBcGLEncoder;

#define GST_BC_GL_ENCODER_MAX_SLOTS 16

/* What @context lacks to run the encoder (compute shaders: OpenGL 4.3 or
 * OpenGL ES 3.1; glBufferStorage: OpenGL 4.4, GL_ARB_buffer_storage or
 * GL_EXT_buffer_storage), or NULL when it can. Any thread. */
G_GNUC_INTERNAL
const gchar *    gst_bc_gl_encoder_context_missing (GstGLContext * context);

G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_format_supported (GstBcFormat format);

/* Any thread (the GL work runs on the context's thread). @layout: which
 * texel component holds r, g, b and a (byte offsets of a 4-byte format =
 * component indices of its GL texture). @n_slots frames can be in flight
 * or lent at once (2 to GST_BC_GL_ENCODER_MAX_SLOTS). */
G_GNUC_INTERNAL
GstBcGLEncoder * gst_bc_gl_encoder_new (GstGLContext * context,
                                        const GstBcInfo * info,
                                        const GstBcPixelLayout * layout,
                                        guint n_slots, GError ** error);

/* The YUV formats the encoder reads from GLMemory, in the textures
 * GStreamer 1.22's glupload makes of them (glsl/yuv.glsl). Not v210:
 * glupload of 1.22 does not upload it. */
#define GST_BC_GL_ENCODER_YUV_FORMATS "{ NV12, I420, YUY2, UYVY, P010_10LE }"

G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_yuv_format_supported (GstVideoFormat format);

/* An encoder of YUV textures (one per plane, as GstGLMemory has them),
 * converted to RGB as @yuv says, with the CPU path's integer arithmetic
 * (gst_bc_yuv_info_get_coefficients ()): the same RGB, so the same blocks
 * as gst_bc_encode_rows_yuv (). Submit with
 * gst_bc_gl_encoder_submit_planes (). */
G_GNUC_INTERNAL
GstBcGLEncoder * gst_bc_gl_encoder_new_yuv (GstGLContext * context,
                                            const GstBcInfo * info,
                                            const GstBcYuvInfo * yuv,
                                            guint n_slots, GError ** error);

/* The formats the BC6H encoder reads from GLMemory: 16-bit RGBA (what
 * GStreamer 1.22's glupload makes of it is ARGB64, an RGBA16 texture of
 * A, R, G, B; RGBA64_LE is for GL libraries that upload it) and
 * RGB10A2_LE. */
#define GST_BC_GL_ENCODER_HDR_FORMATS "{ RGBA64_LE, ARGB64, RGB10A2_LE }"

G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_hdr_format_supported (GstVideoFormat format);

/* A BC6H encoder (@info's format BC6H or BC6H-SF) of @format textures
 * (GST_BC_GL_ENCODER_HDR_FORMATS) whose codes @input converts to half
 * floats (gst_bc_hdr_input_new () of RGBA64_LE for the 16-bit formats, of
 * RGB10A2_LE for RGB10A2_LE): its tables are uploaded and the shaders
 * (glsl/bc6h.comp, glsl/bc6h-normal.glsl) convert and encode as the CPU's
 * lanes_fast (), lanes_normal () and (quality=high) per-block
 * encode_block () do, so the blocks are those of gst_bc_encode_rows_hdr ()
 * at that quality. */
G_GNUC_INTERNAL
GstBcGLEncoder * gst_bc_gl_encoder_new_hdr (GstGLContext * context,
                                            const GstBcInfo * info,
                                            GstVideoFormat format,
                                            const GstBcHdrInput * input,
                                            guint n_slots, GError ** error);

/* A BC6H encoder of YUV textures (GST_BC_GL_ENCODER_YUV_FORMATS, one per
 * plane): @yuv at a depth of 16 (gst_bc_yuv_info_set_depth ()) converts
 * them to 16-bit RGB codes as the CPU does, which @input (of RGBA64_LE)
 * converts to half floats as for gst_bc_gl_encoder_new_hdr (): the blocks
 * are those of gst_bc_encode_rows_hdr_yuv (). Submit with
 * gst_bc_gl_encoder_submit_planes (). */
G_GNUC_INTERNAL
GstBcGLEncoder * gst_bc_gl_encoder_new_hdr_yuv (GstGLContext * context,
                                                const GstBcInfo * info,
                                                const GstBcYuvInfo * yuv,
                                                const GstBcHdrInput * input,
                                                guint n_slots,
                                                GError ** error);

/* Waits for the frames in flight; slots lent out stay valid until their
 * memories are freed. */
G_GNUC_INTERNAL
void             gst_bc_gl_encoder_free (GstBcGLEncoder * enc);

/* Compiles and links the program of @quality unless done already; @error
 * carries the driver's log on failure. */
G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_prepare (GstBcGLEncoder * enc,
                                            GstBcQuality quality,
                                            GError ** error);

/* Queues the encode of 2D texture @texture (its visible size is the
 * info's) into a free slot, fenced. @gl_errors (nullable): when not NULL,
 * glGetError () is checked afterwards and the errors counted there. */
G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_submit (GstBcGLEncoder * enc,
                                           guint texture,
                                           GstBcQuality quality,
                                           guint * slot, guint * gl_errors,
                                           GError ** error);

/* gst_bc_gl_encoder_submit () of the textures of a YUV encoder's planes
 * (gst_bc_yuv_info_n_planes (); the others 0); of an RGB encoder, the
 * first only. */
G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_submit_planes (GstBcGLEncoder * enc,
                                                  const guint textures[3],
                                                  GstBcQuality quality,
                                                  guint * slot,
                                                  guint * gl_errors,
                                                  GError ** error);

/* Non-blocking: TRUE when the frame in @slot is complete. */
G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_poll (GstBcGLEncoder * enc, guint slot,
                                         GError ** error);

/* Waits until the frame in @slot is complete, polling; the GL thread is
 * free between polls. */
G_GNUC_INTERNAL
gboolean         gst_bc_gl_encoder_wait (GstBcGLEncoder * enc, guint slot,
                                         GError ** error);

/* The blocks of a complete slot: info.size bytes, valid until the slot is
 * released. */
G_GNUC_INTERNAL
const guint8 *   gst_bc_gl_encoder_get_data (GstBcGLEncoder * enc,
                                             guint slot);

/* GPU time of the slot's dispatch (GL_TIME_ELAPSED), in ns, or
 * GST_CLOCK_TIME_NONE when the context has no timer queries */
G_GNUC_INTERNAL
GstClockTime     gst_bc_gl_encoder_get_gpu_time (GstBcGLEncoder * enc,
                                                 guint slot);

G_GNUC_INTERNAL
void             gst_bc_gl_encoder_release (GstBcGLEncoder * enc,
                                            guint slot);

/* Hands a complete slot out as a read-only memory (zero copy); the slot is
 * free again when the memory is freed. */
G_GNUC_INTERNAL
GstMemory *      gst_bc_gl_encoder_lend (GstBcGLEncoder * enc, guint slot);

G_GNUC_INTERNAL
guint            gst_bc_gl_encoder_get_n_lent (GstBcGLEncoder * enc);

G_GNUC_INTERNAL
guint            gst_bc_gl_encoder_get_n_slots (GstBcGLEncoder * enc);

G_END_DECLS

#endif /* __GST_BC_GL_ENCODE_H__ */
