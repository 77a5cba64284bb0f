/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GL path of GstBcEnc (see gstbcencgl.h).
 *
 * GL context: like GStreamer's GL elements, the element takes the
 * GstGLDisplay and an application context from its neighbours or the
 * application (gst_gl_ensure_element_data (), GstElement::set_context ()
 * through gst_gl_handle_set_context ()), then the GL context of a
 * neighbour (gst_gl_query_local_gl_context (), upstream first: glupload's),
 * and only then makes one of its own on the display; it answers context
 * queries with what it has (gst_gl_handle_context_query ()). All of this
 * happens only when GLMemory caps come up: a CPU pipeline never touches
 * GL.
 *
 * Caps: the sink template offers GLMemory RGBA/RGBx/BGRA/BGRx (2D
 * textures) first, then the YUV formats libgstbcgl reads
 * (GST_BC_GL_ENCODER_YUV_FORMATS: one texture a plane, as glupload makes
 * them; not v210, which GStreamer 1.22's glupload does not upload),
 * converted in the shader as the CPU path converts (set_format refuses
 * the same YUV caps as the CPU path: interlaced 4:2:0, one field a
 * buffer). When upstream asks with a GLMemory filter, the element
 * finds (or makes) its context and drops the GLMemory structures when the
 * context cannot run the encoder (no compute shaders or buffer storage):
 * upstream then needs gldownload, and the CPU path encodes. bc6henc
 * (gstbc6henc.c) offers its own GLMemory formats
 * (GST_BC_ENC_GL_HDR_FORMATS: 16-bit ARGB64, RGB10A2_LE and P010_10LE) and
 * sets up a BC6H or BC6H-SF encoder of its HDR input
 * (gst_bc_enc_gl_set_format_hdr ()), used at every quality.
 *
 * Frames: frame N is submitted (the dispatch and its fence are queued on
 * the GL thread, which returns at once) and kept back; when frame N + 1
 * has been submitted, frame N's fence is polled (never waited on, on the
 * GL thread) and frame N leaves: its slot is either lent downstream as the
 * output buffer's memory (zero copies: when downstream offered no pool and
 * fewer than n_slots - 2 slots are out) or copied once into an output
 * buffer (from downstream's pool when it offered one, e.g. glbcupload's
 * GPU-visible pool). finish () (EOS, drain) and caps changes let the kept
 * frame out; flush drops it. The input buffer (and its texture) stays with
 * its frame until that frame leaves, so upstream cannot reuse the texture
 * while the GPU may still read it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbcencgl.h"
#include <gst/bcgl/bcglencode.h>

#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_bc_enc_gl_debug);
#define GST_CAT_DEFAULT gst_bc_enc_gl_debug

/* frames in flight + the one being read + up to N_SLOTS - 2 lent out */
#define N_SLOTS 6

struct _GstBcEncGL
{
  GstVideoEncoder *encoder;     /* not reffed: owns us */

  /* display and contexts; context queries come from any thread */
  GRecMutex lock;
  GstGLDisplay *display;
  GstGLContext *other_context;
  GstGLContext *context;

  /* streaming thread */
  GstBcGLEncoder *enc;
  GstBcInfo info;
  GstBcPixelLayout layout;
  guint n_planes;               /* textures a frame has: 1, YUV: its planes */
  GstVideoCodecFrame *pending;
  guint pending_slot;
  GstBufferPool *pool;
  gboolean check_errors;
  guint gl_errors;
};

GstCaps *
gst_bc_enc_gl_template_caps (const gchar * formats)
{
  gchar *str = g_strdup_printf (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CAPS_FEATURE_MEMORY_GL_MEMORY, "%s")
      ", texture-target = (string) 2D; "
      GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_GL_MEMORY,
          GST_BC_GL_ENCODER_YUV_FORMATS) ", texture-target = (string) 2D",
      formats);
  GstCaps *caps = gst_caps_from_string (str);

  g_free (str);
  return caps;
}

