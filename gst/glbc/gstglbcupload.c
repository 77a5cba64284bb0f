/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-glbcupload
 * @title: glbcupload
 * @see_also: tilesrc, bcdec, glimagesink, gldownload
 *
 * Uploads block-compressed frames (`video/x-bc`: BC1, BC3, YCoCg-BC3, BC4,
 * BC5, BC7, BC6H, BC6H-SF) into compressed GL textures and lets the GPU
 * decode them: one draw turns each frame into an RGBA #GstGLMemory texture
 * at the visible size, so that any GL element (glimagesink,
 * glcolorconvert, gldownload, GL filters) can follow.
 *
 * Upstream elements that allocate from the buffer pool glbcupload proposes
 * (tilesrc does) write their frames straight into a GL buffer object that
 * is mapped once, persistent and coherent: no CPU copy between the socket
 * and the GPU. Frames from any other pool are copied into such a buffer
 * once. With tilesrc, each tile of a frame is uploaded into the texture as
 * soon as it has arrived (`stepped`), while the other tiles still arrive.
 *
 * The GPU decodes as the texture formats define. BC4 is shown grey
 * (R = G = B), BC5 as red/green with blue 0, BC1, BC4, BC5 and YCoCg-BC3
 * are opaque, and YCoCg-BC3 is converted to RGB with each block's scale
 * factor in exactly the integer arithmetic of the CPU decoder (bcdec).
 * BC6H and BC6H-SF (unsigned and signed half floats, linear light, 1.0 =
 * 203 cd/m2) go through bcdec's SDR tone curve and the sRGB transfer
 * (gst_bc_hdr_tone_map(), negative values counting as 0) in the shader,
 * and their RGBA has bcdec's colorimetry for them: full range, the sRGB
 * transfer and the input's primaries.
 *
 * ## Automatic use by decodebin and playbin
 *
 * glbcupload is a hardware video decoder (klass
 * `Codec/Decoder/Video/Hardware`) of rank primary + 1, one above bcdec:
 * decodebin, uridecodebin, playbin and their 3 versions try it first.
 * They try a decoder by setting it to READY and asking whether it accepts
 * the caps: glbcupload makes its GL context then, and without an OpenGL
 * display, when no GL context can be made, or when the context lacks what
 * glbcupload needs or cannot sample the format, it does not accept the
 * caps, without posting an error (decodebin3 of GStreamer 1.22 would let
 * an error through to the application). The autopluggers fall back to
 * bcdec, and the application sees no error. Their `force-sw-decoders`
 * skips glbcupload.
 *
 * Named in a pipeline without an OpenGL display, glbcupload reaches READY
 * and refuses the caps of the stream with a RESOURCE/NOT_FOUND error ("No
 * OpenGL display"); any other GL failure is posted when the caps come.
 *
 * When downstream takes only system memory (`decodebin ! videoconvert !
 * xvimagesink`), glbcupload outputs `video/x-raw, format=RGBA` without the
 * GLMemory feature: the GPU still decodes each frame into a texture of
 * glbcupload's own GL pool, the texture is read back into the memory's
 * pixel buffer object right after the draw, and downstream maps the
 * buffer as any other (as gldownload does). GLMemory is preferred
 * whenever downstream accepts both.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 tilesrc host=10.0.0.2 port=7000 ! glbcupload ! glimagesink
 * gst-launch-1.0 videotestsrc ! bc1enc ! glbcupload ! glimagesink
 * gst-launch-1.0 videotestsrc ! bc1enc ! decodebin ! glimagesink
 * gst-launch-1.0 videotestsrc num-buffers=10 ! bc3enc ! glbcupload ! gldownload ! videoconvert ! pngenc ! multifilesink
 * gst-launch-1.0 videotestsrc num-buffers=10 ! bc7enc ! glbcupload ! videoconvert ! pngenc ! multifilesink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcupload.h"
#include "gstglbcelements.h"
#include "gstglbcpool.h"
#include "gstglbcdraw.h"
#include "gstglbctrial.h"

#include <gst/bc/bc.h>
#include <gst/video/video.h>
#include <string.h>

GST_DEBUG_CATEGORY (gst_gl_bc_upload_debug);
#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

#define DEFAULT_STEPPED TRUE
#define DEFAULT_GPU_TIMING FALSE
#define DEFAULT_RING_SIZE 6
#define MIN_RING_SIZE 2
#define MAX_RING_SIZE 32
/* slots of the ring that frames from other pools are copied into */
#define COPY_SLOTS 3

enum
{
  PROP_0,
  PROP_STEPPED,
  PROP_GPU_TIMING,
  PROP_RING_SIZE,
  PROP_STATS,
};

struct _GstGLBcUpload
{
  GstGLBaseFilter parent;

  /* properties, object lock */
  gboolean stepped;
  gboolean gpu_timing;
  guint ring_size;

  /* negotiated, streaming thread */
  gboolean have_info;
  GstBcInfo info;
  GstVideoInfo out_info;
  /* system memory caps downstream: the frames are read back */
  gboolean download;
  GstBufferPool *copy_pool;

  /* object lock */
  GstBufferPool *proposed;

  /* the autopluggers' trial of the GL context (gstglbctrial.c) */
  GstGLBcTrial trial;

  /* GL thread */
  GstGLBcDraw *draw;
  /* GPU timing of the last rows' upload and the draw (gpu-timing) */
  GstBcGLTimer *timer;

  /* statistics, object lock */
  guint64 frames;
  guint64 zero_copy_frames;
  guint64 copied_frames;
  guint64 copied_bytes;
  guint64 stepped_uploads;
  guint64 frame_uploads;
  guint64 frames_stepped;
  guint64 fence_waits;
  guint64 gl_errors;
  guint64 gpu_frames;
  guint64 gpu_ns;
  guint64 gpu_invalid;
};

#define gst_gl_bc_upload_parent_class parent_class
G_DEFINE_TYPE (GstGLBcUpload, gst_gl_bc_upload, GST_TYPE_GL_BASE_FILTER);
/* one above bcdec (primary): decodebin tries the GPU first */
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (glbcupload, "glbcupload",
    GST_RANK_PRIMARY + 1, GST_TYPE_GL_BC_UPLOAD, gst_bc_init ());

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_BC_CAPS_MAKE (GST_BC_GL_UPLOAD_FORMATS)));

