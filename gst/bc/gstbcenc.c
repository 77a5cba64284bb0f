/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcenc
 * @title: GstBcEnc
 * @short_description: base class of the CPU block-compression encoders
 * @see_also: #bc1enc, #bc3enc, #bc4enc, #bc5enc, #bc7enc, #bcdec
 *
 * #GstBcEnc turns packed 8-bit RGB(A) video (and, for bc4enc, grey video)
 * into `video/x-bc` frames on the CPU. YUV video (%GST_BC_YUV_FORMATS) is
 * converted to RGB inside the encoder as the blocks are gathered
 * (gst_bc_encode_rows_yuv(): the caps' colorimetry and chroma siting,
 * GStreamer's defaults for the size where they are unknown). Interlaced
 * 4:2:0 input (NV12, I420, P010_10LE) is refused when its caps are set
 * (not-negotiated): its chroma rows belong to fields. (The template does
 * not say so: caps without an interlace-mode field, progressive, would
 * then not be accepted.) Subclasses (bc1enc, bc3enc, bc4enc,
 * bc5enc, bc7enc: gstbcencoders.c) only say which #GstBcFormat they produce
 * (the #GstBcEncClass.get_format vfunc) and add their pad templates with
 * gst_bc_enc_class_add_pad_templates(); the base class negotiates, splits
 * every frame into jobs of whole block rows and runs them on a persistent
 * pool of worker threads (#GstBcEnc:threads), created when the element
 * starts.
 *
 * Every output frame is a key frame. Timestamps and durations are those of
 * the input. The encode is synchronous: a frame leaves in the call that
 * brought it, and the encoder reports no latency.
 *
 * When the plugin is built with the GStreamer GL library, every encoder
 * also accepts `video/x-raw(memory:GLMemory)`: such input is encoded by a
 * compute shader on the pipeline's GL context (gstbcencgl.c), the same
 * algorithm as the CPU kernels, one frame kept back while the GPU works:
 * one frame duration of latency when the framerate is known.
 * #GstBcEnc:path tells which path the current caps took.
 *
 * With the #GstVideoEncoder:qos property set, a frame that downstream's
 * QoS events say would arrive too late is dropped before it is encoded
 * (gst_video_encoder_get_max_encode_time()): tilesink sends such events
 * while the network is still busy with an earlier frame, so the encoder
 * does not spend its time on frames tilesink would drop anyway.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbcenc.h"
#include "gstbcelements.h"
#ifdef HAVE_BC_GL
#include "gstbcencgl.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_bc_enc_debug);
#define GST_CAT_DEFAULT gst_bc_enc_debug

#define DEFAULT_QUALITY GST_BC_QUALITY_NORMAL
#define DEFAULT_THREADS 0
#define MAX_THREADS 256

enum
{
  PROP_0,
  PROP_QUALITY,
  PROP_THREADS,
  PROP_PATH,
};

typedef struct
{
  /* properties, under the object lock */
  GstBcQuality quality;
  guint threads;

  /* streaming thread only */
  GstVideoCodecState *input_state;
  GstBcPixelLayout layout;
  /* YUV input: its conversion (yuv.width 0 for RGB input) */
  GstBcYuvInfo yuv;
  GstBcInfo info;
  GstBcWorkers *workers;
  /* downstream's pool when it wants frames filled tile by tile
   * (gst_bc_tile_meta_query_stepped(): tilesink), else NULL */
  GstBufferPool *out_pool;
  /* the path of the current input caps; written under the object lock */
  gboolean use_gl;
#ifdef HAVE_BC_GL
  GstBcEncGL *gl;
#endif
} GstBcEncPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstBcEnc, gst_bc_enc,
    GST_TYPE_VIDEO_ENCODER, G_ADD_PRIVATE (GstBcEnc);
    GST_DEBUG_CATEGORY_INIT (gst_bc_enc_debug, "bcenc", 0,
        "Block-compression encoder base class"));

static void gst_bc_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_bc_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_bc_enc_start (GstVideoEncoder * encoder);
static gboolean gst_bc_enc_stop (GstVideoEncoder * encoder);
static gboolean gst_bc_enc_set_format (GstVideoEncoder * encoder,
    GstVideoCodecState * state);
static GstFlowReturn gst_bc_enc_handle_frame (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame);
static gboolean gst_bc_enc_propose_allocation (GstVideoEncoder * encoder,
    GstQuery * query);
static gboolean gst_bc_enc_decide_allocation (GstVideoEncoder * encoder,
    GstQuery * query);
static gboolean gst_bc_enc_transform_meta (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame, GstMeta * meta);
#ifdef HAVE_BC_GL
static void gst_bc_enc_finalize (GObject * object);
static void gst_bc_enc_set_context (GstElement * element, GstContext * context);
static gboolean gst_bc_enc_sink_query (GstVideoEncoder * encoder,
    GstQuery * query);
static gboolean gst_bc_enc_src_query (GstVideoEncoder * encoder,
    GstQuery * query);
static GstCaps *gst_bc_enc_getcaps (GstVideoEncoder * encoder,
    GstCaps * filter);
static GstFlowReturn gst_bc_enc_finish (GstVideoEncoder * encoder);
static gboolean gst_bc_enc_flush (GstVideoEncoder * encoder);
#endif

static void
gst_bc_enc_class_init (GstBcEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstVideoEncoderClass *venc_class = GST_VIDEO_ENCODER_CLASS (klass);

  gobject_class->set_property = gst_bc_enc_set_property;
  gobject_class->get_property = gst_bc_enc_get_property;

  /**
   * GstBcEnc:quality:
   *
   * Speed/quality trade-off of the block encoder. It can be changed while
   * playing; the new value is used from the next frame on.
   */
  g_object_class_install_property (gobject_class, PROP_QUALITY,
      g_param_spec_enum ("quality", "Quality",
          "Speed/quality trade-off of the block encoder: fast, normal or "
          "high (default: normal). Can be changed while playing, it applies "
          "from the next frame", GST_TYPE_BC_QUALITY, DEFAULT_QUALITY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstBcEnc:threads:
   *
   * Number of threads that encode a frame together, the streaming thread
   * included; 0 means one per processor core.
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Number of threads that encode each frame together, the streaming "
          "thread included (0 to 256, 0 = one per processor core; "
          "default: 0)", 0, MAX_THREADS, DEFAULT_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstBcEnc:path:
   *
   * Where the frames are encoded: "cpu" (system memory input, the
   * #GstBcEnc:threads worker threads) or "gl" (`memory:GLMemory` input, a
   * compute shader on the pipeline's GL context). Follows the negotiated
   * input caps; "cpu" before negotiation.
   */
  g_object_class_install_property (gobject_class, PROP_PATH,
      g_param_spec_string ("path", "Path",
          "Where the frames are encoded, from the negotiated input caps: "
          "\"cpu\" (system memory, worker threads) or \"gl\" (GLMemory, "
          "compute shader)", "cpu", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

#ifdef HAVE_BC_GL
  gobject_class->finalize = gst_bc_enc_finalize;
  GST_ELEMENT_CLASS (klass)->set_context =
      GST_DEBUG_FUNCPTR (gst_bc_enc_set_context);
  venc_class->sink_query = GST_DEBUG_FUNCPTR (gst_bc_enc_sink_query);
  venc_class->src_query = GST_DEBUG_FUNCPTR (gst_bc_enc_src_query);
  venc_class->getcaps = GST_DEBUG_FUNCPTR (gst_bc_enc_getcaps);
  venc_class->finish = GST_DEBUG_FUNCPTR (gst_bc_enc_finish);
  venc_class->flush = GST_DEBUG_FUNCPTR (gst_bc_enc_flush);
#endif
  venc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_bc_enc_decide_allocation);
  venc_class->transform_meta = GST_DEBUG_FUNCPTR (gst_bc_enc_transform_meta);
  venc_class->start = GST_DEBUG_FUNCPTR (gst_bc_enc_start);
  venc_class->stop = GST_DEBUG_FUNCPTR (gst_bc_enc_stop);
  venc_class->set_format = GST_DEBUG_FUNCPTR (gst_bc_enc_set_format);
  venc_class->handle_frame = GST_DEBUG_FUNCPTR (gst_bc_enc_handle_frame);
  venc_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_bc_enc_propose_allocation);

  klass->get_format = NULL;
}

static void
gst_bc_enc_init (GstBcEnc * self)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);

  priv->quality = DEFAULT_QUALITY;
  priv->threads = DEFAULT_THREADS;
  gst_bc_info_init (&priv->info);
#ifdef HAVE_BC_GL
  priv->gl = gst_bc_enc_gl_new (GST_VIDEO_ENCODER (self));
#endif
}

/**
 * gst_bc_enc_class_add_pad_templates:
 * @element_class: the class of a #GstBcEnc subclass
 * @raw_formats: the raw video formats (caps list) it accepts, among those
 *     gst_bc_encode_layout_from_video_format() knows
 * @gl_formats: the formats (caps list) it accepts in GLMemory, among
 *     %GST_BC_ENC_GL_GRAY_FORMATS
 * @bc_formats: the `video/x-bc` format (string or caps list) it produces
 *
 * Adds the sink template, `video/x-raw` of @raw_formats, then of
 * %GST_BC_YUV_FORMATS, after
 * `video/x-raw(memory:GLMemory)` of @gl_formats for the GL compute path when
 * the plugin is built with the GStreamer GL library, and a `video/x-bc`
 * source template of @bc_formats.
 */
void
gst_bc_enc_class_add_pad_templates (GstElementClass * element_class,
    const gchar * raw_formats, const gchar * gl_formats,
    const gchar * bc_formats)
{
  GstCaps *caps = gst_caps_new_empty ();
  gchar *str;

#ifdef HAVE_BC_GL
  gst_caps_append (caps, gst_bc_enc_gl_template_caps (gl_formats));
#else
  (void) gl_formats;
#endif
  str = g_strdup_printf (GST_VIDEO_CAPS_MAKE ("%s") "; "
      GST_VIDEO_CAPS_MAKE (GST_BC_YUV_FORMATS), raw_formats);
  gst_caps_append (caps, gst_caps_from_string (str));
  g_free (str);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  str = g_strdup_printf (GST_BC_CAPS_MAKE ("%s"), bc_formats);
  caps = gst_caps_from_string (str);
  g_free (str);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

static void
gst_bc_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstBcEnc *self = GST_BC_ENC (object);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);

  switch (prop_id) {
    case PROP_QUALITY:
      GST_OBJECT_LOCK (self);
      priv->quality = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      priv->threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc_enc_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstBcEnc *self = GST_BC_ENC (object);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);

  switch (prop_id) {
    case PROP_QUALITY:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, priv->quality);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, priv->threads);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PATH:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, priv->use_gl ? "gl" : "cpu");
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc_enc_ensure_workers (GstBcEnc * self)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);
  guint threads;

  if (priv->workers != NULL)
    return;

  GST_OBJECT_LOCK (self);
  threads = priv->threads;
  GST_OBJECT_UNLOCK (self);

  priv->workers = gst_bc_workers_new (threads);
  GST_DEBUG_OBJECT (self, "encoding on %u threads (threads=%u)",
      gst_bc_workers_get_n_threads (priv->workers), threads);
}

