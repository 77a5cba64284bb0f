/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-bcdec
 * @title: bcdec
 * @see_also: #bc1enc, #bc3enc
 *
 * Decodes `video/x-bc` frames (BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H
 * and BC6H-SF) into raw RGBA, BGRA, RGBx or BGRx video on the CPU, cropped
 * to the visible size given in the caps. It is the software fallback for
 * receivers without a GPU; with a GPU, `glbcupload` lets the GPU decode the
 * blocks instead.
 *
 * BC6H holds linear light as half floats, 1.0 being 203 cd/m2 (the BT.2408
 * reference white). It decodes to RGBA64_LE when downstream takes it: the
 * full-range SMPTE ST 2084 (PQ) codes of the values, with a colorimetry of
 * the PQ transfer; otherwise to the 8-bit formats through an SDR tone curve
 * and the sRGB transfer (gst_bc_hdr_tone_map(), described in
 * docs/elements.md). The primaries are the input caps' colorimetry's
 * (BT.2020 when they name none) in both.
 *
 * Each input buffer must hold exactly one frame (its size is fixed by the
 * caps); a buffer of any other size is a stream error. Block rows are
 * decoded in parallel on #GstBcDec:threads threads. Every frame is a key
 * frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! bc1enc ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a test picture as BC1 and decodes it again for display.
 * |[
 * gst-launch-1.0 tilesrc host=10.0.0.2 port=7000 ! bcdec ! videoconvert ! autovideosink
 * ]| Displays block-compressed video received from a `tilesink`.
 * |[
 * gst-launch-1.0 filesrc location=hdr.bc6h blocksize=2073600 ! \
 *     video/x-bc,format=BC6H,width=1920,height=1080,framerate=30/1 ! \
 *     bcdec ! video/x-raw,format=RGBA64_LE ! fakesink
 * ]| Decodes raw BC6H frames to PQ-coded RGBA64_LE.
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/bc/bc.h>

#include "gstbcdec.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc_dec_debug);
#define GST_CAT_DEFAULT gst_bc_dec_debug

#define DEFAULT_THREADS 0
#define MAX_THREADS 256

/* RGBA64_LE: BC6H only (PQ codes) */
#define BC_DEC_RAW_FORMATS "{ RGBA64_LE, RGBA, BGRA, RGBx, BGRx }"

enum
{
  PROP_0,
  PROP_THREADS,
};

struct _GstBcDec
{
  GstVideoDecoder parent;

  /* properties, under the object lock */
  guint threads;

  /* streaming thread only */
  GstVideoCodecState *input_state;
  GstVideoCodecState *output_state;
  GstBcInfo info;
  GstBcPixelLayout layout;
  gboolean pq;                  /* BC6H to RGBA64_LE */
  GstBcWorkers *workers;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_BC_CAPS_MAKE (GST_BC_FORMATS_ALL)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (BC_DEC_RAW_FORMATS)));

#define gst_bc_dec_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBcDec, gst_bc_dec, GST_TYPE_VIDEO_DECODER,
    GST_DEBUG_CATEGORY_INIT (gst_bc_dec_debug, "bcdec", 0,
        "Block-compressed video decoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bcdec, "bcdec", GST_RANK_PRIMARY,
    GST_TYPE_BC_DEC, bc_element_init (plugin));

static void gst_bc_dec_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_bc_dec_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_bc_dec_start (GstVideoDecoder * decoder);
static gboolean gst_bc_dec_stop (GstVideoDecoder * decoder);
static gboolean gst_bc_dec_set_format (GstVideoDecoder * decoder,
    GstVideoCodecState * state);
static GstFlowReturn gst_bc_dec_handle_frame (GstVideoDecoder * decoder,
    GstVideoCodecFrame * frame);
static GstFlowReturn gst_bc_dec_drain (GstVideoDecoder * decoder);

