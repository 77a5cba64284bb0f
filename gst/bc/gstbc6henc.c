/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-bc6henc
 * @title: bc6henc
 * @see_also: #bcdec, #bc7enc
 *
 * Encodes HDR video into BC6H (unsigned half floats, DXGI's BC6H_UF16)
 * block-compressed frames on the CPU: 16 bytes per 4x4 block, 8 bits per
 * pixel, RGB. It writes signed BC6H (BC6H-SF, DXGI's BC6H_SF16) instead
 * when downstream takes only that (`video/x-bc, format=BC6H-SF`): the
 * same values (the input is never negative) with one bit less of each
 * endpoint's magnitude. BC6H holds linear light with 1.0 = 203 cd/m2 (the BT.2408
 * HDR reference white), as #bcdec reads it. The input's transfer function,
 * from its caps' colorimetry, says how its codes become that light
 * (gst_bc_hdr_input_new()):
 *
 * - SMPTE ST 2084 (PQ, `colorimetry=bt2100-pq`): the luminance / 203;
 * - ARIB STD-B67 (HLG, `bt2100-hlg`): the BT.2100 OOTF of a 1000 cd/m2
 *   display (gamma 1.2), / 203, so HLG's 75 % reference white is 1.0;
 * - linear (`gamma10`): the code from 0 to 1 is the value (1.0 the
 *   reference white, nothing brighter).
 *
 * Caps without a colorimetry are taken as PQ with BT.2020 primaries (what
 * #bcdec outputs); any other transfer is refused (not-negotiated). The
 * codes are full range (the range a colorimetry such as bt2100-pq names is
 * that of YUV and is not used). The
 * primaries are not converted: the output caps' colorimetry carries the
 * input's (BT.2020 when it names none) with the linear transfer. Alpha is
 * dropped. P010_10LE and v210 are converted to 16-bit RGB as the blocks
 * are gathered, four rows at a time (gst_bc_encode_rows_hdr_yuv(): the
 * matrix, range and chroma siting of the caps, BT.2020 and 16-235 where
 * they name none, in exact integer arithmetic), then as RGBA64_LE. Frames
 * whose size is not a multiple of 4 are padded by
 * repeating the last column and row; the caps carry the visible size.
 * Every output frame is a key frame, encoded on #GstBc6hEnc:threads
 * threads.
 *
 * With the GStreamer GL library, `video/x-raw(memory:GLMemory)` ARGB64
 * (GStreamer 1.22's 16-bit RGBA GL memory), RGB10A2_LE and P010_10LE
 * (converted in the shader with the CPU's integers) are taken too:
 * at every quality, BC6H and BC6H-SF, GL compute shaders on the
 * pipeline's GL context convert and encode them as the CPU does, with the
 * same blocks on an IEEE-float GL implementation
 * (gst-libs/gst/bcgl/glsl/bc6h.comp, bc6h-normal.glsl); a buffer of those
 * caps whose memory is not GL memory is encoded on the CPU
 * (#GstBc6hEnc:path says which). The GL path keeps one frame back while
 * the GPU works (one frame of latency).
 *
 * #GstBc6hEnc:quality: fast (real time) codes each block in one region
 * (modes 11 to 14, the most precise whose differences fit); normal also
 * tries two regions on the two most promising partitions where one region
 * leaves a visible error; high tries six partitions and every mode that
 * fits (see bcencode-bc6h.c).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA64_LE,colorimetry=bt2100-pq ! bc6henc quality=fast ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a test picture, taken as PQ, and shows it decoded to SDR.
 * |[
 * gst-launch-1.0 filesrc location=hlg.rgb10a2 blocksize=8294400 ! rawvideoparse format=rgb10a2-le width=1920 height=1080 colorimetry=bt2100-hlg ! bc6henc ! fakesink
 * ]| Encodes raw HLG frames.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA64_LE,colorimetry=bt2100-pq ! bc6henc ! video/x-bc,format=BC6H-SF ! hapenc ! qtmux ! filesink location=hdr.mov
 * ]| Writes signed BC6H (Hap HDR).
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/bc/bc.h>

#include "gstbc6henc.h"
#include "gstbcelements.h"

#ifdef HAVE_BC_GL
#include "gstbcencgl.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_bc6h_enc_debug);
#define GST_CAT_DEFAULT gst_bc6h_enc_debug

/* the formats of GstBcHdrInput, then 10-bit YUV converted to RGBA64_LE
 * codes as the blocks are gathered */
#define BC6H_ENC_FORMATS "{ RGBA64_LE, RGB10A2_LE, P010_10LE, v210 }"

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

struct _GstBc6hEnc
{
  GstVideoEncoder parent;

  /* properties, under the object lock */
  GstBcQuality quality;
  guint threads;

  /* streaming thread only */
  GstVideoCodecState *input_state;
  GstBcHdrInput *input;
  /* info.format: BC6H, or BC6H-SF when downstream takes only that */
  GstBcInfo info;
  GstBcWorkers *workers;
  /* YUV input: its conversion to RGBA64_LE codes (yuv.width 0 for RGB) */
  GstBcYuvInfo yuv;
  /* GLMemory ARGB64 frames the CPU encodes: their reordering to RGBA64_LE
   * and the frame it writes, else NULL */
  GstVideoConverter *argb;
  GstVideoInfo rgb_info;
  GstBuffer *rgb;

  /* GLMemory caps (under the object lock): the GL path is set up; it
   * encodes the frames of GL memory, the CPU the others */
  gboolean use_gl;
  /* the path of the last frame (under the object lock) */
  gboolean last_gl;
#ifdef HAVE_BC_GL
  GstBcEncGL *gl;
#endif
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_BC_CAPS_MAKE ("{ BC6H, BC6H-SF }")));

#define gst_bc6h_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc6hEnc, gst_bc6h_enc, GST_TYPE_VIDEO_ENCODER,
    GST_DEBUG_CATEGORY_INIT (gst_bc6h_enc_debug, "bc6henc", 0,
        "BC6H video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc6henc, "bc6henc", GST_RANK_PRIMARY,
    GST_TYPE_BC6H_ENC, bc_element_init (plugin));

static void gst_bc6h_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_bc6h_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_bc6h_enc_start (GstVideoEncoder * encoder);
static gboolean gst_bc6h_enc_stop (GstVideoEncoder * encoder);
static gboolean gst_bc6h_enc_set_format (GstVideoEncoder * encoder,
    GstVideoCodecState * state);
static GstFlowReturn gst_bc6h_enc_handle_frame (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame);
static gboolean gst_bc6h_enc_propose_allocation (GstVideoEncoder * encoder,
    GstQuery * query);
#ifdef HAVE_BC_GL
static void gst_bc6h_enc_finalize (GObject * object);
static void gst_bc6h_enc_set_context (GstElement * element,
    GstContext * context);
static gboolean gst_bc6h_enc_sink_query (GstVideoEncoder * encoder,
    GstQuery * query);
static gboolean gst_bc6h_enc_src_query (GstVideoEncoder * encoder,
    GstQuery * query);
static GstCaps *gst_bc6h_enc_getcaps (GstVideoEncoder * encoder,
    GstCaps * filter);
static GstFlowReturn gst_bc6h_enc_finish (GstVideoEncoder * encoder);
static gboolean gst_bc6h_enc_flush (GstVideoEncoder * encoder);
static gboolean gst_bc6h_enc_decide_allocation (GstVideoEncoder * encoder,
    GstQuery * query);
#endif

static void
gst_bc6h_enc_class_init (GstBc6hEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoEncoderClass *venc_class = GST_VIDEO_ENCODER_CLASS (klass);
  GstCaps *sink_caps = gst_caps_new_empty ();

  gobject_class->set_property = gst_bc6h_enc_set_property;
  gobject_class->get_property = gst_bc6h_enc_get_property;

  /**
   * GstBc6hEnc:quality:
   *
   * Speed/quality trade-off of the block encoder. It can be changed while
   * playing; the new value is used from the next frame on (on the GL
   * path, a quality's programs are compiled when it is first used).
   * GLMemory input is encoded by the GL compute shaders at every quality,
   * with the CPU's blocks.
   */
  g_object_class_install_property (gobject_class, PROP_QUALITY,
      g_param_spec_enum ("quality", "Quality",
          "Speed/quality trade-off of the block encoder: fast (one region, "
          "real time), normal (also two regions) or high (every mode, six "
          "partitions; default: normal); GLMemory input: on the GL context "
          "at each. Can be changed while playing, it applies from the next "
          "frame",
          GST_TYPE_BC_QUALITY,
          DEFAULT_QUALITY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstBc6hEnc:threads:
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
   * GstBc6hEnc:path:
   *
   * Where the last frame was encoded: "cpu" (system memory) or "gl"
   * (GLMemory, at every quality: the compute shaders on the pipeline's
   * GL context). Before the first frame, what the negotiated caps make
   * it; "cpu" before negotiation.
   */
  g_object_class_install_property (gobject_class, PROP_PATH,
      g_param_spec_string ("path", "Path",
          "Where the last frame was encoded: \"cpu\" (worker threads) or "
          "\"gl\" (GLMemory input, compute shaders)", "cpu",
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

#ifdef HAVE_BC_GL
  gst_caps_append (sink_caps, gst_bc_enc_gl_hdr_template_caps ());
#endif
  gst_caps_append (sink_caps,
      gst_caps_from_string (GST_VIDEO_CAPS_MAKE (BC6H_ENC_FORMATS)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink_caps));
  gst_caps_unref (sink_caps);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "BC6H video encoder",
      "Codec/Encoder/Video", "Encodes HDR video (PQ, HLG or linear RGB) "
      "into BC6H block-compressed frames of linear half floats on the CPU "
      "or, GLMemory input, with GL compute shaders",
      "The gst-bc developers");

  venc_class->start = GST_DEBUG_FUNCPTR (gst_bc6h_enc_start);
  venc_class->stop = GST_DEBUG_FUNCPTR (gst_bc6h_enc_stop);
  venc_class->set_format = GST_DEBUG_FUNCPTR (gst_bc6h_enc_set_format);
  venc_class->handle_frame = GST_DEBUG_FUNCPTR (gst_bc6h_enc_handle_frame);
  venc_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_bc6h_enc_propose_allocation);
#ifdef HAVE_BC_GL
  gobject_class->finalize = gst_bc6h_enc_finalize;
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_bc6h_enc_set_context);
  venc_class->sink_query = GST_DEBUG_FUNCPTR (gst_bc6h_enc_sink_query);
  venc_class->src_query = GST_DEBUG_FUNCPTR (gst_bc6h_enc_src_query);
  venc_class->getcaps = GST_DEBUG_FUNCPTR (gst_bc6h_enc_getcaps);
  venc_class->finish = GST_DEBUG_FUNCPTR (gst_bc6h_enc_finish);
  venc_class->flush = GST_DEBUG_FUNCPTR (gst_bc6h_enc_flush);
  venc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_bc6h_enc_decide_allocation);
#endif
}

static void
gst_bc6h_enc_init (GstBc6hEnc * self)
{
  self->quality = DEFAULT_QUALITY;
  self->threads = DEFAULT_THREADS;
  gst_bc_info_init (&self->info);
#ifdef HAVE_BC_GL
  self->gl = gst_bc_enc_gl_new (GST_VIDEO_ENCODER (self));
#endif
}

static void
gst_bc6h_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstBc6hEnc *self = GST_BC6H_ENC (object);

  switch (prop_id) {
    case PROP_QUALITY:
      GST_OBJECT_LOCK (self);
      self->quality = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      self->threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc6h_enc_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstBc6hEnc *self = GST_BC6H_ENC (object);

  switch (prop_id) {
    case PROP_QUALITY:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, self->quality);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->threads);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PATH:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->last_gl ? "gl" : "cpu");
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static gboolean
gst_bc6h_enc_start (GstVideoEncoder * encoder)
{
  GstBc6hEnc *self = GST_BC6H_ENC (encoder);
  guint threads;

  GST_OBJECT_LOCK (self);
  threads = self->threads;
  GST_OBJECT_UNLOCK (self);
  self->workers = gst_bc_workers_new (threads);
  GST_DEBUG_OBJECT (self, "encoding on %u threads (threads=%u)",
      gst_bc_workers_get_n_threads (self->workers), threads);
  return TRUE;
}

static gboolean
gst_bc6h_enc_stop (GstVideoEncoder * encoder)
{
  GstBc6hEnc *self = GST_BC6H_ENC (encoder);

#ifdef HAVE_BC_GL
  gst_bc_enc_gl_stop (self->gl);
#endif
  GST_OBJECT_LOCK (self);
  self->use_gl = FALSE;
  self->last_gl = FALSE;
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->workers, gst_bc_workers_free);
  g_clear_pointer (&self->input, gst_bc_hdr_input_free);
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  g_clear_pointer (&self->argb, gst_video_converter_free);
  gst_clear_buffer (&self->rgb);
  memset (&self->yuv, 0, sizeof (self->yuv));
  gst_bc_info_init (&self->info);
  return TRUE;
}

/* ARGB64 (GLMemory caps, frames the CPU encodes): a converter to
 * RGBA64_LE, the same 16-bit codes reordered, on the encoder's threads,
 * and its output frame */
static gboolean
gst_bc6h_enc_setup_argb (GstBc6hEnc * self, const GstVideoInfo * vinfo,
    const GstVideoColorimetry * cm)
{
  GstStructure *config;
  GstVideoInfo in_info;

  g_clear_pointer (&self->argb, gst_video_converter_free);
  gst_clear_buffer (&self->rgb);
  if (GST_VIDEO_INFO_FORMAT (vinfo) != GST_VIDEO_FORMAT_ARGB64)
    return TRUE;
  /* (the caps' colorimetry, or our default for caps without one) */
  in_info = *vinfo;
  GST_VIDEO_INFO_COLORIMETRY (&in_info) = *cm;
  gst_video_info_set_format (&self->rgb_info, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo));
  GST_VIDEO_INFO_FPS_N (&self->rgb_info) = GST_VIDEO_INFO_FPS_N (vinfo);
  GST_VIDEO_INFO_FPS_D (&self->rgb_info) = GST_VIDEO_INFO_FPS_D (vinfo);
  GST_VIDEO_INFO_PAR_N (&self->rgb_info) = GST_VIDEO_INFO_PAR_N (vinfo);
  GST_VIDEO_INFO_PAR_D (&self->rgb_info) = GST_VIDEO_INFO_PAR_D (vinfo);
  GST_VIDEO_INFO_INTERLACE_MODE (&self->rgb_info) =
      GST_VIDEO_INFO_INTERLACE_MODE (vinfo);
  GST_VIDEO_INFO_COLORIMETRY (&self->rgb_info) = *cm;
  GST_VIDEO_INFO_COLORIMETRY (&self->rgb_info).matrix =
      GST_VIDEO_COLOR_MATRIX_RGB;
  GST_VIDEO_INFO_COLORIMETRY (&self->rgb_info).range =
      GST_VIDEO_COLOR_RANGE_0_255;
  config = gst_structure_new ("config", GST_VIDEO_CONVERTER_OPT_THREADS,
      G_TYPE_UINT, gst_bc_workers_get_n_threads (self->workers),
      GST_VIDEO_CONVERTER_OPT_DITHER_METHOD, GST_TYPE_VIDEO_DITHER_METHOD,
      GST_VIDEO_DITHER_NONE, NULL);
  self->argb = gst_video_converter_new (&in_info, &self->rgb_info, config);
  if (self->argb == NULL)
    return FALSE;
  self->rgb = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (&self->rgb_info), NULL);
  return self->rgb != NULL;
}