/* Replaces the pool output buffers come from (NULL: none, allocate).
 * Streaming thread. */
static void
gst_bc_enc_set_out_pool (GstBcEnc * self, GstBufferPool * pool)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);

  if (priv->out_pool == pool)
    return;
  if (priv->out_pool) {
    gst_buffer_pool_set_active (priv->out_pool, FALSE);
    gst_object_unref (priv->out_pool);
  }
  priv->out_pool = pool ? gst_object_ref (pool) : NULL;
}

static gboolean
gst_bc_enc_start (GstVideoEncoder * encoder)
{
  GstBcEnc *self = GST_BC_ENC (encoder);

  gst_bc_enc_ensure_workers (self);
  return TRUE;
}

static gboolean
gst_bc_enc_stop (GstVideoEncoder * encoder)
{
  GstBcEnc *self = GST_BC_ENC (encoder);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);

#ifdef HAVE_BC_GL
  gst_bc_enc_gl_stop (priv->gl);
#endif
  g_clear_pointer (&priv->workers, gst_bc_workers_free);
  gst_bc_enc_set_out_pool (self, NULL);
  g_clear_pointer (&priv->input_state, gst_video_codec_state_unref);
  gst_bc_info_init (&priv->info);
  GST_OBJECT_LOCK (self);
  priv->use_gl = FALSE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_bc_enc_set_format (GstVideoEncoder * encoder, GstVideoCodecState * state)
{
  GstBcEnc *self = GST_BC_ENC (encoder);
  GstBcEncClass *klass = GST_BC_ENC_GET_CLASS (self);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);
  GstVideoInfo *vinfo = &state->info;
  GstVideoCodecState *output_state;
  GstBcPixelLayout layout;
  GstBcYuvInfo yuv;
  GstBcFormat format;
  GstBcInfo info;
  GstClockTime latency = 0;
  GstCaps *caps;
  gboolean use_gl = FALSE;

  g_return_val_if_fail (klass->get_format != NULL, FALSE);

  GST_DEBUG_OBJECT (self, "input caps %" GST_PTR_FORMAT, state->caps);

  memset (&layout, 0, sizeof (layout));
  memset (&yuv, 0, sizeof (yuv));
  if (gst_bc_yuv_format_supported (GST_VIDEO_INFO_FORMAT (vinfo))) {
    if (!gst_bc_yuv_info_from_video_info (&yuv, vinfo))
      goto unsupported_yuv;
    GST_DEBUG_OBJECT (self, "converting from YUV: matrix %d, range %d, "
        "chroma %s", yuv.matrix, yuv.range, yuv.h_cosited ? "cosited" :
        "centred");
  } else if (!gst_bc_encode_layout_from_video_format (&layout,
          GST_VIDEO_INFO_FORMAT (vinfo))) {
    goto unsupported_format;
  }

  format = klass->get_format (self);
  GST_DEBUG_OBJECT (self, "output format %s", gst_bc_format_to_string (format));
  if (!gst_bc_encode_format_supported (format))
    goto no_encoder;

  gst_bc_info_init (&info);
  if (GST_VIDEO_INFO_FPS_D (vinfo) > 0 && GST_VIDEO_INFO_FPS_N (vinfo) >= 0) {
    info.fps_n = GST_VIDEO_INFO_FPS_N (vinfo);
    info.fps_d = GST_VIDEO_INFO_FPS_D (vinfo);
  }
  if (GST_VIDEO_INFO_PAR_N (vinfo) > 0 && GST_VIDEO_INFO_PAR_D (vinfo) > 0) {
    info.par_n = GST_VIDEO_INFO_PAR_N (vinfo);
    info.par_d = GST_VIDEO_INFO_PAR_D (vinfo);
  }
  if (!gst_bc_info_set_format (&info, format, GST_VIDEO_INFO_WIDTH (vinfo),
          GST_VIDEO_INFO_HEIGHT (vinfo)))
    goto bad_size;

