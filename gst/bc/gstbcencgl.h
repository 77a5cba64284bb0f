/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_ENC_GL_H__
#define __GST_BC_ENC_GL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>

G_BEGIN_DECLS

/* The GL path of GstBcEnc and GstBc6hEnc: `video/x-raw(memory:GLMemory)`
 * in, encoded by libgstbcgl's compute encoder
 * (gst-libs/gst/bcgl/bcglencode.h) on the pipeline's GL context, frames
 * pipelined by one. gstbcenc.c and gstbc6henc.c call these hooks; only
 * built with the GStreamer GL library (HAVE_BC_GL). */
typedef struct _GstBcEncGL GstBcEncGL;

/* The frames the GL path keeps back: frame N leaves when N + 1 arrives */
#define GST_BC_ENC_GL_PIPELINE_DEPTH 1

/* The GLMemory caps of @formats (a format or caps list), then of the YUV
 * formats the GL encoder reads (GST_BC_GL_ENCODER_YUV_FORMATS) */
G_GNUC_INTERNAL
GstCaps *     gst_bc_enc_gl_template_caps (const gchar * formats);

/* The GLMemory formats of bc6henc's GL path: those of
 * GST_BC_GL_ENCODER_HDR_FORMATS that GStreamer 1.22's GstGLMemory holds
 * (it has no RGBA64_LE: its 16-bit RGBA is ARGB64), and the 10-bit YUV
 * format glupload uploads (not v210) */
#define GST_BC_ENC_GL_HDR_FORMATS "{ ARGB64, RGB10A2_LE, P010_10LE }"

/* The GLMemory caps of GST_BC_ENC_GL_HDR_FORMATS (2D textures) */
G_GNUC_INTERNAL
GstCaps *     gst_bc_enc_gl_hdr_template_caps (void);

G_GNUC_INTERNAL
gboolean      gst_bc_enc_gl_caps_are_gl (GstCaps * caps);

G_GNUC_INTERNAL
GstBcEncGL *  gst_bc_enc_gl_new (GstVideoEncoder * encoder);

G_GNUC_INTERNAL
void          gst_bc_enc_gl_free (GstBcEncGL * gl);

/* GstElement::set_context */
G_GNUC_INTERNAL
void          gst_bc_enc_gl_set_context (GstBcEncGL * gl,
                                         GstContext * context);

/* Answers GL context queries (sink and src pads); FALSE when not answered */
G_GNUC_INTERNAL
gboolean      gst_bc_enc_gl_handle_query (GstBcEncGL * gl, GstQuery * query);

/* Sink getcaps: removes the GLMemory structures of @caps (transfer full,
 * returned) when the GL context the element would use cannot run the
 * encoder. */
G_GNUC_INTERNAL
GstCaps *     gst_bc_enc_gl_filter_caps (GstBcEncGL * gl, GstCaps * caps,
                                         GstCaps * filter);

/* set_format, before the new output state is set: finishes the frame kept
 * back with the old one, then sets the GL path up when @state's caps are
 * GLMemory (TRUE: GL path); @yuv: the conversion of YUV input (width 0:
 * RGB input, @layout). FALSE with an error posted on failure. */
G_GNUC_INTERNAL
gboolean      gst_bc_enc_gl_set_format (GstBcEncGL * gl,
                                        GstVideoCodecState * state,
                                        const GstBcInfo * info,
                                        const GstBcPixelLayout * layout,
                                        const GstBcYuvInfo * yuv,
                                        GstBcQuality quality,
                                        gboolean * use_gl);

/* gst_bc_enc_gl_set_format () of bc6henc: a BC6H or BC6H-SF encoder of
 * @state's textures, whose codes @input converts (of RGBA64_LE for ARGB64
 * textures and for YUV: @yuv, at a depth of 16, converts P010_10LE
 * textures to those codes first; width 0 for RGB); the programs of
 * @quality compiled */
G_GNUC_INTERNAL
gboolean      gst_bc_enc_gl_set_format_hdr (GstBcEncGL * gl,
                                            GstVideoCodecState * state,
                                            const GstBcInfo * info,
                                            const GstBcHdrInput * input,
                                            const GstBcYuvInfo * yuv,
                                            GstBcQuality quality,
                                            gboolean * use_gl);

/* handle_frame on the GL path; sets @handled FALSE (after draining) for a
 * frame whose memory is not GL memory, which the CPU path then encodes. */
G_GNUC_INTERNAL
GstFlowReturn gst_bc_enc_gl_handle_frame (GstBcEncGL * gl,
                                          GstVideoCodecFrame * frame,
                                          GstBcQuality quality,
                                          gboolean * handled);

/* Finishes the frame kept back (finish (), EOS, caps changes) */
G_GNUC_INTERNAL
GstFlowReturn gst_bc_enc_gl_drain (GstBcEncGL * gl);

/* Drops the frame kept back (flush) */
G_GNUC_INTERNAL
void          gst_bc_enc_gl_flush (GstBcEncGL * gl);

/* decide_allocation, after the base class: takes downstream's pool */
G_GNUC_INTERNAL
gboolean      gst_bc_enc_gl_decide_allocation (GstBcEncGL * gl,
                                               GstQuery * query);

/* stop: drops the frame kept back, the encoder and the GL objects */
G_GNUC_INTERNAL
void          gst_bc_enc_gl_stop (GstBcEncGL * gl);

G_END_DECLS

#endif /* __GST_BC_ENC_GL_H__ */