/* GLMemory first: preferred when downstream takes both */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_GL_MEMORY, "RGBA") ", "
        "texture-target = (string) 2D; " GST_VIDEO_CAPS_MAKE ("RGBA")));

/* ---------------------------------------------------------------------- */
/* Properties                                                              */
/* ---------------------------------------------------------------------- */

static GstStructure *
get_stats (GstGLBcUpload * self)
{
  GstStructure *s;
  guint slots = 0;

  GST_OBJECT_LOCK (self);
  s = gst_structure_new ("glbcupload-stats",
      "frames", G_TYPE_UINT64, self->frames,
      "zero-copy-frames", G_TYPE_UINT64, self->zero_copy_frames,
      "copied-frames", G_TYPE_UINT64, self->copied_frames,
      "copied-bytes", G_TYPE_UINT64, self->copied_bytes,
      "stepped-uploads", G_TYPE_UINT64, self->stepped_uploads,
      "frame-uploads", G_TYPE_UINT64, self->frame_uploads,
      "frames-stepped", G_TYPE_UINT64, self->frames_stepped,
      "fence-waits", G_TYPE_UINT64, self->fence_waits,
      "gl-errors", G_TYPE_UINT64, self->gl_errors,
      "gpu-timed-frames", G_TYPE_UINT64, self->gpu_frames,
      "gpu-time-ns", G_TYPE_UINT64, self->gpu_ns,
      "gpu-time-invalid", G_TYPE_UINT64, self->gpu_invalid, NULL);
  if (self->proposed) {
    GstStructure *config = gst_buffer_pool_get_config (self->proposed);

    gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &slots);
    gst_structure_free (config);
  }
  gst_structure_set (s, "ring-slots", G_TYPE_UINT, slots, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_gl_bc_upload_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (object);

  switch (prop_id) {
    case PROP_STEPPED:
      GST_OBJECT_LOCK (self);
      self->stepped = g_value_get_boolean (value);
      if (self->proposed)
        gst_gl_bc_pool_set_stepped (GST_GL_BC_POOL (self->proposed),
            self->stepped);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_RING_SIZE:
      GST_OBJECT_LOCK (self);
      self->ring_size = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_GPU_TIMING:
      GST_OBJECT_LOCK (self);
      self->gpu_timing = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_gl_bc_upload_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (object);

  switch (prop_id) {
    case PROP_STEPPED:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->stepped);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_RING_SIZE:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->ring_size);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_GPU_TIMING:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->gpu_timing);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, get_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* ---------------------------------------------------------------------- */