#ifdef HAVE_BC_GL
  {
    GstBcQuality quality;

    GST_OBJECT_LOCK (self);
    quality = priv->quality;
    GST_OBJECT_UNLOCK (self);
    /* lets the frame kept back out first, with the old caps */
    if (!gst_bc_enc_gl_set_format (priv->gl, state, &info, &layout, &yuv,
            quality, &use_gl))
      return FALSE;
  }
#endif
  GST_OBJECT_LOCK (self);
  priv->use_gl = use_gl;
  GST_OBJECT_UNLOCK (self);

  caps = gst_bc_info_to_caps (&info);
  output_state = gst_video_encoder_set_output_state (encoder, caps, state);
  gst_video_codec_state_unref (output_state);
  if (!gst_video_encoder_negotiate (encoder))
    goto negotiation_failed;

  g_clear_pointer (&priv->input_state, gst_video_codec_state_unref);
  priv->input_state = gst_video_codec_state_ref (state);
  priv->layout = layout;
  priv->yuv = yuv;
  priv->info = info;

  /* The CPU path encodes in handle_frame: each frame leaves in the call
   * that brought it, nothing is held, no latency. The GL path keeps
   * GST_BC_ENC_GL_PIPELINE_DEPTH frames back while the GPU works: they
   * leave when the next frames come, that many frame durations later
   * (unknown without a framerate: 0, as GstVideoEncoder's default). */