GstCaps *
gst_bc_enc_gl_hdr_template_caps (void)
{
  return gst_caps_from_string (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CAPS_FEATURE_MEMORY_GL_MEMORY, GST_BC_ENC_GL_HDR_FORMATS)
      ", texture-target = (string) 2D");
}

gboolean
gst_bc_enc_gl_caps_are_gl (GstCaps * caps)
{
  GstCapsFeatures *f;

  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  return f != NULL && gst_caps_features_contains (f,
      GST_CAPS_FEATURE_MEMORY_GL_MEMORY);
}

GstBcEncGL *
gst_bc_enc_gl_new (GstVideoEncoder * encoder)
{
  static gsize done = 0;
  GstBcEncGL *gl;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_bc_enc_gl_debug, "bcencgl", 0,
        "GL compute path of the block-compression encoders");
    g_once_init_leave (&done, 1);
  }

  gl = g_new0 (GstBcEncGL, 1);
  gl->encoder = encoder;
  g_rec_mutex_init (&gl->lock);
  return gl;
}

void
gst_bc_enc_gl_free (GstBcEncGL * gl)
{
  if (gl == NULL)
    return;
  gst_bc_enc_gl_stop (gl);
  g_rec_mutex_lock (&gl->lock);
  gst_clear_object (&gl->context);
  gst_clear_object (&gl->other_context);
  gst_clear_object (&gl->display);
  g_rec_mutex_unlock (&gl->lock);
  g_rec_mutex_clear (&gl->lock);
  g_free (gl);
}

/* ------------------------------------------------------------------------ */
/* context                                                                   */

void
gst_bc_enc_gl_set_context (GstBcEncGL * gl, GstContext * context)
{
  GstElement *element = GST_ELEMENT (gl->encoder);
  GstGLDisplay *old;

  g_rec_mutex_lock (&gl->lock);
  old = gl->display ? gst_object_ref (gl->display) : NULL;
  gst_gl_handle_set_context (element, context, &gl->display,
      &gl->other_context);
  /* a context of another display is of no use any more */
  if (gl->display != old && gl->context &&
      gl->context->display != gl->display && gl->enc == NULL)
    gst_clear_object (&gl->context);
  g_rec_mutex_unlock (&gl->lock);
  gst_clear_object (&old);
}

gboolean
gst_bc_enc_gl_handle_query (GstBcEncGL * gl, GstQuery * query)
{
  GstGLDisplay *display = NULL;
  GstGLContext *context = NULL, *other = NULL;
  gboolean ret;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;

  g_rec_mutex_lock (&gl->lock);
  if (gl->display)
    display = gst_object_ref (gl->display);
  if (gl->context)
    context = gst_object_ref (gl->context);
  if (gl->other_context)
    other = gst_object_ref (gl->other_context);
  g_rec_mutex_unlock (&gl->lock);

  ret = gst_gl_handle_context_query (GST_ELEMENT (gl->encoder), query,
      display, context, other);

  gst_clear_object (&display);
  gst_clear_object (&context);
  gst_clear_object (&other);
  return ret;
}

/* A neighbour's context on our display, asked without holding the lock:
 * the neighbour may query us back from another thread. */
static GstGLContext *
query_local_context (GstBcEncGL * gl, GstGLDisplay * display,
    GstPadDirection direction)
{
  GstGLContext *context = NULL;

  if (!gst_gl_query_local_gl_context (GST_ELEMENT (gl->encoder), direction,
          &context))
    return NULL;
  if (context == NULL || context->display != display) {
    gst_clear_object (&context);
    return NULL;
  }
  return context;
}

/* The GL context to use (transfer full), found or made; NULL with @error
 * set when there is none. @create: may make a context of our own. */