/* The input's colorimetry: its caps', or PQ with BT.2020 primaries when
 * they have none (GstVideoInfo would say sRGB; YUV: BT.2020 matrix,
 * 16-235); RGB full range whatever they say (names such as bt2100-pq are
 * 16-235, for YUV) */
static void
gst_bc6h_enc_input_colorimetry (GstVideoCodecState * state,
    GstVideoColorimetry * cm)
{
  GstStructure *s = gst_caps_get_structure (state->caps, 0);

  if (gst_structure_has_field (s, "colorimetry")) {
    *cm = GST_VIDEO_INFO_COLORIMETRY (&state->info);
  } else {
    cm->range = GST_VIDEO_COLOR_RANGE_0_255;
    cm->matrix = GST_VIDEO_COLOR_MATRIX_RGB;
    cm->transfer = GST_VIDEO_TRANSFER_SMPTE2084;
    cm->primaries = GST_VIDEO_COLOR_PRIMARIES_BT2020;
  }
  if (cm->primaries == GST_VIDEO_COLOR_PRIMARIES_UNKNOWN)
    cm->primaries = GST_VIDEO_COLOR_PRIMARIES_BT2020;
  if (GST_VIDEO_INFO_IS_RGB (&state->info)) {
    cm->range = GST_VIDEO_COLOR_RANGE_0_255;
  } else {
    if (!gst_structure_has_field (s, "colorimetry") ||
        cm->range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
      cm->range = GST_VIDEO_COLOR_RANGE_16_235;
    if (!gst_structure_has_field (s, "colorimetry") ||
        cm->matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN)
      cm->matrix = GST_VIDEO_COLOR_MATRIX_BT2020;
  }
}

/* BC6H when downstream takes it (or is not linked yet), else BC6H-SF when
 * it takes that; BC6H again when it takes neither (negotiation fails) */
static GstBcFormat
gst_bc6h_enc_pick_format (GstBc6hEnc * self)
{
  GstCaps *allowed =
      gst_pad_get_allowed_caps (GST_VIDEO_ENCODER_SRC_PAD (self));
  GstBcFormat format = GST_BC_FORMAT_BC6H;
  GstCaps *sf;

  if (allowed == NULL)
    return format;
  sf = gst_caps_from_string (GST_BC_MEDIA_TYPE ", format = (string) BC6H-SF");
  if (gst_caps_can_intersect (allowed, sf)) {
    GstCaps *uf = gst_caps_from_string (GST_BC_MEDIA_TYPE
        ", format = (string) BC6H");

    if (!gst_caps_can_intersect (allowed, uf))
      format = GST_BC_FORMAT_BC6H_SF;
    gst_caps_unref (uf);
  }
  gst_caps_unref (sf);
  gst_caps_unref (allowed);
  return format;
}

static gboolean
gst_bc6h_enc_set_format (GstVideoEncoder * encoder, GstVideoCodecState * state)
{
  GstBc6hEnc *self = GST_BC6H_ENC (encoder);
  GstVideoInfo *vinfo = &state->info;
  GstVideoCodecState *output_state;
  GstVideoColorimetry cm, out_cm;
  GstBcHdrInput *input;
  GstBcYuvInfo yuv;
  GstBcInfo info;
  GstBcFormat format;
  GstCaps *caps;
  gchar *cm_str;
  GstClockTime latency = 0;
  gboolean use_gl = FALSE;
#ifdef HAVE_BC_GL
  GstBcQuality quality;
#endif

  GST_DEBUG_OBJECT (self, "input caps %" GST_PTR_FORMAT, state->caps);

  gst_bc6h_enc_input_colorimetry (state, &cm);
  if (!gst_bc_hdr_input_transfer_supported (cm.transfer))
    goto unsupported_transfer;
  memset (&yuv, 0, sizeof (yuv));
  if (gst_bc_yuv_format_supported (GST_VIDEO_INFO_FORMAT (vinfo))) {
    GstVideoInfo yuv_info = *vinfo;

    /* (the caps' colorimetry, or our defaults where they name none) */
    GST_VIDEO_INFO_COLORIMETRY (&yuv_info) = cm;
    if (!gst_bc_yuv_info_from_video_info (&yuv, &yuv_info) ||
        !gst_bc_yuv_info_set_depth (&yuv, 16))
      goto unsupported_yuv;
    GST_DEBUG_OBJECT (self, "YUV input: matrix %d, range %d, chroma %s%s",
        yuv.matrix, yuv.range, yuv.h_cosited ? "h-cosited" : "h-centred",
        yuv.v_cosited ? " v-cosited" : "");
  }
  if (!GST_VIDEO_INFO_IS_RGB (vinfo) ||
      GST_VIDEO_INFO_FORMAT (vinfo) == GST_VIDEO_FORMAT_ARGB64) {
    GstVideoColorimetry rgb_cm = cm;

    /* what the conversion writes */
    rgb_cm.range = GST_VIDEO_COLOR_RANGE_0_255;
    input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &rgb_cm);
  } else {
    input = gst_bc_hdr_input_new (GST_VIDEO_INFO_FORMAT (vinfo), &cm);
  }
  if (input == NULL)
    goto unsupported_format;
  if (!gst_bc6h_enc_setup_argb (self, vinfo, &cm)) {
    gst_bc_hdr_input_free (input);
    goto unsupported_format;
  }

  gst_bc_info_init (&info);
  if (GST_VIDEO_INFO_FPS_D (vinfo) > 0 && GST_VIDEO_INFO_FPS_N (vinfo) >= 0) {
    info.fps_n = GST_VIDEO_INFO_FPS_N (vinfo);
    info.fps_d = GST_VIDEO_INFO_FPS_D (vinfo);
  }
  if (GST_VIDEO_INFO_PAR_N (vinfo) > 0 && GST_VIDEO_INFO_PAR_D (vinfo) > 0) {
    info.par_n = GST_VIDEO_INFO_PAR_N (vinfo);
    info.par_d = GST_VIDEO_INFO_PAR_D (vinfo);
  }
  format = gst_bc6h_enc_pick_format (self);
  if (!gst_bc_info_set_format (&info, format,
          GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo))) {
    gst_bc_hdr_input_free (input);
    goto bad_size;
  }