/* Caps                                                                    */
/* ---------------------------------------------------------------------- */

static GstCaps *
gst_gl_bc_upload_transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_bc_gl_caps_transform (direction, caps, filter);

  GST_DEBUG_OBJECT (bt, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* The same caps again (decodebin sends an element the sticky events of the
 * pad it links it to while it tries it out, and that pad sends them once
 * more with its next event) change nothing: GstBaseTransform would still
 * query downstream for allocation, and decodebin holds that query until
 * it exposes its pads. Behind a demuxer that is when the demuxer has added
 * all its pads, which it does in the very thread that sent the caps: it
 * would never happen. A pending reconfigure from downstream is still
 * handled, with the next buffer. */
static gboolean
gst_gl_bc_upload_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS && self->have_info &&
      gst_pad_has_current_caps (bt->srcpad)) {
    GstCaps *caps, *current = gst_pad_get_current_caps (bt->sinkpad);
    gboolean same;

    gst_event_parse_caps (event, &caps);
    same = current && gst_caps_is_equal (caps, current);
    gst_clear_caps (&current);
    if (same) {
      GST_DEBUG_OBJECT (self, "the same caps again: nothing to negotiate");
      gst_event_unref (event);
      return TRUE;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

/* GL memory whenever downstream takes it, even when it lists system memory
 * first (gldownload does) */
static GstCaps *
gst_gl_bc_upload_fixate_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  if (direction == GST_PAD_SINK)
    othercaps = gst_bc_gl_caps_prefer_gl_memory (othercaps);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (bt, direction,
      caps, othercaps);
}

static gboolean
gst_gl_bc_upload_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);
  GstCapsFeatures *features;
  GstBcInfo info;
  GstVideoInfo out_info;
  gboolean download;

  if (!gst_bc_info_from_caps (&info, incaps)
      || !gst_video_info_from_caps (&out_info, outcaps))
    goto invalid;
  if (GST_VIDEO_INFO_WIDTH (&out_info) != (gint) info.width ||
      GST_VIDEO_INFO_HEIGHT (&out_info) != (gint) info.height)
    goto invalid;
  features = gst_caps_get_features (outcaps, 0);
  if (gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_GL_MEMORY))
    download = FALSE;
  else if (gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    download = TRUE;
  else
    goto invalid;

  self->info = info;
  self->out_info = out_info;
  self->download = download;
  self->have_info = TRUE;
  GST_DEBUG_OBJECT (self, "%ux%u %s, %u x %u blocks, %" G_GSIZE_FORMAT
      " bytes per frame, out to %s", info.width, info.height,
      gst_bc_format_to_string (info.format), info.blocks_x, info.blocks_y,
      info.size, download ? "system memory (read back)" : "GL memory");

  return GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (bt, incaps,
      outcaps);

invalid:
  GST_WARNING_OBJECT (self, "cannot convert %" GST_PTR_FORMAT " to %"
      GST_PTR_FORMAT, incaps, outcaps);
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* GL state                                                                */
/* ---------------------------------------------------------------------- */

static gboolean
gst_gl_bc_upload_gl_start (GstGLBaseFilter * filter)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (filter);
  GstGLContext *context = filter->context;
  const GstGLFuncs *gl = context->gl_vtable;
  const gchar *missing;
  GError *error = NULL;
  gboolean gpu_timing;

  missing = gst_gl_bc_context_missing (context);
  if (missing) {
    GST_ELEMENT_ERROR (self, LIBRARY, INIT, ("The GL context cannot map "
            "persistent coherent buffers or make immutable textures: it "
            "lacks %s", missing), ("GL_VERSION %s, GL_RENDERER %s",
            (const gchar *) gl->GetString (GL_VERSION),
            (const gchar *) gl->GetString (GL_RENDERER)));
    return FALSE;
  }

  self->draw = gst_gl_bc_draw_new (context, &error);
  if (!self->draw) {
    GST_ELEMENT_ERROR (self, LIBRARY, INIT, ("Cannot compile the GL shader"),
        ("%s", error ? error->message : "unknown error"));
    g_clear_error (&error);
    return FALSE;
  }

  /* GL_TIME_ELAPSED: OpenGL 3.3 (ARB_timer_query); not in OpenGL ES 3 */
  GST_OBJECT_LOCK (self);
  gpu_timing = self->gpu_timing;
  GST_OBJECT_UNLOCK (self);
  self->timer = gpu_timing ? gst_bc_gl_timer_new (context) : NULL;

  GST_INFO_OBJECT (self, "GL ready: %s, %s",
      (const gchar *) gl->GetString (GL_VERSION),
      (const gchar *) gl->GetString (GL_RENDERER));
  return GST_GL_BASE_FILTER_CLASS (parent_class)->gl_start (filter);
}