static GstGLContext *
find_context (GstBcEncGL * gl, gboolean create, GError ** error)
{
  GstElement *element = GST_ELEMENT (gl->encoder);
  GstGLDisplay *display;
  GstGLContext *context = NULL;

  g_rec_mutex_lock (&gl->lock);
  if (gl->context) {
    context = gst_object_ref (gl->context);
    g_rec_mutex_unlock (&gl->lock);
    return context;
  }
  if (!create && gl->display == NULL) {
    g_rec_mutex_unlock (&gl->lock);
    return NULL;
  }
  if (!gst_gl_ensure_element_data (element, &gl->display, &gl->other_context)) {
    g_rec_mutex_unlock (&gl->lock);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No GL display");
    return NULL;
  }
  display = gst_object_ref (gl->display);
  g_rec_mutex_unlock (&gl->lock);

  context = query_local_context (gl, display, GST_PAD_SINK);
  if (context == NULL)
    context = query_local_context (gl, display, GST_PAD_SRC);

  g_rec_mutex_lock (&gl->lock);
  if (gl->context) {
    /* found meanwhile, from another thread */
    gst_clear_object (&context);
    context = gst_object_ref (gl->context);
  } else if (context) {
    gl->context = gst_object_ref (context);
  } else if (create) {
    GST_OBJECT_LOCK (display);
    do {
      gst_clear_object (&context);
      context = gst_gl_display_get_gl_context_for_thread (display, NULL);
      if (context == NULL && !gst_gl_display_create_context (display,
              gl->other_context, &context, error)) {
        GST_OBJECT_UNLOCK (display);
        g_rec_mutex_unlock (&gl->lock);
        gst_object_unref (display);
        return NULL;
      }
    } while (!gst_gl_display_add_context (display, context));
    GST_OBJECT_UNLOCK (display);
    gl->context = gst_object_ref (context);
  }
  g_rec_mutex_unlock (&gl->lock);
  gst_object_unref (display);

  if (context)
    GST_DEBUG_OBJECT (element, "GL context %" GST_PTR_FORMAT, context);
  return context;
}

GstCaps *
gst_bc_enc_gl_filter_caps (GstBcEncGL * gl, GstCaps * caps, GstCaps * filter)
{
  GstElement *element = GST_ELEMENT (gl->encoder);
  GstGLContext *context;
  const gchar *missing = NULL;
  GstCaps *gl_caps, *tmp;
  GError *error = NULL;
  gboolean asked;
  guint i;

  gl_caps = gst_caps_from_string ("video/x-raw("
      GST_CAPS_FEATURE_MEMORY_GL_MEMORY ")");
  if (!gst_caps_can_intersect (caps, gl_caps)) {
    gst_caps_unref (gl_caps);
    return caps;
  }
  /* upstream asks with GLMemory caps: it has GL, so may we */
  asked = filter != NULL && gst_caps_can_intersect (filter, gl_caps);
  gst_caps_unref (gl_caps);
  if (filter != NULL && !asked)
    return caps;

  context = find_context (gl, asked, &error);
  if (context)
    missing = gst_bc_gl_encoder_context_missing (context);
  else if (asked)
    missing = error ? error->message : "a GL context";
  else
    return caps;                /* not known yet: offered, checked later */

  if (missing) {
    GST_INFO_OBJECT (element, "not offering GLMemory caps: the GL context "
        "%" GST_PTR_FORMAT " lacks %s", context, missing);
    tmp = gst_caps_new_empty ();
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);

      if (f && gst_caps_features_contains (f,
              GST_CAPS_FEATURE_MEMORY_GL_MEMORY))
        continue;
      tmp = gst_caps_merge_structure_full (tmp,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          f ? gst_caps_features_copy (f) : NULL);
    }
    gst_caps_unref (caps);
    caps = tmp;
  }
  g_clear_error (&error);
  gst_clear_object (&context);
  return caps;
}

/* ------------------------------------------------------------------------ */
/* frames                                                                    */