#ifdef HAVE_BC_GL
  /* lets the frame kept back out first, with the old caps; compiles the
   * program of the quality */
  GST_OBJECT_LOCK (self);
  quality = self->quality;
  GST_OBJECT_UNLOCK (self);
  if (!gst_bc_enc_gl_set_format_hdr (self->gl, state, &info, input, &yuv,
          quality, &use_gl)) {
    gst_bc_hdr_input_free (input);
    return FALSE;
  }
#endif

  /* the output: linear light with the input's primaries */
  out_cm.range = GST_VIDEO_COLOR_RANGE_0_255;
  out_cm.matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  out_cm.transfer = GST_VIDEO_TRANSFER_GAMMA10;
  out_cm.primaries = cm.primaries;
  cm_str = gst_video_colorimetry_to_string (&out_cm);
  caps = gst_bc_info_to_caps (&info);
  if (cm_str)
    gst_caps_set_simple (caps, "colorimetry", G_TYPE_STRING, cm_str, NULL);
  g_free (cm_str);
  output_state = gst_video_encoder_set_output_state (encoder, caps, state);
  /* (the base class writes the info's colorimetry into the caps) */
  GST_VIDEO_INFO_COLORIMETRY (&output_state->info) = out_cm;
  gst_video_codec_state_unref (output_state);

  g_clear_pointer (&self->input, gst_bc_hdr_input_free);
  self->input = input;
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  self->input_state = gst_video_codec_state_ref (state);
  self->info = info;
  self->yuv = yuv;
  GST_OBJECT_LOCK (self);
  self->use_gl = use_gl;
  self->last_gl = use_gl;
  GST_OBJECT_UNLOCK (self);

  /* the GL path keeps a frame back while the GPU works (as bcNenc's):
   * GST_BC_ENC_GL_PIPELINE_DEPTH frame durations */