static void
gst_gl_bc_upload_gl_stop (GstGLBaseFilter * filter)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (filter);

  g_clear_pointer (&self->timer, gst_bc_gl_timer_free);
  gst_gl_bc_draw_free (self->draw);
  self->draw = NULL;
  GST_GL_BASE_FILTER_CLASS (parent_class)->gl_stop (filter);
}

static gboolean
gst_gl_bc_upload_gl_set_caps (GstGLBaseFilter * filter, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (filter);
  GstGLContext *context = filter->context;
  const GstGLFuncs *gl = context->gl_vtable;
  GstGLBcFormatSupport support;
  GLint max_size = 0;

  gst_gl_bc_format_support (context, self->info.format, &support);
  if (support.missing) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("The GL context cannot "
            "sample %s textures: it lacks %s",
            gst_bc_format_to_string (self->info.format), support.missing),
        ("GL_VERSION %s, GL_RENDERER %s",
            (const gchar *) gl->GetString (GL_VERSION),
            (const gchar *) gl->GetString (GL_RENDERER)));
    return FALSE;
  }
  gl->GetIntegerv (GL_MAX_TEXTURE_SIZE, &max_size);
  if (self->info.padded_width > (guint) max_size ||
      self->info.padded_height > (guint) max_size) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%ux%u frames are larger "
            "than the GL context's textures (at most %dx%d)",
            self->info.width, self->info.height, max_size, max_size), (NULL));
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_gl_bc_upload_accept_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps)
{
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (bt, direction,
          caps))
    return FALSE;
  return direction != GST_PAD_SINK ||
      gst_gl_bc_trial_accepts (GST_GL_BASE_FILTER (bt),
      &GST_GL_BC_UPLOAD (bt)->trial, caps);
}

/* The errors a GL context search on trial holds back (gstglbctrial.c) */
static gboolean
gst_gl_bc_upload_post_message (GstElement * element, GstMessage * message)
{
  if (gst_gl_bc_trial_hold (element, &GST_GL_BC_UPLOAD (element)->trial,
          message))
    return TRUE;
  return GST_ELEMENT_CLASS (parent_class)->post_message (element, message);
}

static GstStateChangeReturn
gst_gl_bc_upload_change_state (GstElement * element, GstStateChange transition)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (element);

  /* a context made on trial, in READY, without a stop () since: its GL
   * state goes now (GstGLBaseFilter's stop (); its READY to NULL only
   * drops the context) */
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    GST_BASE_TRANSFORM_CLASS (parent_class)->stop (bt);
  if (transition == GST_STATE_CHANGE_NULL_TO_READY)
    gst_gl_bc_trial_reset (element, &GST_GL_BC_UPLOAD (element)->trial);
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

/* ---------------------------------------------------------------------- */
/* Allocation                                                              */
/* ---------------------------------------------------------------------- */

/* Offers upstream a pool whose buffers are slots of a persistent, coherent
 * mapped GL buffer. */