#ifdef HAVE_BC_GL
  if (use_gl && info.fps_n > 0)
    latency = gst_util_uint64_scale (GST_SECOND,
        (guint64) info.fps_d * GST_BC_ENC_GL_PIPELINE_DEPTH, info.fps_n);
#endif
  gst_video_encoder_set_latency (encoder, latency, latency);

  gst_bc_enc_ensure_workers (self);

  GST_INFO_OBJECT (self, "encoding %ux%u %s to %s on the %s path, %u x %u "
      "blocks, %" G_GSIZE_FORMAT " bytes per frame, latency %"
      GST_TIME_FORMAT, info.width, info.height, GST_VIDEO_INFO_NAME (vinfo),
      gst_bc_format_to_string (format), use_gl ? "GL" : "CPU",
      info.blocks_x, info.blocks_y, info.size, GST_TIME_ARGS (latency));
  return TRUE;

unsupported_format:
  {
    GST_WARNING_OBJECT (self, "unsupported input format %s: only packed "
        "8-bit RGB formats " GST_BC_ENC_RAW_FORMATS ", YUV formats "
        GST_BC_YUV_FORMATS " (and, for bc4enc, GRAY8 and GRAY16_LE) can be "
        "encoded", GST_VIDEO_INFO_NAME (vinfo));
    return FALSE;
  }
unsupported_yuv:
  {
    GST_WARNING_OBJECT (self, "cannot convert %s input with caps %"
        GST_PTR_FORMAT ": interlaced 4:2:0 or an RGB matrix",
        GST_VIDEO_INFO_NAME (vinfo), state->caps);
    return FALSE;
  }