static void
gst_bc_dec_class_init (GstBcDecClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoDecoderClass *vdec_class = GST_VIDEO_DECODER_CLASS (klass);

  gobject_class->set_property = gst_bc_dec_set_property;
  gobject_class->get_property = gst_bc_dec_get_property;

  /**
   * GstBcDec:threads:
   *
   * Number of threads that decode a frame together, the streaming thread
   * included; 0 means one per processor core.
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Number of threads that decode each frame together, the streaming "
          "thread included (0 to 256, 0 = one per processor core; "
          "default: 0)", 0, MAX_THREADS, DEFAULT_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "BC video decoder", "Codec/Decoder/Video",
      "Decodes block-compressed (BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H) "
      "video into RGB on the CPU", "The gst-bc developers");

  vdec_class->start = GST_DEBUG_FUNCPTR (gst_bc_dec_start);
  vdec_class->stop = GST_DEBUG_FUNCPTR (gst_bc_dec_stop);
  vdec_class->set_format = GST_DEBUG_FUNCPTR (gst_bc_dec_set_format);
  vdec_class->handle_frame = GST_DEBUG_FUNCPTR (gst_bc_dec_handle_frame);
  vdec_class->drain = GST_DEBUG_FUNCPTR (gst_bc_dec_drain);
}

static void
gst_bc_dec_init (GstBcDec * self)
{
  GstVideoDecoder *decoder = GST_VIDEO_DECODER (self);

  self->threads = DEFAULT_THREADS;
  gst_bc_info_init (&self->info);

  /* one input buffer is one whole frame */
  gst_video_decoder_set_packetized (decoder, TRUE);
  gst_video_decoder_set_use_default_pad_acceptcaps (decoder, TRUE);
  GST_PAD_SET_ACCEPT_TEMPLATE (GST_VIDEO_DECODER_SINK_PAD (self));
}