#ifdef HAVE_BC_GL
  if (use_gl && info.fps_n > 0)
    latency = gst_util_uint64_scale (GST_SECOND,
        (guint64) info.fps_d * GST_BC_ENC_GL_PIPELINE_DEPTH, info.fps_n);
#endif
  gst_video_encoder_set_latency (encoder, latency, latency);

  GST_DEBUG_OBJECT (self, "%s, transfer %d, primaries %d, %s path, latency %"
      GST_TIME_FORMAT, gst_bc_format_to_string (format), cm.transfer,
      cm.primaries, use_gl ? "GL" : "CPU",
      GST_TIME_ARGS (latency));
  return gst_video_encoder_negotiate (encoder);

unsupported_transfer:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Unsupported input transfer function"),
        ("The input's transfer function (%d) is none of PQ (SMPTE ST 2084), "
            "HLG (ARIB STD-B67) and linear; caps %" GST_PTR_FORMAT,
            cm.transfer, state->caps));
    return FALSE;
  }
unsupported_format:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Unsupported input format %s", GST_VIDEO_INFO_NAME (vinfo)));
    return FALSE;
  }
unsupported_yuv:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Unsupported YUV input"),
        ("Cannot convert %s input with caps %" GST_PTR_FORMAT ": interlaced "
            "4:2:0, one field a buffer, or the RGB matrix",
            GST_VIDEO_INFO_NAME (vinfo), state->caps));
    return FALSE;
  }