static gboolean
gst_gl_bc_upload_propose_allocation (GstBaseTransform * bt,
    GstQuery * decide_query, GstQuery * query)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);
  GstGLBaseFilter *filter = GST_GL_BASE_FILTER (bt);
  GstGLBcFormatSupport support;
  GstGLContext *context;
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;
  GstBcInfo info;
  gboolean need_pool, stepped;
  guint ring_size;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_bc_info_from_caps (&info, caps))
    return FALSE;
  if (!need_pool)
    return TRUE;

  context = gst_gl_base_filter_get_gl_context (filter);
  if (!context && gst_gl_base_filter_find_gl_context (filter))
    context = gst_gl_base_filter_get_gl_context (filter);
  if (!context) {
    GST_DEBUG_OBJECT (self, "no GL context yet: no pool to propose");
    return FALSE;
  }
  gst_gl_bc_format_support (context, info.format, &support);
  if (gst_gl_bc_context_missing (context) || support.missing) {
    gst_object_unref (context);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  ring_size = self->ring_size;
  stepped = self->stepped;
  GST_OBJECT_UNLOCK (self);

  pool = gst_gl_bc_pool_new (context);
  gst_gl_bc_pool_set_stepped (GST_GL_BC_POOL (pool), stepped);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, MIN_RING_SIZE,
      ring_size);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "cannot configure a pool for %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (pool);
    gst_object_unref (context);
    return FALSE;
  }
  gst_query_add_allocation_pool (query, pool, info.size, MIN_RING_SIZE,
      ring_size);
  GST_DEBUG_OBJECT (self, "proposing %" GST_PTR_FORMAT " (%u slots of %"
      G_GSIZE_FORMAT " bytes)", pool, ring_size, info.size);

  GST_OBJECT_LOCK (self);
  gst_object_replace ((GstObject **) & self->proposed, GST_OBJECT (pool));
  GST_OBJECT_UNLOCK (self);
  gst_object_unref (pool);
  gst_object_unref (context);
  return TRUE;
}

static gboolean
gst_gl_bc_upload_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
  GstGLContext *context;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  guint min = 0, max = 0, size = 0;
  gboolean update_pool;
  GstVideoInfo vinfo;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&vinfo, caps))
    return FALSE;

  /* the GL context, and gl_set_caps */
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query))
    return FALSE;
  context = GST_GL_BASE_FILTER (bt)->context;

  /* a GL pool in both modes: for system memory caps too, the frames are
   * drawn into GL memory, which downstream maps (a pool of system memory
   * downstream proposes, or one of its own kind, is not used) */
  update_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (update_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (!pool || !GST_IS_GL_BUFFER_POOL (pool)) {
    gst_clear_object (&pool);
    pool = gst_gl_buffer_pool_new (context);
  }
  size = MAX (size, vinfo.size);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_GL_SYNC_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)) {
      gst_structure_free (config);
      gst_object_unref (pool);
      GST_WARNING_OBJECT (bt, "cannot configure the output pool");
      return FALSE;
    }
    gst_buffer_pool_set_config (pool, config);
  }

  if (update_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Frames                                                                  */
/* ---------------------------------------------------------------------- */

typedef struct
{
  GstGLBcUpload *self;
  GstBcGLBufferRing *ring;
  guint slot;
  GstGLMemory *out;
  gboolean download;
  GstGLBcUploadResult result;
  guint gl_errors;
  gboolean ok;
} DrawData;

/* GL thread: the rows not uploaded yet, the draw, the slot's fence; for
 * system memory downstream, the read back of the texture into the
 * memory's pixel buffer object, started now (as gldownload does): the
 * draw flagged the memory as needing it, so a CPU map made before the
 * transfer ends waits for it and never sees the previous frame */
static void
upload_and_draw (GstGLContext * context, DrawData * d)
{
  gst_gl_bc_ring_upload_remaining (d->ring, d->slot, &d->result);
  d->gl_errors += gst_gl_bc_check_gl_error (context, GST_OBJECT (d->self),
      "glCompressedTexSubImage2D");

  d->ok = gst_gl_bc_draw_frame (d->self->draw, gst_gl_bc_ring_get_texture
      (d->ring, d->slot), d->self->info.format, d->out);
  gst_gl_bc_ring_fence (d->ring, d->slot);
  d->gl_errors += gst_gl_bc_check_gl_error (context, GST_OBJECT (d->self),
      "the draw");
  if (d->ok && d->download && gst_is_gl_memory_pbo (GST_MEMORY_CAST (d->out))) {
    gst_gl_memory_pbo_download_transfer ((GstGLMemoryPBO *) d->out);
    d->gl_errors += gst_gl_bc_check_gl_error (context, GST_OBJECT (d->self),
        "the read back");
  }
}

/* GL thread: upload_and_draw (), timed with GL_TIME_ELAPSED where the
 * context has it */
static void
upload_and_draw_gl (GstGLContext * context, DrawData * d)
{
  GstGLBcUpload *self = d->self;
  gboolean timed = self->timer && gst_bc_gl_timer_begin (self->timer);

  gst_gl_insert_debug_marker (context, "glbcupload %s slot %u",
      GST_OBJECT_NAME (d->self), d->slot);
  upload_and_draw (context, d);
  if (timed)
    gst_bc_gl_timer_end (self->timer);
  if (self->timer) {
    guint64 frames, ns, invalid;

    gst_bc_gl_timer_take (self->timer, &frames, &ns, &invalid);
    if (frames + invalid > 0) {
      GST_LOG_OBJECT (self, "GPU time of %" G_GUINT64_FORMAT " frames: %"
          G_GUINT64_FORMAT " ns", frames, ns);
      GST_OBJECT_LOCK (self);
      self->gpu_frames += frames;
      self->gpu_ns += ns;
      self->gpu_invalid += invalid;
      GST_OBJECT_UNLOCK (self);
    }
  }
}


static gboolean
same_geometry (const GstBcInfo * a, const GstBcInfo * b)
{
  return a->format == b->format && a->width == b->width &&
      a->height == b->height && a->size == b->size;
}

/* The ring frames from other pools are copied into. */
static GstBufferPool *
ensure_copy_pool (GstGLBcUpload * self, GstGLContext * context)
{
  GstBufferPool *pool = self->copy_pool;
  GstStructure *config;
  GstCaps *caps;

  if (pool) {
    GstBcGLBufferRing *ring = gst_gl_bc_pool_get_ring (GST_GL_BC_POOL (pool));
    gboolean same = ring && same_geometry (gst_gl_bc_ring_get_info (ring),
        &self->info) && gst_bc_gl_buffer_ring_get_context (ring) == context;

    if (ring)
      gst_bc_gl_buffer_ring_unref (ring);
    if (same)
      return pool;
    gst_buffer_pool_set_active (pool, FALSE);
    gst_clear_object (&self->copy_pool);
  }

  pool = gst_gl_bc_pool_new (context);
  gst_gl_bc_pool_set_stepped (GST_GL_BC_POOL (pool), FALSE);
  caps = gst_bc_info_to_caps (&self->info);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, self->info.size, 0,
      COPY_SLOTS);
  gst_caps_unref (caps);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  self->copy_pool = pool;
  return pool;
}