static void
gst_bc_dec_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstBcDec *self = GST_BC_DEC (object);

  switch (prop_id) {
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
gst_bc_dec_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstBcDec *self = GST_BC_DEC (object);

  switch (prop_id) {
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->threads);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc_dec_ensure_workers (GstBcDec * self)
{
  guint threads;

  if (self->workers != NULL)
    return;

  GST_OBJECT_LOCK (self);
  threads = self->threads;
  GST_OBJECT_UNLOCK (self);

  self->workers = gst_bc_workers_new (threads);
  GST_DEBUG_OBJECT (self, "decoding on %u threads (threads=%u)",
      gst_bc_workers_get_n_threads (self->workers), threads);
}

static gboolean
gst_bc_dec_start (GstVideoDecoder * decoder)
{
  gst_bc_dec_ensure_workers (GST_BC_DEC (decoder));
  return TRUE;
}

static gboolean
gst_bc_dec_stop (GstVideoDecoder * decoder)
{
  GstBcDec *self = GST_BC_DEC (decoder);

  g_clear_pointer (&self->workers, gst_bc_workers_free);
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  g_clear_pointer (&self->output_state, gst_video_codec_state_unref);
  gst_bc_info_init (&self->info);
  return TRUE;
}

/* Frames are decoded as they come: nothing is ever pending */
static GstFlowReturn
gst_bc_dec_drain (GstVideoDecoder * decoder)
{
  return GST_FLOW_OK;
}

/* @v if it names one of our 8-bit formats */
static GstVideoFormat
gst_bc_dec_output_format_from_value (const GValue * v)
{
  static const GstVideoFormat ours[] = {
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
    GST_VIDEO_FORMAT_BGRx,
  };
  GstVideoFormat f;
  guint i;

  if (!G_VALUE_HOLDS_STRING (v))
    return GST_VIDEO_FORMAT_UNKNOWN;
  f = gst_video_format_from_string (g_value_get_string (v));
  for (i = 0; i < G_N_ELEMENTS (ours); i++) {
    if (ours[i] == f)
      return f;
  }
  return GST_VIDEO_FORMAT_UNKNOWN;
}

/* The first of our 8-bit formats in @v (a format or a list) */
static GstVideoFormat
gst_bc_dec_first_format (const GValue * v)
{
  GstVideoFormat format;
  guint j;

  if (!GST_VALUE_HOLDS_LIST (v))
    return gst_bc_dec_output_format_from_value (v);
  for (j = 0; j < gst_value_list_get_size (v); j++) {
    format = gst_bc_dec_output_format_from_value
        (gst_value_list_get_value (v, j));
    if (format != GST_VIDEO_FORMAT_UNKNOWN)
      return format;
  }
  return GST_VIDEO_FORMAT_UNKNOWN;
}

/* The raw format downstream prefers among ours, RGBA when it does not say;
 * for BC6H (@hdr) RGBA64_LE whenever downstream takes it */
static GstVideoFormat
gst_bc_dec_pick_output_format (GstBcDec * self, gboolean hdr)
{
  GstPad *srcpad = GST_VIDEO_DECODER_SRC_PAD (self);
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  GstCaps *peer, *templ, *allowed = NULL;
  guint i;

  /* unfiltered, so that the peer's order of preference is kept */
  peer = gst_pad_peer_query_caps (srcpad, NULL);
  if (peer == NULL || gst_caps_is_any (peer)) {
    GST_DEBUG_OBJECT (self, "downstream takes any caps");
    goto done;
  }
  templ = gst_pad_get_pad_template_caps (srcpad);
  allowed = gst_caps_intersect_full (peer, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (templ);
  GST_DEBUG_OBJECT (self, "downstream allows %" GST_PTR_FORMAT, allowed);

  if (hdr) {
    GstCaps *wide = gst_caps_from_string ("video/x-raw, format = RGBA64_LE");

    if (gst_caps_can_intersect (allowed, wide))
      format = GST_VIDEO_FORMAT_RGBA64_LE;
    gst_caps_unref (wide);
    if (format != GST_VIDEO_FORMAT_UNKNOWN)
      goto done;
  }

  /* first structure first, and in a list the first entry we can make */
  for (i = 0; i < gst_caps_get_size (allowed); i++) {
    const GstStructure *s = gst_caps_get_structure (allowed, i);
    const GValue *v = gst_structure_get_value (s, "format");

    if (v == NULL)
      continue;
    format = gst_bc_dec_first_format (v);
    if (format != GST_VIDEO_FORMAT_UNKNOWN)
      goto done;
  }

done:
  if (format == GST_VIDEO_FORMAT_UNKNOWN)
    format = hdr ? GST_VIDEO_FORMAT_RGBA64_LE : GST_VIDEO_FORMAT_RGBA;
  if (allowed)
    gst_caps_unref (allowed);
  if (peer)
    gst_caps_unref (peer);
  return format;
}

static gboolean
gst_bc_dec_set_format (GstVideoDecoder * decoder, GstVideoCodecState * state)
{
  GstBcDec *self = GST_BC_DEC (decoder);
  GstVideoCodecState *output_state;
  GstVideoFormat out_format;
  GstBcPixelLayout layout = { 0, };
  GstBcInfo info;
  gboolean hdr;

  GST_DEBUG_OBJECT (self, "input caps %" GST_PTR_FORMAT, state->caps);

  if (!gst_bc_info_from_caps (&info, state->caps))
    goto invalid_caps;

  hdr = gst_bc_format_is_float (info.format);
  out_format = gst_bc_dec_pick_output_format (self, hdr);
  if (out_format != GST_VIDEO_FORMAT_RGBA64_LE
      && !gst_bc_pixel_layout_from_video_format (&layout, out_format))
    goto invalid_caps;          /* cannot happen: picked from our list */

  /* no reference state: the input's colorimetry means nothing for RGB
   * (but BC6H's primaries, set below) */
  output_state = gst_video_decoder_set_output_state (decoder, out_format,
      info.width, info.height, NULL);
  /* NULL when GStreamer cannot describe such a frame (a size whose bytes
   * overflow, from a hostile sender's caps say) */
  if (output_state == NULL)
    goto too_large;
  /* BC6H: PQ or the tone curve's sRGB, with the input's primaries */
  if (hdr)
    gst_bc_hdr_output_colorimetry (gst_bc_hdr_primaries_from_caps
        (state->caps), out_format == GST_VIDEO_FORMAT_RGBA64_LE,
        &GST_VIDEO_INFO_COLORIMETRY (&output_state->info));
  GST_VIDEO_INFO_FPS_N (&output_state->info) = info.fps_n;
  GST_VIDEO_INFO_FPS_D (&output_state->info) = info.fps_d;
  GST_VIDEO_INFO_PAR_N (&output_state->info) = info.par_n;
  GST_VIDEO_INFO_PAR_D (&output_state->info) = info.par_d;
  if (GST_VIDEO_INFO_INTERLACE_MODE (&state->info) !=
      GST_VIDEO_INTERLACE_MODE_PROGRESSIVE)
    GST_VIDEO_INFO_INTERLACE_MODE (&output_state->info) =
        GST_VIDEO_INFO_INTERLACE_MODE (&state->info);

  g_clear_pointer (&self->output_state, gst_video_codec_state_unref);
  self->output_state = output_state;

  if (!gst_video_decoder_negotiate (decoder))
    goto negotiation_failed;

  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  self->input_state = gst_video_codec_state_ref (state);
  self->info = info;
  self->layout = layout;
  self->pq = out_format == GST_VIDEO_FORMAT_RGBA64_LE;

  gst_bc_dec_ensure_workers (self);

  GST_DEBUG_OBJECT (self, "decoding %ux%u %s (%u x %u blocks, %"
      G_GSIZE_FORMAT " bytes per frame) to %s", info.width, info.height,
      gst_bc_format_to_string (info.format), info.blocks_x, info.blocks_y,
      info.size, gst_video_format_to_string (out_format));
  return TRUE;

invalid_caps:
  {
    GST_WARNING_OBJECT (self, "cannot decode caps %" GST_PTR_FORMAT ": need "
        "fixed " GST_BC_MEDIA_TYPE " caps with a known format and a width "
        "and height of at least 1", state->caps);
    return FALSE;
  }
too_large:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot decode %ux%u frames: "
            "the decoded %s frame would be too large", info.width,
            info.height, gst_video_format_to_string (out_format)),
        ("gst_video_decoder_set_output_state() failed for caps %"
            GST_PTR_FORMAT, state->caps));
    return FALSE;
  }