bad_size:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Unsupported frame size %dx%d", GST_VIDEO_INFO_WIDTH (vinfo),
            GST_VIDEO_INFO_HEIGHT (vinfo)));
    return FALSE;
  }
}

#ifdef HAVE_BC_GL
static void
gst_bc6h_enc_finalize (GObject * object)
{
  GstBc6hEnc *self = GST_BC6H_ENC (object);

  g_clear_pointer (&self->gl, gst_bc_enc_gl_free);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_bc6h_enc_set_context (GstElement * element, GstContext * context)
{
  gst_bc_enc_gl_set_context (GST_BC6H_ENC (element)->gl, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_bc6h_enc_sink_query (GstVideoEncoder * encoder, GstQuery * query)
{
  return gst_bc_enc_gl_handle_query (GST_BC6H_ENC (encoder)->gl, query) ||
      GST_VIDEO_ENCODER_CLASS (parent_class)->sink_query (encoder, query);
}

static gboolean
gst_bc6h_enc_src_query (GstVideoEncoder * encoder, GstQuery * query)
{
  return gst_bc_enc_gl_handle_query (GST_BC6H_ENC (encoder)->gl, query) ||
      GST_VIDEO_ENCODER_CLASS (parent_class)->src_query (encoder, query);
}

/* GLMemory is offered only when the GL context can run the encoder */
static GstCaps *
gst_bc6h_enc_getcaps (GstVideoEncoder * encoder, GstCaps * filter)
{
  return gst_bc_enc_gl_filter_caps (GST_BC6H_ENC (encoder)->gl,
      gst_video_encoder_proxy_getcaps (encoder, NULL, filter), filter);
}

static GstFlowReturn
gst_bc6h_enc_finish (GstVideoEncoder * encoder)
{
  return gst_bc_enc_gl_drain (GST_BC6H_ENC (encoder)->gl);
}

static gboolean
gst_bc6h_enc_flush (GstVideoEncoder * encoder)
{
  gst_bc_enc_gl_flush (GST_BC6H_ENC (encoder)->gl);
  return TRUE;
}

/* The GL path copies its blocks into downstream's pool when it offers one
 * (glbcupload's), else lends its slots (gstbcencgl.c) */
static gboolean
gst_bc6h_enc_decide_allocation (GstVideoEncoder * encoder, GstQuery * query)
{
  GstBc6hEnc *self = GST_BC6H_ENC (encoder);
  gboolean use_gl;

  if (!GST_VIDEO_ENCODER_CLASS (parent_class)->decide_allocation (encoder,
          query))
    return FALSE;
  GST_OBJECT_LOCK (self);
  use_gl = self->use_gl;
  GST_OBJECT_UNLOCK (self);
  if (use_gl)
    return gst_bc_enc_gl_decide_allocation (self->gl, query);
  return TRUE;
}
#endif

/* Frames are read through gst_video_frame_map(), so upstream may pad rows
 * and describe them with a GstVideoMeta instead of copying. */
static gboolean
gst_bc6h_enc_propose_allocation (GstVideoEncoder * encoder, GstQuery * query)
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  return GST_VIDEO_ENCODER_CLASS (parent_class)->propose_allocation (encoder,
      query);
}

typedef struct
{
  const GstBcHdrInput *input;
  /* YUV input (its planes), else NULL (RGB: planes[0]) */
  const GstBcYuvInfo *yuv;
  const guint8 *planes[3];
  gsize strides[3];
  GstBcFormat format;
  GstBcQuality quality;
  guint width, height;
  guint n_block_rows, rows_per_job;
  guint8 *dst;
} GstBc6hEncJob;

static void
gst_bc6h_enc_run_job (guint job, gpointer user_data)
{
  const GstBc6hEncJob *j = user_data;
  guint first = job * j->rows_per_job;
  guint n = MIN (j->rows_per_job, j->n_block_rows - first);

  if (j->yuv)
    gst_bc_encode_rows_hdr_yuv (j->input, j->format, j->quality, j->yuv,
        j->planes, j->strides, first, n, j->dst);
  else
    gst_bc_encode_rows_hdr (j->input, j->format, j->quality, j->planes[0],
        j->strides[0], j->width, j->height, first, n, j->dst);
}

static GstFlowReturn
gst_bc6h_enc_handle_frame (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame)
{
  GstBc6hEnc *self = GST_BC6H_ENC (encoder);
  GstVideoFrame vframe;
  GstMapInfo out_map;
  GstBc6hEncJob job;
  GstFlowReturn ret;
  guint n_jobs, p;
  gint stride;
  gsize row_bytes;

  if (G_UNLIKELY (self->input == NULL))
    goto not_negotiated;

  memset (&job, 0, sizeof (job));
  GST_OBJECT_LOCK (self);
  job.quality = self->quality;
  GST_OBJECT_UNLOCK (self);
#ifdef HAVE_BC_GL
  if (self->use_gl) {
    gboolean handled = FALSE;

    /* the compute shaders; a frame that is not GL memory: the frame kept
     * back leaves, then the CPU encodes */
    ret = gst_bc_enc_gl_handle_frame (self->gl, frame, job.quality,
        &handled);
    GST_OBJECT_LOCK (self);
    self->last_gl = handled;
    GST_OBJECT_UNLOCK (self);
    if (handled)
      return ret;
    if (ret != GST_FLOW_OK) {
      gst_video_codec_frame_unref (frame);
      return ret;
    }
  }
#endif

  if (!gst_video_frame_map (&vframe, &self->input_state->info,
          frame->input_buffer, GST_MAP_READ))
    goto map_failed;
  if (self->argb) {
    GstVideoFrame rgb;

    if (!gst_video_frame_map (&rgb, &self->rgb_info, self->rgb, GST_MAP_WRITE)) {
      gst_video_frame_unmap (&vframe);
      goto map_failed;
    }
    gst_video_converter_frame (self->argb, &vframe, &rgb);
    gst_video_frame_unmap (&vframe);
    vframe = rgb;
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vframe) && p < 3; p++) {
    stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, p);
    row_bytes = self->yuv.width > 0 ? gst_bc_yuv_info_row_bytes (&self->yuv,
        p) : (gsize) self->info.width * gst_bc_hdr_input_get_bpp (self->input);
    if (stride < 0 || (gsize) stride < row_bytes) {
      gst_video_frame_unmap (&vframe);
      goto bad_stride;
    }
    job.planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&vframe, p);
    job.strides[p] = (gsize) stride;
  }

  ret = gst_video_encoder_allocate_output_frame (encoder, frame,
      self->info.size);
  if (ret != GST_FLOW_OK) {
    gst_video_frame_unmap (&vframe);
    gst_video_codec_frame_unref (frame);
    return ret;
  }
  if (!gst_buffer_map (frame->output_buffer, &out_map, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&vframe);
    goto out_map_failed;
  }

  job.input = self->input;
  job.yuv = self->yuv.width > 0 ? &self->yuv : NULL;
  job.format = self->info.format;
  job.width = self->info.width;
  job.height = self->info.height;
  job.n_block_rows = self->info.blocks_y;
  job.dst = out_map.data;
  n_jobs = gst_bc_split_block_rows (job.n_block_rows,
      gst_bc_workers_get_n_threads (self->workers), &job.rows_per_job);
  GST_LOG_OBJECT (self, "encoding frame %u (pts %" GST_TIME_FORMAT
      ") in %u jobs, quality %d", frame->system_frame_number,
      GST_TIME_ARGS (frame->pts), n_jobs, job.quality);
  gst_bc_workers_run (self->workers, n_jobs, gst_bc6h_enc_run_job, &job);

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
map_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Failed to map the input buffer as a video frame"),
        ("Could not map a %" G_GSIZE_FORMAT " byte buffer as a %ux%u %s "
            "frame", gst_buffer_get_size (frame->input_buffer),
            self->info.width, self->info.height,
            GST_VIDEO_INFO_NAME (&self->input_state->info)));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
bad_stride:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Unsupported input row stride"),
        ("The rows of input plane %u are %d bytes apart, less than the %"
            G_GSIZE_FORMAT " bytes of a row of %u pixels", p, stride,
            row_bytes, self->info.width));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
out_map_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, (NULL),
        ("Failed to map the %" G_GSIZE_FORMAT " byte output buffer for "
            "writing", self->info.size));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
}