static GstFlowReturn
gst_gl_bc_upload_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);
  GstGLContext *context = GST_GL_BASE_FILTER (bt)->context;
  GstBuffer *copy = NULL;
  GstGLSyncMeta *sync_meta;
  GstMemory *out_mem;
  GstBcGLBufferRing *ring;
  DrawData d = { 0, };
  gsize size;
  guint slot = 0;
  gboolean zero_copy = FALSE;

  if (!context || !self->have_info || !self->draw)
    return GST_FLOW_NOT_NEGOTIATED;

  size = gst_buffer_get_size (inbuf);
  if (size != self->info.size)
    goto wrong_size;

  out_mem = gst_buffer_n_memory (outbuf) == 1 ?
      gst_buffer_peek_memory (outbuf, 0) : NULL;
  if (!out_mem || !gst_is_gl_memory (out_mem))
    goto not_gl;

  ring = gst_gl_bc_ring_from_buffer (inbuf, &slot);
  if (ring) {
    GstMemory *mem = gst_buffer_peek_memory (inbuf, 0);

    zero_copy = gst_bc_gl_buffer_ring_get_context (ring) == context &&
        same_geometry (gst_gl_bc_ring_get_info (ring), &self->info) &&
        mem->offset == 0;
  }
  if (!zero_copy) {
    GstBufferPool *pool = ensure_copy_pool (self, context);
    GstMapInfo map;

    if (!pool || gst_buffer_pool_acquire_buffer (pool, &copy,
            NULL) != GST_FLOW_OK)
      goto no_ring;
    if (!gst_buffer_map (copy, &map, GST_MAP_WRITE)) {
      gst_buffer_unref (copy);
      goto no_ring;
    }
    gst_buffer_extract (inbuf, 0, map.data, size);
    gst_buffer_unmap (copy, &map);
    ring = gst_gl_bc_ring_from_buffer (copy, &slot);
  }

  d.self = self;
  d.ring = ring;
  d.slot = slot;
  d.out = GST_GL_MEMORY_CAST (out_mem);
  d.download = self->download;
  gst_gl_context_thread_add (context,
      (GstGLContextThreadFunc) upload_and_draw_gl, &d);
  if (copy)
    gst_buffer_unref (copy);
  if (!d.ok)
    goto draw_failed;

  sync_meta = gst_buffer_get_gl_sync_meta (outbuf);
  if (!sync_meta)
    sync_meta = gst_buffer_add_gl_sync_meta (context, outbuf);
  gst_gl_sync_meta_set_sync_point (sync_meta, context);

  d.gl_errors += d.result.gl_errors;
  GST_OBJECT_LOCK (self);
  self->frames++;
  if (zero_copy) {
    self->zero_copy_frames++;
  } else {
    self->copied_frames++;
    self->copied_bytes += size;
  }
  self->stepped_uploads += d.result.stepped;
  self->frame_uploads += d.result.uploads;
  if (d.result.all_stepped)
    self->frames_stepped++;
  if (d.result.waited)
    self->fence_waits++;
  self->gl_errors += d.gl_errors;
  GST_OBJECT_UNLOCK (self);

  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " from slot %u (%s): %u "
      "tiles uploaded stepped, %u uploads now", GST_TIME_ARGS
      (GST_BUFFER_PTS (inbuf)), slot, zero_copy ? "zero-copy" : "copied",
      d.result.stepped, d.result.uploads);
  if (d.gl_errors > 0)
    GST_ELEMENT_WARNING (self, LIBRARY, FAILED, ("GL error"),
        ("%u GL errors while uploading and drawing a frame", d.gl_errors));
  return GST_FLOW_OK;

