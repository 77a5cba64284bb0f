/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GL helpers shared by the GL compute encoder (bcglencode.h, run by the bc
 * plugin's GL encode path) and glbcupload (gst/glbc): the GL enums they
 * use that GStreamer's GL headers may lack, fence waits and GL_TIME_ELAPSED
 * timer queries. A static, internal library (libgstbcgl), built with the
 * GStreamer GL library only. */

#ifndef __GST_BC_GL_H__
#define __GST_BC_GL_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>

G_BEGIN_DECLS

/* The GL headers GStreamer was built with (desktop GL, GLES 2 or 3) do not
 * define every enum of OpenGL 4.x and OpenGL ES 3.x. */

/* compute shaders and shader storage (OpenGL 4.3, OpenGL ES 3.1) */
#ifndef GL_COMPUTE_SHADER
#define GL_COMPUTE_SHADER 0x91B9
#endif
#ifndef GL_SHADER_STORAGE_BUFFER
#define GL_SHADER_STORAGE_BUFFER 0x90D2
#endif
#ifndef GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
#define GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT 0x90DF
#endif
#ifndef GL_MAX_SHADER_STORAGE_BLOCK_SIZE
#define GL_MAX_SHADER_STORAGE_BLOCK_SIZE 0x90DE
#endif
#ifndef GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT
#define GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT 0x00004000
#endif

/* buffers (OpenGL 4.4 / GL_ARB_buffer_storage, GL_EXT_buffer_storage) */
#ifndef GL_MAP_PERSISTENT_BIT
#define GL_MAP_PERSISTENT_BIT 0x0040
#endif
#ifndef GL_MAP_COHERENT_BIT
#define GL_MAP_COHERENT_BIT 0x0080
#endif
#ifndef GL_CLIENT_STORAGE_BIT
#define GL_CLIENT_STORAGE_BIT 0x0200
#endif
#ifndef GL_PIXEL_UNPACK_BUFFER
#define GL_PIXEL_UNPACK_BUFFER 0x88EC
#endif

/* sync objects (OpenGL 3.2, OpenGL ES 3.0) */
#ifndef GL_SYNC_GPU_COMMANDS_COMPLETE
#define GL_SYNC_GPU_COMMANDS_COMPLETE 0x9117
#endif
#ifndef GL_SYNC_FLUSH_COMMANDS_BIT
#define GL_SYNC_FLUSH_COMMANDS_BIT 0x00000001
#endif
#ifndef GL_ALREADY_SIGNALED
#define GL_ALREADY_SIGNALED 0x911A
#endif
#ifndef GL_TIMEOUT_EXPIRED
#define GL_TIMEOUT_EXPIRED 0x911B
#endif
#ifndef GL_CONDITION_SATISFIED
#define GL_CONDITION_SATISFIED 0x911C
#endif
#ifndef GL_WAIT_FAILED
#define GL_WAIT_FAILED 0x911D
#endif

/* timer queries (OpenGL 3.3 / GL_ARB_timer_query) */
#ifndef GL_TIME_ELAPSED
#define GL_TIME_ELAPSED 0x88BF
#endif
#ifndef GL_QUERY_RESULT
#define GL_QUERY_RESULT 0x8866
#endif
#ifndef GL_QUERY_RESULT_AVAILABLE
#define GL_QUERY_RESULT_AVAILABLE 0x8867
#endif

/* compressed texture formats */
#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#endif
#ifndef GL_COMPRESSED_RGBA_S3TC_DXT5_EXT
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif
#ifndef GL_COMPRESSED_RED_RGTC1
#define GL_COMPRESSED_RED_RGTC1 0x8DBB
#endif
#ifndef GL_COMPRESSED_RG_RGTC2
#define GL_COMPRESSED_RG_RGTC2 0x8DBD
#endif
#ifndef GL_COMPRESSED_RGBA_BPTC_UNORM
#define GL_COMPRESSED_RGBA_BPTC_UNORM 0x8E8C
#endif
#ifndef GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT
#define GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT 0x8E8E
#endif
#ifndef GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT
#define GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT 0x8E8F
#endif

/* What gst_bc_gl_fence_wait () found. */
typedef enum
{
  GST_BC_GL_FENCE_SIGNALED,     /* the GPU has passed the fence */
  GST_BC_GL_FENCE_TIMEOUT,      /* not yet, when the timeout ran out */
  GST_BC_GL_FENCE_FAILED,       /* glClientWaitSync () failed */
} GstBcGLFenceResult;

/* GL thread. Whether the GPU has passed @fence: first without waiting,
 * then, when it has not and @timeout_ns is not 0, waiting up to
 * @timeout_ns (and *@waited, when not NULL, is set to TRUE). Both calls
 * flush the context's commands, so the fence is sure to signal. The fence
 * is not deleted. */
G_GNUC_INTERNAL
GstBcGLFenceResult gst_bc_gl_fence_wait (GstGLContext * context,
                                         GLsync fence, guint64 timeout_ns,
                                         gboolean * waited);

/* Whether @context has GL_TIME_ELAPSED queries: desktop OpenGL 3.3 (or
 * later) and the query entry points. OpenGL ES 3 has none. Any thread. */
G_GNUC_INTERNAL
gboolean           gst_bc_gl_context_has_timer_query (GstGLContext * context);

/* GL thread. The result of the ended @query in *@ns when it is available,
 * without waiting for it: FALSE when it is not available yet. */
G_GNUC_INTERNAL
gboolean           gst_bc_gl_query_get_result (GstGLContext * context,
                                               GLuint query, guint64 * ns);

/* The video/x-bc formats glbcupload takes, as a caps list: every one,
 * the 8-bit ones and BC6H and BC6H-SF (unsigned and signed half floats,
 * tone-mapped by its draw) */
#define GST_BC_GL_UPLOAD_FORMATS \
    "{ BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H, BC6H-SF }"

/* glbcupload's caps. To the src pad (@direction GST_PAD_SINK): for each
 * structure of @caps, RGBA in GLMemory (2D textures), then RGBA in system
 * memory; to the sink pad: video/x-bc of GST_BC_GL_UPLOAD_FORMATS. Size,
 * framerate and pixel-aspect-ratio are kept; intersected with @filter when
 * not NULL. A structure of BC6H or BC6H-SF alone gives RGBA with the
 * colorimetry of the tone-mapped output, as bcdec's (full range, sRGB
 * transfer, the input's primaries: gst_bc_hdr_output_colorimetry ()). */
G_GNUC_INTERNAL
GstCaps *          gst_bc_gl_caps_transform (GstPadDirection direction,
                                             GstCaps * caps, GstCaps * filter);
/* The first structure of @caps (taken) in GLMemory alone, when it has one:
 * GL memory whenever downstream takes it, even listed after system memory */
G_GNUC_INTERNAL
GstCaps *          gst_bc_gl_caps_prefer_gl_memory (GstCaps * caps);

/* GL_TIME_ELAPSED queries in flight at most in a GstBcGLTimer */
#define GST_BC_GL_TIMER_QUERIES 8

/* A ring of GL_TIME_ELAPSED queries timing GL work frame by frame: results
 * are read when they are available, in order, never waited for; a frame is
 * timed only when a query is free. A result longer than the wall-clock
 * time since its query began is a driver's error, counted apart (Mesa
 * llvmpipe gives its clock instead of an interval for the first query of a
 * context). Every function: GL thread. */
typedef struct _GstBcGLTimer GstBcGLTimer;

/* NULL when @context has no timer queries (OpenGL ES) */
G_GNUC_INTERNAL
GstBcGLTimer *     gst_bc_gl_timer_new (GstGLContext * context);
G_GNUC_INTERNAL
void               gst_bc_gl_timer_free (GstBcGLTimer * timer);
/* Collects the finished queries, then starts timing if a query is free:
 * TRUE when it did, and gst_bc_gl_timer_end () must follow */
G_GNUC_INTERNAL
gboolean           gst_bc_gl_timer_begin (GstBcGLTimer * timer);
G_GNUC_INTERNAL
void               gst_bc_gl_timer_end (GstBcGLTimer * timer);
/* What the collected queries gave since the last call: frames timed,
 * their nanoseconds, and results refused as a driver's error */
G_GNUC_INTERNAL
void               gst_bc_gl_timer_take (GstBcGLTimer * timer,
                                         guint64 * frames, guint64 * ns,
                                         guint64 * invalid);

G_END_DECLS

#endif /* __GST_BC_GL_H__ */