static GstFlowReturn
finish_pending (GstBcEncGL * gl)
{
  GstVideoEncoder *encoder = gl->encoder;
  GstVideoCodecFrame *frame = gl->pending;
  guint slot = gl->pending_slot;
  GError *error = NULL;
  GstFlowReturn ret;
  gboolean lend;

  if (frame == NULL)
    return GST_FLOW_OK;
  gl->pending = NULL;

  if (!gst_bc_gl_encoder_wait (gl->enc, slot, &error))
    goto wait_failed;

  lend = gl->pool == NULL &&
      gst_bc_gl_encoder_get_n_lent (gl->enc) + 2 <
      gst_bc_gl_encoder_get_n_slots (gl->enc);
  if (lend) {
    frame->output_buffer = gst_buffer_new ();
    gst_buffer_append_memory (frame->output_buffer,
        gst_bc_gl_encoder_lend (gl->enc, slot));
  } else {
    GstMapInfo map;

    if (gl->pool) {
      ret = gst_buffer_pool_acquire_buffer (gl->pool, &frame->output_buffer,
          NULL);
      if (ret == GST_FLOW_OK &&
          gst_buffer_get_size (frame->output_buffer) != gl->info.size)
        gst_buffer_set_size (frame->output_buffer, gl->info.size);
    } else {
      ret = gst_video_encoder_allocate_output_frame (encoder, frame,
          gl->info.size);
    }
    if (ret != GST_FLOW_OK) {
      gst_bc_gl_encoder_release (gl->enc, slot);
      gst_video_codec_frame_unref (frame);
      return ret;
    }
    if (!gst_buffer_map (frame->output_buffer, &map, GST_MAP_WRITE)) {
      gst_bc_gl_encoder_release (gl->enc, slot);
      goto map_failed;
    }
    memcpy (map.data, gst_bc_gl_encoder_get_data (gl->enc, slot),
        gl->info.size);
    gst_buffer_unmap (frame->output_buffer, &map);
    gst_bc_gl_encoder_release (gl->enc, slot);
  }

  GST_LOG_OBJECT (encoder, "frame %u (pts %" GST_TIME_FORMAT ") from slot %u"
      " %s, GPU time %" GST_TIME_FORMAT, frame->system_frame_number,
      GST_TIME_ARGS (frame->pts), slot, lend ? "lent" : "copied",
      GST_TIME_ARGS (gst_bc_gl_encoder_get_gpu_time (gl->enc, slot)));
  GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
  return gst_video_encoder_finish_frame (encoder, frame);

wait_failed:
  {
    GST_ELEMENT_ERROR (encoder, RESOURCE, FAILED, (NULL),
        ("Waiting for the GL encode of frame %u failed: %s",
            frame->system_frame_number, error->message));
    g_clear_error (&error);
    gst_bc_gl_encoder_release (gl->enc, slot);
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
map_failed:
  {
    GST_ELEMENT_ERROR (encoder, RESOURCE, WRITE, (NULL),
        ("Failed to map the %" G_GSIZE_FORMAT " byte output buffer for "
            "writing", gl->info.size));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
}

GstFlowReturn
gst_bc_enc_gl_drain (GstBcEncGL * gl)
{
  return finish_pending (gl);
}

void
gst_bc_enc_gl_flush (GstBcEncGL * gl)
{
  if (gl->pending == NULL)
    return;
  /* the slot is reused only once the GPU is done with it */
  gst_bc_gl_encoder_wait (gl->enc, gl->pending_slot, NULL);
  gst_bc_gl_encoder_release (gl->enc, gl->pending_slot);
  g_clear_pointer (&gl->pending, gst_video_codec_frame_unref);
}

static void
free_encoder (GstBcEncGL * gl)
{
  gst_bc_enc_gl_flush (gl);
  g_clear_pointer (&gl->enc, gst_bc_gl_encoder_free);
}

void
gst_bc_enc_gl_stop (GstBcEncGL * gl)
{
  free_encoder (gl);
  if (gl->pool) {
    gst_buffer_pool_set_active (gl->pool, FALSE);
    gst_clear_object (&gl->pool);
  }
  gl->gl_errors = 0;
  g_rec_mutex_lock (&gl->lock);
  gst_clear_object (&gl->context);
  g_rec_mutex_unlock (&gl->lock);
}

static gchar *
gl_string (GstGLContext * context, GLenum name)
{
  const GstGLFuncs *gl = context->gl_vtable;
  const gchar *s = (const gchar *) gl->GetString (name);

  return g_strdup (s ? s : "?");
}

typedef struct
{
  gchar *version;
  gchar *renderer;
} GLStrings;

static void
get_strings (GstGLContext * context, GLStrings * s)
{
  s->version = gl_string (context, GL_VERSION);
  s->renderer = gl_string (context, GL_RENDERER);
}

/* gst_bc_enc_gl_set_format () and gst_bc_enc_gl_set_format_hdr ():
 * @hdr, when not NULL, the HDR input of a BC6H encoder (@layout unused;
 * @yuv: its YUV input at 16 bits, width 0 for RGB) */
static gboolean
set_format (GstBcEncGL * gl, GstVideoCodecState * state,
    const GstBcInfo * info, const GstBcPixelLayout * layout,
    const GstBcYuvInfo * yuv, const GstBcHdrInput * hdr,
    GstBcQuality quality, gboolean * use_gl)
{
  GstVideoEncoder *encoder = gl->encoder;
  GstGLContext *context = NULL;
  GLStrings strings = { NULL, NULL };
  const gchar *missing;
  GError *error = NULL;

  *use_gl = FALSE;
  /* the frame kept back leaves with the caps it was encoded for */
  finish_pending (gl);
  free_encoder (gl);

  if (!gst_bc_enc_gl_caps_are_gl (state->caps))
    return TRUE;

  context = find_context (gl, TRUE, &error);
  if (context == NULL)
    goto no_context;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) get_strings,
      &strings);
  missing = gst_bc_gl_encoder_context_missing (context);
  if (missing)
    goto no_compute;

  gl->info = *info;
  if (hdr && yuv->width > 0) {
    gl->n_planes = gst_bc_yuv_info_n_planes (yuv);
    gl->enc = gst_bc_gl_encoder_new_hdr_yuv (context, info, yuv, hdr,
        N_SLOTS, &error);
  } else if (hdr) {
    gl->n_planes = 1;
    gl->enc = gst_bc_gl_encoder_new_hdr (context, info,
        GST_VIDEO_INFO_FORMAT (&state->info), hdr, N_SLOTS, &error);
  } else if (yuv->width > 0) {
    gl->n_planes = gst_bc_yuv_info_n_planes (yuv);
    gl->enc = gst_bc_gl_encoder_new_yuv (context, info, yuv, N_SLOTS, &error);
  } else {
    gl->layout = *layout;
    gl->n_planes = 1;
    gl->enc = gst_bc_gl_encoder_new (context, info, layout, N_SLOTS, &error);
  }
  if (gl->enc == NULL)
    goto encoder_failed;
  if (!gst_bc_gl_encoder_prepare (gl->enc, quality, &error))
    goto compile_failed;

  gl->check_errors = gst_debug_category_get_threshold (GST_CAT_DEFAULT) >=
      GST_LEVEL_DEBUG;
  GST_INFO_OBJECT (encoder, "GL path: %s compute shader, %u x %u blocks, "
      "%u texture(s) a frame, on %s (%s), context %" GST_PTR_FORMAT,
      gst_bc_format_to_string (info->format), info->blocks_x, info->blocks_y,
      gl->n_planes, strings.renderer, strings.version, context);
  g_free (strings.version);
  g_free (strings.renderer);
  gst_object_unref (context);
  *use_gl = TRUE;
  return TRUE;

no_context:
  {
    GST_ELEMENT_ERROR (encoder, RESOURCE, NOT_FOUND,
        ("No GL context for the GLMemory input"), ("%s",
            error ? error->message : "no display"));
    g_clear_error (&error);
    return FALSE;
  }
no_compute:
  {
    GST_ELEMENT_ERROR (encoder, CORE, NEGOTIATION,
        ("The GL context cannot run the encoder's compute shader"),
        ("It lacks %s (GL_VERSION %s, GL_RENDERER %s); put gldownload "
            "before the encoder to encode on the CPU", missing,
            strings.version, strings.renderer));
    goto free_out;
  }
encoder_failed:
  {
    GST_ELEMENT_ERROR (encoder, RESOURCE, FAILED,
        ("Could not set up the GL encoder"), ("%s (GL_VERSION %s, "
            "GL_RENDERER %s)", error->message, strings.version,
            strings.renderer));
    goto free_out;
  }
compile_failed:
  {
    GST_ELEMENT_ERROR (encoder, LIBRARY, INIT,
        ("Could not compile the GL encode shader"), ("%s (GL_VERSION %s, "
            "GL_RENDERER %s)", error->message, strings.version,
            strings.renderer));
    g_clear_pointer (&gl->enc, gst_bc_gl_encoder_free);
    goto free_out;
  }
free_out:
  {
    g_clear_error (&error);
    g_free (strings.version);
    g_free (strings.renderer);
    gst_object_unref (context);
    return FALSE;
  }
}

