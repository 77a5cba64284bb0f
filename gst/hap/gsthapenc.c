/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-hapenc
 * @title: hapenc
 * @see_also: hapdec, bc1enc, bc3enc, bc4enc, bc7enc, bc6henc, qtmux, tilesrc
 *
 * Wraps block-compressed frames (`video/x-bc` from any bcNenc, tilesrc or
 * hapdec) into Hap frames, so that qtmux writes a Hap QuickTime .mov file
 * that ffmpeg, VLC and the media servers that read Hap play: BC1 becomes
 * Hap, BC3 Hap Alpha, YCoCg-BC3 Hap Q, BC4 Hap Alpha-Only, BC7 Hap R
 * (Hap7), and BC6H and BC6H-SF Hap HDR (HapH, one code for both: each
 * frame's section type says which). BC5 has no Hap variant. Hap stores no
 * colorimetry; the output caps keep the input's (for BC6H it names the
 * primaries), which qtmux writes as a colr atom. The texture is not
 * touched: only Snappy (#GstHapEnc:compressor) and the cut into
 * #GstHapEnc:chunks (which players decompress in parallel) are added.
 * With compressor=none and one chunk the frame is the texture behind a
 * 4-byte header, without a copy.
 *
 * GStreamer 1.22's qtmux has no Hap mapping; it takes any QuickTime code as
 * `video/x-qt-part, format=(uint)CODE`, which hapenc offers after its own
 * `video/x-gst-fourcc-Hap1` (the caps qtdemux gives on playback, what other
 * elements, hapdec included, take).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -e videotestsrc num-buffers=300 ! video/x-raw,width=1920,height=1080 ! bc1enc ! hapenc ! qtmux ! filesink location=out.mov
 * gst-launch-1.0 -e tilesrc host=10.0.0.2 port=7000 ! hapenc chunks=4 ! qtmux ! filesink location=received.mov
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthapenc.h"

GST_DEBUG_CATEGORY_STATIC (gst_hap_enc_debug);
#define GST_CAT_DEFAULT gst_hap_enc_debug

#define DEFAULT_COMPRESSOR GST_BC_HAP_COMPRESSOR_SNAPPY
#define DEFAULT_CHUNKS 1

#define DEFAULT_THREADS 0
#define MAX_THREADS 256

enum
{
  PROP_0,
  PROP_THREADS,
  PROP_COMPRESSOR,
  PROP_CHUNKS,
};

struct _GstHapEnc
{
  GstBaseTransform parent;

  /* properties (object lock) */
  guint threads;
  GstBcHapCompressor compressor;
  guint chunks;

  GstBcWorkers *workers;        /* chunks in parallel (streaming thread) */

  /* streaming thread: the settings of the frame being written */
  GstBcInfo info;
  gboolean have_info;
  GstBcHapCompressor cur_compressor;
  guint cur_chunks;
  gboolean stored;              /* the output shares the input's memory */
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_BC_CAPS_MAKE (GST_HAP_BC_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_HAP_FOURCC_CAPS (GST_HAP_SIZE_CAPS) "; "
        "video/x-qt-part, " GST_HAP_SIZE_CAPS));

#define gst_hap_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstHapEnc, gst_hap_enc, GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_hap_enc_debug, "hapenc", 0,
        "Block-compressed video to Hap frames"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (hapenc, "hapenc", GST_RANK_PRIMARY,
    GST_TYPE_HAP_ENC, gst_hap_element_init (plugin));

static void
gst_hap_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHapEnc *self = GST_HAP_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_COMPRESSOR:
      self->compressor = g_value_get_enum (value);
      break;
    case PROP_CHUNKS:
      self->chunks = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_hap_enc_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstHapEnc *self = GST_HAP_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_COMPRESSOR:
      g_value_set_enum (value, self->compressor);
      break;
    case PROP_CHUNKS:
      g_value_set_uint (value, self->chunks);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static GstCaps *
gst_hap_enc_transform_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  return gst_hap_transform_caps (bt, direction, caps, filter, FALSE);
}