negotiation_failed:
  {
    GST_WARNING_OBJECT (self, "downstream does not accept %s %ux%u output",
        gst_video_format_to_string (out_format), info.width, info.height);
    return FALSE;
  }
}

typedef struct
{
  GstBcFormat format;
  const guint8 *src;
  guint width;
  guint height;
  guint n_block_rows;
  guint rows_per_job;
  guint8 *dst;
  gsize dst_stride;
  const GstBcPixelLayout *layout;
  gboolean pq;
} GstBcDecJob;

static void
gst_bc_dec_run_job (guint job, gpointer user_data)
{
  const GstBcDecJob *j = user_data;
  guint first = job * j->rows_per_job;
  guint n = MIN (j->rows_per_job, j->n_block_rows - first);

  if (j->pq)
    gst_bc_decode_rows_pq (j->format, j->src, j->width, j->height, first, n,
        j->dst, j->dst_stride);
  else
    gst_bc_decode_rows (j->format, j->src, j->width, j->height, first, n,
        j->dst, j->dst_stride, j->layout);
}

static GstFlowReturn
gst_bc_dec_handle_frame (GstVideoDecoder * decoder, GstVideoCodecFrame * frame)
{
  GstBcDec *self = GST_BC_DEC (decoder);
  GstVideoFrame vframe;
  GstMapInfo in_map;
  GstBcDecJob job;
  gsize in_size;
  guint n_jobs, pixel_bytes = 4;
  gint stride;
  GstFlowReturn ret;

  if (G_UNLIKELY (self->input_state == NULL || self->output_state == NULL))
    goto not_negotiated;

  /* frames have a fixed size: anything else is corrupt, and reading it
   * could run past its end */
  in_size = gst_buffer_get_size (frame->input_buffer);
  if (G_UNLIKELY (in_size != self->info.size))
    goto wrong_size;

  ret = gst_video_decoder_allocate_output_frame (decoder, frame);
  if (G_UNLIKELY (ret != GST_FLOW_OK))
    goto alloc_failed;

  if (G_UNLIKELY (!gst_buffer_map (frame->input_buffer, &in_map, GST_MAP_READ)))
    goto in_map_failed;

  if (G_UNLIKELY (!gst_video_frame_map (&vframe, &self->output_state->info,
              frame->output_buffer, GST_MAP_WRITE))) {
    gst_buffer_unmap (frame->input_buffer, &in_map);
    goto out_map_failed;
  }

  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0);
  pixel_bytes = self->pq ? 8 : 4;
  if (G_UNLIKELY (stride < (gint) (self->info.width * pixel_bytes))) {
    gst_video_frame_unmap (&vframe);
    gst_buffer_unmap (frame->input_buffer, &in_map);
    goto bad_stride;
  }

  job.format = self->info.format;
  job.src = in_map.data;
  job.width = self->info.width;
  job.height = self->info.height;
  job.n_block_rows = self->info.blocks_y;
  job.dst = GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0);
  job.dst_stride = (gsize) stride;
  job.layout = &self->layout;
  job.pq = self->pq;

  gst_bc_dec_ensure_workers (self);
  n_jobs = gst_bc_split_block_rows (job.n_block_rows,
      gst_bc_workers_get_n_threads (self->workers), &job.rows_per_job);

  GST_LOG_OBJECT (self, "decoding frame %u (pts %" GST_TIME_FORMAT
      ") in %u jobs of %u block rows", frame->system_frame_number,
      GST_TIME_ARGS (frame->pts), n_jobs, job.rows_per_job);

  gst_bc_workers_run (self->workers, n_jobs, gst_bc_dec_run_job, &job);

  gst_video_frame_unmap (&vframe);
  gst_buffer_unmap (frame->input_buffer, &in_map);

  GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
  return gst_video_decoder_finish_frame (decoder, frame);