gboolean
gst_bc_enc_gl_set_format (GstBcEncGL * gl, GstVideoCodecState * state,
    const GstBcInfo * info, const GstBcPixelLayout * layout,
    const GstBcYuvInfo * yuv, GstBcQuality quality, gboolean * use_gl)
{
  return set_format (gl, state, info, layout, yuv, NULL, quality, use_gl);
}

gboolean
gst_bc_enc_gl_set_format_hdr (GstBcEncGL * gl, GstVideoCodecState * state,
    const GstBcInfo * info, const GstBcHdrInput * input,
    const GstBcYuvInfo * yuv, GstBcQuality quality, gboolean * use_gl)
{
  return set_format (gl, state, info, NULL, yuv, input, quality, use_gl);
}

/* TRUE when every plane of @in is a 2D texture the encoder's context can
 * read */
static gboolean
frame_is_gl (GstBcEncGL * gl, GstBuffer * in)
{
  guint p;

  if (gst_buffer_n_memory (in) < gl->n_planes) {
    GST_LOG_OBJECT (gl->encoder, "%u memories for %u planes: CPU path",
        gst_buffer_n_memory (in), gl->n_planes);
    return FALSE;
  }
  for (p = 0; p < gl->n_planes; p++) {
    GstMemory *mem = gst_buffer_peek_memory (in, p);

    if (!gst_is_gl_memory (mem) ||
        gst_gl_memory_get_texture_target ((GstGLMemory *) mem) !=
        GST_GL_TEXTURE_TARGET_2D) {
      GST_LOG_OBJECT (gl->encoder, "plane %u is not a 2D GL texture: CPU "
          "path", p);
      return FALSE;
    }
    if (!gst_gl_context_can_share (((GstGLBaseMemory *) mem)->context,
            gl->context)) {
      GST_LOG_OBJECT (gl->encoder, "texture of an unrelated GL context: "
          "CPU path");
      return FALSE;
    }
  }
  return TRUE;
}