no_encoder:
  {
    GST_WARNING_OBJECT (self, "the library has no CPU encoder for format %s",
        GST_STR_NULL (gst_bc_format_to_string (format)));
    return FALSE;
  }
bad_size:
  {
    GST_WARNING_OBJECT (self, "cannot encode a %dx%d frame as %s: size is 0 "
        "or the frame does not fit in memory", GST_VIDEO_INFO_WIDTH (vinfo),
        GST_VIDEO_INFO_HEIGHT (vinfo), gst_bc_format_to_string (format));
    return FALSE;
  }
negotiation_failed:
  {
    GST_WARNING_OBJECT (self, "downstream does not accept %s output "
        "(%ux%u); check the caps after the encoder and, for bc3enc, the "
        "ycocg property", gst_bc_format_to_string (format), info.width,
        info.height);
    return FALSE;
  }
}

#ifdef HAVE_BC_GL
static void
gst_bc_enc_finalize (GObject * object)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC (object));

  g_clear_pointer (&priv->gl, gst_bc_enc_gl_free);
  G_OBJECT_CLASS (gst_bc_enc_parent_class)->finalize (object);
}

static void
gst_bc_enc_set_context (GstElement * element, GstContext * context)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC
      (element));

  gst_bc_enc_gl_set_context (priv->gl, context);
  GST_ELEMENT_CLASS (gst_bc_enc_parent_class)->set_context (element, context);
}

/* The GL context queries of either pad: TRUE when answered */
static gboolean
gst_bc_enc_gl_query (GstVideoEncoder * encoder, GstQuery * query)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC
      (encoder));

  return gst_bc_enc_gl_handle_query (priv->gl, query);
}

static gboolean
gst_bc_enc_sink_query (GstVideoEncoder * encoder, GstQuery * query)
{
  return gst_bc_enc_gl_query (encoder, query) ||
      GST_VIDEO_ENCODER_CLASS (gst_bc_enc_parent_class)->sink_query (encoder,
      query);
}

static gboolean
gst_bc_enc_src_query (GstVideoEncoder * encoder, GstQuery * query)
{
  return gst_bc_enc_gl_query (encoder, query) ||
      GST_VIDEO_ENCODER_CLASS (gst_bc_enc_parent_class)->src_query (encoder,
      query);
}

/* GLMemory is offered only when the GL context can run the encoder */
static GstCaps *
gst_bc_enc_getcaps (GstVideoEncoder * encoder, GstCaps * filter)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC
      (encoder));

  return gst_bc_enc_gl_filter_caps (priv->gl,
      gst_video_encoder_proxy_getcaps (encoder, NULL, filter), filter);
}

static GstFlowReturn
gst_bc_enc_finish (GstVideoEncoder * encoder)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC
      (encoder));

  return gst_bc_enc_gl_drain (priv->gl);
}

static gboolean
gst_bc_enc_flush (GstVideoEncoder * encoder)
{
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (GST_BC_ENC
      (encoder));

  gst_bc_enc_gl_flush (priv->gl);
  return TRUE;
}

#endif

/* Downstream that sends frames tile by tile (tilesink) offers a pool whose
 * buffers carry a GstBcTileMeta with their tiling set: the CPU path takes
 * its output buffers from it and completes each tile as soon as it is
 * encoded (see gst_bc_enc_encode ()). Any other pool is left alone: the
 * base class allocates. */
static gboolean
gst_bc_enc_decide_allocation (GstVideoEncoder * encoder, GstQuery * query)
{
  GstBcEnc *self = GST_BC_ENC (encoder);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  guint size, min, max;
  gboolean use_gl;

  if (!GST_VIDEO_ENCODER_CLASS (gst_bc_enc_parent_class)->decide_allocation
      (encoder, query))
    return FALSE;
  GST_OBJECT_LOCK (self);
  use_gl = priv->use_gl;
  GST_OBJECT_UNLOCK (self);
  gst_bc_enc_set_out_pool (self, NULL);
#ifdef HAVE_BC_GL
  if (use_gl)
    return gst_bc_enc_gl_decide_allocation (priv->gl, query);
#endif
  if (use_gl || !gst_bc_tile_meta_query_stepped (query) ||
      gst_query_get_n_allocation_pools (query) == 0)
    return TRUE;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool == NULL)
    return TRUE;
  gst_query_parse_allocation (query, &caps, NULL);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    GST_WARNING_OBJECT (self, "downstream's tile pool cannot be used: "
        "allocating output buffers instead");
    gst_object_unref (pool);
    return TRUE;
  }
  GST_DEBUG_OBJECT (self, "output buffers from downstream's %" GST_PTR_FORMAT
      ", filled tile by tile", pool);
  gst_bc_enc_set_out_pool (self, pool);
  gst_object_unref (pool);
  return TRUE;
}