static gboolean
gst_hap_enc_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstHapEnc *self = GST_HAP_ENC (bt);

  if (!gst_bc_info_from_caps (&self->info, incaps) ||
      !gst_bc_hap_fourcc_from_format (self->info.format)) {
    GST_WARNING_OBJECT (self, "bad input caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  self->have_info = TRUE;
  GST_DEBUG_OBJECT (self, "%ux%u %s -> %" GST_PTR_FORMAT, self->info.width,
      self->info.height, gst_bc_format_to_string (self->info.format), outcaps);
  return TRUE;
}

static void
gst_hap_enc_take_settings (GstHapEnc * self)
{
  GST_OBJECT_LOCK (self);
  self->cur_compressor = self->compressor;
  self->cur_chunks = self->chunks;
  GST_OBJECT_UNLOCK (self);
}

/* compressor=none in one chunk: a header in front of the input's memory;
 * otherwise a buffer for the largest frame, trimmed in transform() */
static GstFlowReturn
gst_hap_enc_prepare_output_buffer (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer ** outbuf)
{
  GstHapEnc *self = GST_HAP_ENC (bt);
  guint8 header[8];
  guint n = 0;

  if (!self->have_info)
    return GST_FLOW_NOT_NEGOTIATED;
  gst_hap_enc_take_settings (self);

  self->stored = self->cur_compressor == GST_BC_HAP_COMPRESSOR_NONE &&
      self->cur_chunks <= 1 && gst_buffer_get_size (inbuf) == self->info.size
      && (n = gst_bc_hap_frame_stored_header (self->info.format,
          self->info.size, header)) > 0;
  if (self->stored) {
    *outbuf = gst_buffer_new_memdup (header, n);
    if (!gst_buffer_copy_into (*outbuf, inbuf, GST_BUFFER_COPY_ALL, 0, -1))
      goto copy_failed;
    return GST_FLOW_OK;
  }

  *outbuf = gst_buffer_new_allocate (NULL,
      gst_bc_hap_frame_max_size (&self->info, self->cur_chunks), NULL);
  if (!*outbuf || !gst_buffer_copy_into (*outbuf, inbuf,
          GST_BUFFER_COPY_METADATA, 0, -1))
    goto copy_failed;
  return GST_FLOW_OK;

copy_failed:
  gst_clear_buffer (outbuf);
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL),
      ("cannot make an output buffer"));
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_hap_enc_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstHapEnc *self = GST_HAP_ENC (bt);
  GstMapInfo in, out;
  gsize offset = 0, len = 0;

  if (!self->have_info)
    return GST_FLOW_NOT_NEGOTIATED;

  /* Hap frames are all key frames; qtmux wants a decode time */
  if (!GST_BUFFER_DTS_IS_VALID (outbuf))
    GST_BUFFER_DTS (outbuf) = GST_BUFFER_PTS (outbuf);
  GST_BUFFER_FLAG_UNSET (outbuf, GST_BUFFER_FLAG_DELTA_UNIT);

  /* the stored frame from prepare_output_buffer */
  if (self->stored)
    return GST_FLOW_OK;

  if (gst_buffer_get_size (inbuf) != self->info.size) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("frame of %" G_GSIZE_FORMAT " bytes, the caps say %" G_GSIZE_FORMAT,
            gst_buffer_get_size (inbuf), self->info.size));
    return GST_FLOW_ERROR;
  }
  if (!gst_buffer_map (inbuf, &in, GST_MAP_READ))
    goto map_failed;
  if (!gst_buffer_map (outbuf, &out, GST_MAP_WRITE)) {
    gst_buffer_unmap (inbuf, &in);
    goto map_failed;
  }
  len = gst_bc_hap_frame_compose (&self->info, in.data, self->cur_compressor,
      self->cur_chunks, self->workers, out.data, out.size, &offset);
  gst_buffer_unmap (outbuf, &out);
  gst_buffer_unmap (inbuf, &in);
  if (!len) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, (NULL),
        ("cannot write a Hap frame of %" G_GSIZE_FORMAT " bytes into %"
            G_GSIZE_FORMAT, self->info.size, gst_buffer_get_size (outbuf)));
    return GST_FLOW_ERROR;
  }
  gst_buffer_resize (outbuf, offset, len);
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT ": %" G_GSIZE_FORMAT
      " bytes for %" G_GSIZE_FORMAT, GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)),
      len, self->info.size);
  return GST_FLOW_OK;

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL), ("cannot map a buffer"));
  return GST_FLOW_ERROR;
}

static gboolean
gst_hap_enc_stop (GstBaseTransform * bt)
{
  GstHapEnc *self = GST_HAP_ENC (bt);

  g_clear_pointer (&self->workers, gst_bc_workers_free);
  return TRUE;
}

static gboolean
gst_hap_enc_start (GstBaseTransform * bt)
{
  GstHapEnc *self = GST_HAP_ENC (bt);

  self->workers = gst_hap_workers_new (GST_ELEMENT (self), &self->threads);
  self->have_info = FALSE;
  return TRUE;
}

static void
gst_hap_enc_class_init (GstHapEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_hap_enc_set_property;
  gobject_class->get_property = gst_hap_enc_get_property;

  /**
   * GstHapEnc:compressor:
   *
   * The second-stage compressor. A chunk Snappy does not make smaller is
   * stored as it is.
   */
  g_object_class_install_property (gobject_class, PROP_COMPRESSOR,
      g_param_spec_enum ("compressor", "Compressor",
          "Second-stage compressor of the textures (none: no copy with one "
          "chunk)", GST_TYPE_BC_HAP_COMPRESSOR, DEFAULT_COMPRESSOR,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstHapEnc:chunks:
   *
   * How many chunks each texture is cut into (at block rows, at most one
   * per block row), each compressed apart: players decompress them in
   * parallel.
   */
  g_object_class_install_property (gobject_class, PROP_CHUNKS,
      g_param_spec_uint ("chunks", "Chunks",
          "Chunks each texture is cut into, compressed apart (players "
          "decompress them in parallel)", 1, GST_BC_HAP_MAX_CHUNKS,
          DEFAULT_CHUNKS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstHapEnc:threads:
   *
   * Threads that compress the chunks of a frame together, the streaming thread
   * included; 0 means one per processor core. A frame of one chunk takes one
   * thread.
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Threads that compress the chunks of a frame together, the streaming thread "
          "included (0 to 256, 0 = one per processor core; default: 0)", 0,
          MAX_THREADS, DEFAULT_THREADS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Hap frame encoder", "Codec/Encoder/Video",
      "Wraps block-compressed video (BC1, BC3, YCoCg-BC3, BC4, BC7, BC6H) "
      "into Hap frames, for qtmux", "The gst-bc developers");

  bt_class->transform_caps = GST_DEBUG_FUNCPTR (gst_hap_enc_transform_caps);
  bt_class->set_caps = GST_DEBUG_FUNCPTR (gst_hap_enc_set_caps);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_hap_enc_prepare_output_buffer);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_hap_enc_transform);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_hap_enc_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_hap_enc_stop);
  bt_class->passthrough_on_same_caps = FALSE;
}

static void
gst_hap_enc_init (GstHapEnc * self)
{
  self->threads = DEFAULT_THREADS;
  self->compressor = DEFAULT_COMPRESSOR;
  self->chunks = DEFAULT_CHUNKS;
  gst_bc_info_init (&self->info);
}