not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a frame before the input format was set"));
    gst_video_decoder_release_frame (decoder, frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }
wrong_size:
  {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Input buffer does not hold exactly one frame"),
        ("Input buffer has %" G_GSIZE_FORMAT " bytes, but a %ux%u %s frame "
            "has %" G_GSIZE_FORMAT " bytes", in_size, self->info.width,
            self->info.height, gst_bc_format_to_string (self->info.format),
            self->info.size));
    gst_video_decoder_release_frame (decoder, frame);
    return GST_FLOW_ERROR;
  }
alloc_failed:
  {
    GST_DEBUG_OBJECT (self, "could not allocate an output frame: %s",
        gst_flow_get_name (ret));
    gst_video_decoder_release_frame (decoder, frame);
    return ret;
  }
in_map_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL),
        ("Failed to map the %" G_GSIZE_FORMAT " byte input buffer for "
            "reading", in_size));
    gst_video_decoder_release_frame (decoder, frame);
    return GST_FLOW_ERROR;
  }
out_map_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, (NULL),
        ("Failed to map the output buffer as a %ux%u %s frame",
            self->info.width, self->info.height,
            GST_VIDEO_INFO_NAME (&self->output_state->info)));
    gst_video_decoder_release_frame (decoder, frame);
    return GST_FLOW_ERROR;
  }
bad_stride:
  {
    GST_ELEMENT_ERROR (self, STREAM, DECODE, (NULL),
        ("Output buffer stride %d is too small for %u pixels of %u bytes",
            stride, self->info.width, pixel_bytes));
    gst_video_decoder_release_frame (decoder, frame);
    return GST_FLOW_ERROR;
  }
}