/* Reference timestamps (a capture time) are put on the output buffer
 * before a frame is encoded into downstream's tile pool, where tilesink
 * reads them as the first tile completes: not again when the frame
 * finishes. */
static gboolean
gst_bc_enc_transform_meta (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame, GstMeta * meta)
{
  if (meta->info->api == GST_REFERENCE_TIMESTAMP_META_API_TYPE &&
      frame->output_buffer && gst_buffer_get_reference_timestamp_meta
      (frame->output_buffer, ((GstReferenceTimestampMeta *) meta)->reference))
    return FALSE;
  return GST_VIDEO_ENCODER_CLASS (gst_bc_enc_parent_class)->transform_meta
      (encoder, frame, meta);
}

/* Frames are read through gst_video_frame_map(), so upstream may pad rows
 * and describe them with a GstVideoMeta instead of copying. */
static gboolean
gst_bc_enc_propose_allocation (GstVideoEncoder * encoder, GstQuery * query)
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  return GST_VIDEO_ENCODER_CLASS (gst_bc_enc_parent_class)->propose_allocation
      (encoder, query);
}

/* The bytes of a row of @plane the encoder reads */
static gsize
gst_bc_enc_row_bytes (const GstVideoInfo * vinfo, const GstBcYuvInfo * yuv,
    guint plane)
{
  if (yuv->width > 0)
    return gst_bc_yuv_info_row_bytes (yuv, plane);
  return (gsize) GST_VIDEO_INFO_WIDTH (vinfo) *
      GST_VIDEO_INFO_COMP_PSTRIDE (vinfo, 0);
}

/* The smallest input buffer that holds a whole frame: the video meta's
 * plane layout when the buffer has one, else the default layout of @vinfo. */
static gsize
gst_bc_enc_needed_input_size (const GstVideoInfo * vinfo,
    const GstBcYuvInfo * yuv, GstBuffer * buffer)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  guint p, n = yuv->width > 0 ? gst_bc_yuv_info_n_planes (yuv) : 1;
  gsize need = 0;

  if (meta == NULL || meta->n_planes < n)
    return GST_VIDEO_INFO_SIZE (vinfo);
  for (p = 0; p < n; p++) {
    guint rows = yuv->width > 0 ? gst_bc_yuv_info_plane_rows (yuv, p) :
        (guint) GST_VIDEO_INFO_HEIGHT (vinfo);

    if (meta->stride[p] <= 0)
      return GST_VIDEO_INFO_SIZE (vinfo);
    need = MAX (need, meta->offset[p] + (gsize) meta->stride[p] * (rows - 1)
        + gst_bc_enc_row_bytes (vinfo, yuv, p));
  }
  return need;
}

typedef struct
{
  GstBcFormat format;
  GstBcQuality quality;
  const guint8 *src;
  gsize src_stride;
  guint width;
  guint height;
  const GstBcPixelLayout *layout;
  /* YUV input: its conversion and planes, else NULL */
  const GstBcYuvInfo *yuv;
  const guint8 *planes[3];
  gsize strides[3];
  guint n_block_rows;
  guint rows_per_job;
  guint8 *dst;
  /* downstream's tile pool: the tiles to complete as they are written */
  GstBuffer *buffer;
  GstBcTileMeta *tiles;
} GstBcEncJob;

static void
gst_bc_enc_run_rows (guint first, guint n, gpointer user_data)
{
  const GstBcEncJob *j = user_data;

  if (j->yuv)
    gst_bc_encode_rows_yuv (j->format, j->quality, j->yuv, j->planes,
        j->strides, first, n, j->dst);
  else
    gst_bc_encode_rows (j->format, j->quality, j->src, j->src_stride,
        j->width, j->height, j->layout, first, n, j->dst);
}

static void
gst_bc_enc_run_job (guint job, gpointer user_data)
{
  const GstBcEncJob *j = user_data;
  guint first = job * j->rows_per_job;

  gst_bc_enc_run_rows (first, MIN (j->rows_per_job,
          j->n_block_rows - first), user_data);
}

static void
gst_bc_enc_tile_done (guint tile, gpointer user_data)
{
  const GstBcEncJob *j = user_data;

  gst_bc_tile_meta_complete (j->tiles, j->buffer, tile);
}

/* An output buffer: from downstream's tile pool when there is one (then
 * @tiles is its meta, the tiling checked against the frame, else NULL),
 * else the base class's. */