wrong_size:
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL), ("Input buffer has %"
          G_GSIZE_FORMAT " bytes, but a %ux%u %s frame has %" G_GSIZE_FORMAT
          " bytes", size, self->info.width, self->info.height,
          gst_bc_format_to_string (self->info.format), self->info.size));
  return GST_FLOW_ERROR;
not_gl:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL),
      ("The output buffer is not one GL memory"));
  return GST_FLOW_ERROR;
no_ring:
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Cannot allocate a GL "
          "upload buffer for %" G_GSIZE_FORMAT " byte frames", size), (NULL));
  return GST_FLOW_ERROR;
draw_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL),
      ("Drawing the frame into the output texture failed"));
  return GST_FLOW_ERROR;
}

static gboolean
gst_gl_bc_upload_stop (GstBaseTransform * bt)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);

  if (self->copy_pool) {
    gst_buffer_pool_set_active (self->copy_pool, FALSE);
    gst_clear_object (&self->copy_pool);
  }
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->proposed);
  GST_OBJECT_UNLOCK (self);
  self->have_info = FALSE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->stop (bt);
}

static gboolean
gst_gl_bc_upload_start (GstBaseTransform * bt)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (bt);

  GST_OBJECT_LOCK (self);
  self->frames = self->zero_copy_frames = self->copied_frames = 0;
  self->copied_bytes = self->stepped_uploads = self->frame_uploads = 0;
  self->frames_stepped = self->fence_waits = self->gl_errors = 0;
  self->gpu_frames = self->gpu_ns = self->gpu_invalid = 0;
  GST_OBJECT_UNLOCK (self);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->start (bt);
}