GstFlowReturn
gst_bc_enc_gl_handle_frame (GstBcEncGL * gl, GstVideoCodecFrame * frame,
    GstBcQuality quality, gboolean * handled)
{
  GstVideoEncoder *encoder = gl->encoder;
  GstBuffer *in = frame->input_buffer;
  GstGLSyncMeta *sync;
  GstMapInfo maps[3];
  GError *error = NULL;
  guint textures[3] = { 0, 0, 0 }, slot, errors = 0, p;
  gboolean ok;

  *handled = FALSE;
  if (gl->enc == NULL || !frame_is_gl (gl, in))
    return finish_pending (gl);
  *handled = TRUE;

  sync = gst_buffer_get_gl_sync_meta (in);
  if (sync)
    gst_gl_sync_meta_wait (sync, gl->context);
  /* one texture a plane (GstGLMemory), each uploaded if need be here */
  for (p = 0; p < gl->n_planes; p++) {
    if (!gst_memory_map (gst_buffer_peek_memory (in, p), &maps[p],
            GST_MAP_READ | GST_MAP_GL)) {
      while (p-- > 0)
        gst_memory_unmap (gst_buffer_peek_memory (in, p), &maps[p]);
      goto map_failed;
    }
    textures[p] = *(guint *) maps[p].data;
  }
  ok = gst_bc_gl_encoder_submit_planes (gl->enc, textures, quality, &slot,
      gl->check_errors ? &errors : NULL, &error);
  for (p = 0; p < gl->n_planes; p++)
    gst_memory_unmap (gst_buffer_peek_memory (in, p), &maps[p]);
  if (!ok)
    goto submit_failed;
  if (errors) {
    gl->gl_errors += errors;
    GST_ELEMENT_WARNING (encoder, RESOURCE, FAILED, (NULL),
        ("%u GL errors in the encode of frame %u (%u so far)", errors,
            frame->system_frame_number, gl->gl_errors));
  }

  GST_LOG_OBJECT (encoder, "frame %u (pts %" GST_TIME_FORMAT ") submitted "
      "to slot %u, texture %u, quality %d", frame->system_frame_number,
      GST_TIME_ARGS (frame->pts), slot, textures[0], quality);

  /* frame N leaves once N + 1 is queued behind it */
  {
    GstFlowReturn ret = finish_pending (gl);

    gl->pending = frame;
    gl->pending_slot = slot;
    return ret;
  }

map_failed:
  {
    GST_ELEMENT_ERROR (encoder, RESOURCE, READ, (NULL),
        ("Failed to map the GL memory of frame %u",
            frame->system_frame_number));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
submit_failed:
  {
    if (error->domain == GST_GLSL_ERROR)
      GST_ELEMENT_ERROR (encoder, LIBRARY, INIT,
          ("Could not compile the GL encode shader"), ("%s", error->message));
    else
      GST_ELEMENT_ERROR (encoder, RESOURCE, FAILED, (NULL),
          ("Could not queue the GL encode of frame %u: %s",
              frame->system_frame_number, error->message));
    g_clear_error (&error);
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
}

gboolean
gst_bc_enc_gl_decide_allocation (GstBcEncGL * gl, GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps = NULL;
  guint size, min, max;

  if (gl->pool) {
    gst_buffer_pool_set_active (gl->pool, FALSE);
    gst_clear_object (&gl->pool);
  }
  if (gst_query_get_n_allocation_pools (query) == 0)
    return TRUE;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool == NULL)
    return TRUE;

  gst_query_parse_allocation (query, &caps, NULL);
  size = MAX (size, gl->info.size);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)) {
      gst_structure_free (config);
      GST_DEBUG_OBJECT (gl->encoder, "downstream pool %" GST_PTR_FORMAT
          " refuses our configuration: not used", pool);
      gst_object_unref (pool);
      return TRUE;
    }
    gst_structure_free (config);
  }
  if (!gst_buffer_pool_set_active (pool, TRUE)) {
    GST_DEBUG_OBJECT (gl->encoder, "cannot activate downstream pool %"
        GST_PTR_FORMAT ": not used", pool);
    gst_object_unref (pool);
    return TRUE;
  }
  GST_DEBUG_OBJECT (gl->encoder, "copying the GL output into downstream's "
      "pool %" GST_PTR_FORMAT, pool);
  gl->pool = pool;
  return TRUE;
}