static GstFlowReturn
gst_bc_enc_output_buffer (GstBcEnc * self, GstVideoCodecFrame * frame,
    GstBcTileMeta ** tiles)
{
  GstVideoEncoder *encoder = GST_VIDEO_ENCODER (self);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);
  GstPad *srcpad = GST_VIDEO_ENCODER_SRC_PAD (encoder);
  GstBuffer *buf = NULL;
  GstBcTileMeta *meta;

  *tiles = NULL;
  /* (downstream asking to renegotiate: the base class does that, and
   * decide_allocation picks the pool again) */
  if (priv->out_pool && !gst_pad_check_reconfigure (srcpad)) {
    if (gst_buffer_pool_acquire_buffer (priv->out_pool, &buf, NULL) !=
        GST_FLOW_OK)
      buf = NULL;
    meta = buf ? gst_buffer_get_bc_tile_meta (buf) : NULL;
    if (buf && gst_buffer_get_size (buf) == priv->info.size && meta &&
        gst_bc_tile_meta_tiles_rows (meta, priv->info.blocks_y,
            priv->info.row_bytes)) {
      frame->output_buffer = buf;
      *tiles = meta;
      return GST_FLOW_OK;
    }
    /* (not again for every frame: a pool with few buffers would make us
     * wait for one only to give it back) */
    GST_DEBUG_OBJECT (self, "no usable buffer from downstream's tile pool: "
        "allocating output buffers instead");
    if (buf)
      gst_buffer_unref (buf);
    gst_bc_enc_set_out_pool (self, NULL);
  } else if (priv->out_pool) {
    gst_pad_mark_reconfigure (srcpad);
  }
  return gst_video_encoder_allocate_output_frame (encoder, frame,
      priv->info.size);
}

/* Writes @in's reference timestamps on @out. */
static void
gst_bc_enc_copy_reference_timestamps (GstBuffer * in, GstBuffer * out)
{
  gpointer state = NULL;
  GstMeta *m;

  while ((m = gst_buffer_iterate_meta_filtered (in, &state,
              GST_REFERENCE_TIMESTAMP_META_API_TYPE))) {
    GstReferenceTimestampMeta *r = (GstReferenceTimestampMeta *) m;

    gst_buffer_add_reference_timestamp_meta (out, r->reference, r->timestamp,
        r->duration);
  }
}