static void
gst_gl_bc_upload_finalize (GObject * object)
{
  GstGLBcUpload *self = GST_GL_BC_UPLOAD (object);

  gst_clear_object (&self->copy_pool);
  gst_clear_object (&self->proposed);
  gst_gl_bc_trial_clear (&self->trial);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_gl_bc_upload_class_init (GstGLBcUploadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstGLBaseFilterClass *filter_class = GST_GL_BASE_FILTER_CLASS (klass);

  gobject_class->set_property = gst_gl_bc_upload_set_property;
  gobject_class->get_property = gst_gl_bc_upload_get_property;
  gobject_class->finalize = gst_gl_bc_upload_finalize;
  element_class->change_state = gst_gl_bc_upload_change_state;
  element_class->post_message = gst_gl_bc_upload_post_message;

  /**
   * GstGLBcUpload:stepped:
   *
   * Upload each tile of a frame as soon as the producer reports it
   * complete (tilesrc with `flush=stepped` does, for buffers of the pool
   * glbcupload proposes), instead of the whole frame when it is pushed.
   */
  g_object_class_install_property (gobject_class, PROP_STEPPED,
      g_param_spec_boolean ("stepped", "Stepped upload",
          "Upload each tile of a frame into the texture as soon as upstream "
          "reports it complete (GstBcTileMeta), while the other tiles still "
          "arrive; FALSE uploads whole frames when they are pushed",
          DEFAULT_STEPPED, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstGLBcUpload:gpu-timing:
   *
   * Time each frame's last rows' upload and draw on the GPU with
   * GL_TIME_ELAPSED queries (desktop OpenGL 3.3 or later), into the
   * gpu-timed-frames and gpu-time-ns statistics. Off by default: on Mesa
   * llvmpipe a timer query costs latency.
   */
  g_object_class_install_property (gobject_class, PROP_GPU_TIMING,
      g_param_spec_boolean ("gpu-timing", "GPU timing",
          "Time the upload and draw of each frame on the GPU with "
          "GL_TIME_ELAPSED queries (desktop OpenGL 3.3+), shown in stats; "
          "takes effect when the element starts",
          DEFAULT_GPU_TIMING, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstGLBcUpload:ring-size:
   *
   * Frame slots in the persistent GL buffer of the proposed pool: the most
   * buffers upstream can hold at once (more when upstream needs more).
   */
  g_object_class_install_property (gobject_class, PROP_RING_SIZE,
      g_param_spec_uint ("ring-size", "Ring size",
          "Frame slots in the persistent, coherent GL buffer of the buffer "
          "pool proposed upstream (the most buffers upstream can hold at "
          "once; raised to what upstream asks for, at most 32)",
          MIN_RING_SIZE, MAX_RING_SIZE, DEFAULT_RING_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstGLBcUpload:stats:
   *
   * Upload statistics (a `glbcupload-stats` structure): frames,
   * zero-copy-frames, copied-frames, copied-bytes, stepped-uploads,
   * frame-uploads, frames-stepped, fence-waits, gl-errors (all guint64)
   * and ring-slots (guint).
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Upload statistics: frames, zero-copy-frames, copied-frames, "
          "copied-bytes, stepped-uploads, frame-uploads, frames-stepped, "
          "fence-waits, gl-errors, ring-slots", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Block-compressed video GL uploader", "Codec/Decoder/Video/Hardware",
      "Uploads block-compressed video (video/x-bc) into GL textures from "
      "persistent mapped buffers; the GPU decodes it into RGBA, in GL "
      "memory or read back into system memory", "The gst-bc developers");

  bt_class->passthrough_on_same_caps = FALSE;
  bt_class->transform_caps = gst_gl_bc_upload_transform_caps;
  bt_class->fixate_caps = gst_gl_bc_upload_fixate_caps;
  bt_class->accept_caps = gst_gl_bc_upload_accept_caps;
  bt_class->sink_event = gst_gl_bc_upload_sink_event;
  bt_class->set_caps = gst_gl_bc_upload_set_caps;
  bt_class->propose_allocation = gst_gl_bc_upload_propose_allocation;
  bt_class->decide_allocation = gst_gl_bc_upload_decide_allocation;
  bt_class->transform = gst_gl_bc_upload_transform;
  bt_class->start = gst_gl_bc_upload_start;
  bt_class->stop = gst_gl_bc_upload_stop;

  filter_class->supported_gl_api = GST_GL_API_OPENGL | GST_GL_API_OPENGL3 |
      GST_GL_API_GLES2;
  filter_class->gl_start = gst_gl_bc_upload_gl_start;
  filter_class->gl_stop = gst_gl_bc_upload_gl_stop;
  filter_class->gl_set_caps = gst_gl_bc_upload_gl_set_caps;

  GST_DEBUG_CATEGORY_INIT (gst_gl_bc_upload_debug, "glbcupload", 0,
      "block-compressed video GL upload");
}

static void
gst_gl_bc_upload_init (GstGLBcUpload * self)
{
  self->stepped = DEFAULT_STEPPED;
  self->gpu_timing = DEFAULT_GPU_TIMING;
  self->ring_size = DEFAULT_RING_SIZE;
}