static GstFlowReturn
gst_bc_enc_handle_frame (GstVideoEncoder * encoder, GstVideoCodecFrame * frame)
{
  GstBcEnc *self = GST_BC_ENC (encoder);
  GstBcEncPrivate *priv = gst_bc_enc_get_instance_private (self);
  GstVideoInfo *vinfo;
  GstVideoFrame vframe;
  GstMapInfo out_map;
  GstBcEncJob job;
  gsize in_size, needed;
  gint in_stride = 0;
  guint n_jobs, p;
  GstFlowReturn ret;

  if (G_UNLIKELY (priv->input_state == NULL))
    goto not_negotiated;
  vinfo = &priv->input_state->info;

  /* qos=true: downstream said this frame would come too late (tilesink:
   * the network is still busy with an earlier one); finishing it without
   * an output buffer drops it and posts a QoS message */
  if (gst_video_encoder_get_max_encode_time (encoder, frame) < 0) {
    GST_LOG_OBJECT (self, "dropping frame %u (pts %" GST_TIME_FORMAT
        "): late for downstream", frame->system_frame_number,
        GST_TIME_ARGS (frame->pts));
    return gst_video_encoder_finish_frame (encoder, frame);
  }
#ifdef HAVE_BC_GL
  if (priv->use_gl) {
    GstBcQuality quality;
    gboolean handled;

    GST_OBJECT_LOCK (self);
    quality = priv->quality;
    GST_OBJECT_UNLOCK (self);
    ret = gst_bc_enc_gl_handle_frame (priv->gl, frame, quality, &handled);
    if (handled)
      return ret;
    if (ret != GST_FLOW_OK) {
      gst_video_codec_frame_unref (frame);
      return ret;
    }
  }
#endif

  /* a short buffer cannot be mapped as a frame: say what is wrong first */
  in_size = gst_buffer_get_size (frame->input_buffer);
  needed = gst_bc_enc_needed_input_size (vinfo, &priv->yuv,
      frame->input_buffer);
  if (G_UNLIKELY (in_size < needed))
    goto short_buffer;

  if (G_UNLIKELY (!gst_video_frame_map (&vframe, vinfo, frame->input_buffer,
              GST_MAP_READ)))
    goto map_failed;
  memset (&job, 0, sizeof (job));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vframe) && p < 3; p++) {
    in_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, p);
    if (G_UNLIKELY (in_stride < 0 || (gsize) in_stride <
            gst_bc_enc_row_bytes (vinfo, &priv->yuv, p))) {
      gst_video_frame_unmap (&vframe);
      goto bad_stride;
    }
    job.planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&vframe, p);
    job.strides[p] = (gsize) in_stride;
  }

  ret = gst_bc_enc_output_buffer (self, frame, &job.tiles);
  if (G_UNLIKELY (ret != GST_FLOW_OK)) {
    gst_video_frame_unmap (&vframe);
    goto alloc_failed;
  }
  /* filled tile by tile: downstream reads the tiles completed while the
   * others are written (see GstBcTileMeta), and takes the frame's capture
   * time as the first completes */
  if (job.tiles)
    gst_bc_enc_copy_reference_timestamps (frame->input_buffer,
        frame->output_buffer);
  if (G_UNLIKELY (!gst_buffer_map (frame->output_buffer, &out_map,
              job.tiles ? GST_MAP_READWRITE : GST_MAP_WRITE))) {
    gst_video_frame_unmap (&vframe);
    goto out_map_failed;
  }

  job.format = priv->info.format;
  GST_OBJECT_LOCK (self);
  job.quality = priv->quality;
  GST_OBJECT_UNLOCK (self);
  job.src = job.planes[0];
  job.src_stride = job.strides[0];
  job.yuv = priv->yuv.width > 0 ? &priv->yuv : NULL;
  job.width = priv->info.width;
  job.height = priv->info.height;
  job.layout = &priv->layout;
  job.n_block_rows = priv->info.blocks_y;
  job.dst = out_map.data;
  job.buffer = frame->output_buffer;

  gst_bc_enc_ensure_workers (self);
  if (job.tiles) {
    GST_LOG_OBJECT (self, "encoding frame %u (pts %" GST_TIME_FORMAT
        ") tile by tile, %u tiles, quality %d", frame->system_frame_number,
        GST_TIME_ARGS (frame->pts),
        gst_bc_tile_meta_get_n_tiles (job.tiles), job.quality);
    gst_bc_workers_run_tiles (priv->workers,
        gst_bc_tile_meta_get_tile (job.tiles, 0),
        gst_bc_tile_meta_get_n_tiles (job.tiles), gst_bc_enc_run_rows,
        gst_bc_enc_tile_done, &job);
  } else {
    n_jobs = gst_bc_split_block_rows (job.n_block_rows,
        gst_bc_workers_get_n_threads (priv->workers), &job.rows_per_job);
    GST_LOG_OBJECT (self, "encoding frame %u (pts %" GST_TIME_FORMAT
        ") in %u jobs of %u block rows, quality %d",
        frame->system_frame_number, GST_TIME_ARGS (frame->pts), n_jobs,
        job.rows_per_job, job.quality);
    gst_bc_workers_run (priv->workers, n_jobs, gst_bc_enc_run_job, &job);
  }

  gst_buffer_unmap (frame->output_buffer, &out_map);
  gst_video_frame_unmap (&vframe);

  GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
  return gst_video_encoder_finish_frame (encoder, frame);

not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a frame before the input format was set"));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }
short_buffer:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer is smaller than a video frame"),
        ("Input buffer has %" G_GSIZE_FORMAT " bytes, but a %dx%d %s frame "
            "needs %" G_GSIZE_FORMAT " bytes", in_size,
            GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo),
            GST_VIDEO_INFO_NAME (vinfo), needed));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
map_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Failed to map the input buffer as a video frame"),
        ("Could not map a %" G_GSIZE_FORMAT " byte buffer as a %dx%d %s "
            "frame (its video meta may not match the caps)", in_size,
            GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo),
            GST_VIDEO_INFO_NAME (vinfo)));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
bad_stride:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Unsupported input row stride"),
        ("The rows of input plane %u are %d bytes apart, less than the %"
            G_GSIZE_FORMAT " bytes of a row of %d %s pixels", p, in_stride,
            gst_bc_enc_row_bytes (vinfo, &priv->yuv, p),
            GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_NAME (vinfo)));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
alloc_failed:
  {
    GST_DEBUG_OBJECT (self, "could not allocate a %" G_GSIZE_FORMAT
        " byte output buffer: %s", priv->info.size, gst_flow_get_name (ret));
    gst_video_codec_frame_unref (frame);
    return ret;
  }
out_map_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, (NULL),
        ("Failed to map the %" G_GSIZE_FORMAT " byte output buffer for "
            "writing", priv->info.size));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
}
