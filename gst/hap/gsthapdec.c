/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-hapdec
 * @title: hapdec
 * @see_also: hapenc, bcdec, glbcupload, qtdemux
 *
 * Takes Hap frames (Vidvox's codec for block-compressed video, as qtdemux
 * gives them from a QuickTime .mov file: `video/x-gst-fourcc-Hap1` ...) and
 * gives their textures as `video/x-bc`, for bcdec (CPU) or glbcupload (the
 * GPU decodes them), or decodes the textures itself into raw RGBA, BGRA,
 * RGBx or BGRx video when downstream takes only that. Hap is BC1, Hap
 * Alpha BC3, Hap Q YCoCg-BC3, Hap Alpha-Only BC4, Hap R (Hap7) BC7, Hap
 * HDR (HapH) BC6H or BC6H-SF;
 * Snappy-compressed and chunked frames are decompressed, into the buffer
 * pool downstream proposes (glbcupload's GL buffer: no copy after Snappy).
 * A frame stored without compression is passed on without a copy (and
 * decoded in place). Hap Q Alpha (two textures) is not supported.
 *
 * Hap HDR's one code, HapH, is both BC6H formats: only each frame's
 * section type says which. The output caps say BC6H (or BC6H-SF when
 * downstream takes only that) until a frame says otherwise; a frame of
 * the other format renegotiates them before it is passed on (downstream
 * that does not take it, glbcupload BC6H-SF say, stops the stream with an
 * error). Decoded to raw video, BC6H is tone-mapped to sRGB as bcdec does
 * to its 8-bit formats. Hap stores no colorimetry: the caps' own, when
 * upstream gives one, is kept on the texture's caps (for BC6H it names the
 * primaries; raw BC6H video gets bcdec's colorimetry of them).
 *
 * hapdec is a video decoder (`Codec/Decoder/Video`). Its source caps list
 * the texture first: decodebin, uridecodebin and playbin, which plug
 * decoders until the caps are raw, link its texture to the decoder of
 * `video/x-bc` (glbcupload when there is GL, else bcdec), and playbin
 * takes it with a video-sink set, as its raw output is something the sink
 * takes. decodebin3 and playbin3 end a stream at its decoder: downstream
 * takes only raw video there, and hapdec decodes the texture on the CPU,
 * in parallel on #GstHapDec:threads threads, as bcdec does (the same
 * bytes).
 *
 * A damaged frame (every header, table and chunk is checked against the
 * frame's size, Snappy data when decompressed) is dropped with a warning;
 * more than #GstHapDec:max-errors in a row stop the stream with an error.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! hapdec ! bcdec ! videoconvert ! autovideosink
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! hapdec ! glbcupload ! glimagesink
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! hapdec ! videoconvert ! autovideosink
 * gst-launch-1.0 playbin uri=file:///path/to/clip.mov
 * gst-launch-1.0 playbin3 uri=file:///path/to/clip.mov
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthapdec.h"

#include <gst/bc/bchdr.h>

GST_DEBUG_CATEGORY_STATIC (gst_hap_dec_debug);
#define GST_CAT_DEFAULT gst_hap_dec_debug

#define DEFAULT_MAX_ERRORS 10

#define DEFAULT_THREADS 0
#define MAX_THREADS 256

enum
{
  PROP_0,
  PROP_THREADS,
  PROP_MAX_ERRORS,
};

struct _GstHapDec
{
  GstBaseTransform parent;

  /* properties (object lock) */
  guint threads;
  gint max_errors;

  GstBcWorkers *workers;        /* chunks in parallel (streaming thread) */

  /* streaming thread */
  GstBcInfo info;               /* the frames' texture */
  gboolean have_info;
  /* the stream's code is another format's too (HapH: BC6H, BC6H-SF), and
   * the format of its last frame that was not that of the caps' (else
   * GST_BC_FORMAT_UNKNOWN) */
  gboolean shared;
  GstBcFormat frame_format;
  gboolean stored;              /* the output shares the input's memory */
  /* video/x-raw output: the texture is decoded here, from a Snappy or
   * chunked frame through @texture (info.size bytes) */
  gboolean decode;
  GstVideoInfo out_info;
  GstBcPixelLayout layout;
  guint8 *texture;
  guint errors_in_row;
  guint64 frames_dropped;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_HAP_FOURCC_CAPS (GST_HAP_SIZE_CAPS)));

/* the raw formats the texture is decoded to (those of bcdec) */
#define RAW_FORMATS "{ RGBA, BGRA, RGBx, BGRx }"

/* the texture first: what decodebin and playbin link to bcdec or
 * glbcupload (the GPU decodes it); decoded here for downstream that takes
 * only raw video (decodebin3, whose decoder's output is final) */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_BC_CAPS_MAKE (GST_HAP_BC_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (RAW_FORMATS)));

#define gst_hap_dec_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstHapDec, gst_hap_dec, GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_hap_dec_debug, "hapdec", 0,
        "Hap frames to block-compressed video"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (hapdec, "hapdec", GST_RANK_PRIMARY,
    GST_TYPE_HAP_DEC, gst_hap_element_init (plugin));

static void
gst_hap_dec_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHapDec *self = GST_HAP_DEC (object);

  switch (prop_id) {
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      self->threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MAX_ERRORS:
      GST_OBJECT_LOCK (self);
      self->max_errors = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_hap_dec_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstHapDec *self = GST_HAP_DEC (object);

  switch (prop_id) {
    case PROP_THREADS:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->threads);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MAX_ERRORS:
      GST_OBJECT_LOCK (self);
      g_value_set_int (value, self->max_errors);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* @caps with each structure renamed @name, without its format, then @format
 * (a string or list) set on it when not NULL */
static GstCaps *
rename_caps (GstCaps * caps, const gchar * name, const gchar * format)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

    gst_structure_set_name (s, name);
    gst_structure_remove_field (s, "format");
    if (format) {
      GValue v = G_VALUE_INIT;

      if (gst_value_deserialize (g_value_init (&v, GST_TYPE_LIST), format))
        gst_structure_take_value (s, "format", &v);
      else
        g_value_unset (&v);
    }
    ret = gst_caps_merge_structure (ret, s);
  }
  return ret;
}

/* whether the video/x-bc structure @s is of BC6H (its format, or the first
 * in its list: Hap HDR's list is of both BC6H formats) */
static gboolean
structure_is_float (const GstStructure * s)
{
  const GValue *v = gst_structure_get_value (s, "format");

  if (v && GST_VALUE_HOLDS_LIST (v) && gst_value_list_get_size (v) > 0)
    v = gst_value_list_get_value (v, 0);
  return v && G_VALUE_HOLDS_STRING (v) &&
      gst_bc_format_is_float (gst_bc_format_from_string (g_value_get_string
          (v)));
}

/* The texture's caps @bc as raw video: bcdec's colorimetry for BC6H
 * tone-mapped to sRGB (full range RGB, the texture's primaries), none for
 * the others (RGB's default, as bcdec gives) */
static GstCaps *
raw_caps_from_bc (GstCaps * bc)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (bc); i++) {
    GstStructure *s = gst_caps_get_structure (bc, i);
    GstCaps *one = gst_caps_new_full (gst_structure_copy (s), NULL);
    GstCaps *raw = rename_caps (one, "video/x-raw", RAW_FORMATS);
    GstStructure *r = gst_caps_get_structure (raw, 0);

    if (structure_is_float (s)) {
      GstVideoColorimetry cm;
      gchar *str;

      gst_bc_hdr_output_colorimetry (gst_bc_hdr_primaries_from_caps (one),
          FALSE, &cm);
      str = gst_video_colorimetry_to_string (&cm);
      if (str)
        gst_structure_set (r, "colorimetry", G_TYPE_STRING, str, NULL);
      g_free (str);
    } else {
      gst_structure_remove_field (r, "colorimetry");
    }
    gst_caps_unref (one);
    ret = gst_caps_merge (ret, raw);
  }
  return ret;
}

/* Hap frames <-> their texture (video/x-bc), then the texture decoded
 * (video/x-raw) at the same size, framerate and pixel aspect ratio */
static GstCaps *
gst_hap_dec_transform_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret;

  if (direction == GST_PAD_SINK) {
    GstCaps *bc = gst_hap_transform_caps (bt, direction, caps, NULL, TRUE);

    ret = gst_caps_merge (bc, raw_caps_from_bc (bc));
  } else {
    GstCaps *bc = gst_caps_new_empty ();
    guint i;

    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstStructure *s = gst_caps_get_structure (caps, i);
      GstCapsFeatures *f = gst_caps_get_features (caps, i);
      GstCaps *one;

      /* raw video in other memory (GL) is not ours to give */
      if (f && !gst_caps_features_is_any (f) && !gst_caps_features_is_equal
          (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
        continue;
      one = gst_caps_new_full (gst_structure_copy (s), NULL);
      if (gst_structure_has_name (s, "video/x-raw")) {
        GstCaps *tmp = rename_caps (one, GST_BC_MEDIA_TYPE, NULL);

        /* (raw video's colorimetry is not the texture's) */
        gst_structure_remove_field (gst_caps_get_structure (tmp, 0),
            "colorimetry");
        gst_caps_unref (one);
        one = tmp;
      }
      bc = gst_caps_merge (bc, one);
    }
    ret = gst_hap_transform_caps (bt, direction, bc, NULL, TRUE);
    gst_caps_unref (bc);
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  return ret;
}

/* whether the last frame's format is one of those of the Hap caps
 * @incaps (another one of the same code: Hap HDR) */
static gboolean
frame_format_applies (GstHapDec * self, GstCaps * incaps)
{
  return self->frame_format != GST_BC_FORMAT_UNKNOWN &&
      gst_caps_get_size (incaps) > 0 &&
      gst_bc_hap_fourcc_from_format (self->frame_format) ==
      gst_bc_hap_fourcc_from_format (gst_hap_structure_get_format
      (gst_caps_get_structure (incaps, 0)));
}

/* The texture whenever downstream takes it, even when it lists raw video
 * first: playbin answers a decoder's caps query with its video sink's caps
 * (raw) first, then the decoder's own template (the texture, which bcdec
 * or glbcupload take after it: on the GPU when there is GL) */
static GstCaps *
gst_hap_dec_fixate_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstHapDec *self = GST_HAP_DEC (bt);

  if (direction == GST_PAD_SINK) {
    GstCaps *bc = gst_caps_new_empty ();
    guint i;

    for (i = 0; i < gst_caps_get_size (othercaps); i++) {
      GstStructure *s = gst_caps_get_structure (othercaps, i);

      if (gst_structure_has_name (s, GST_BC_MEDIA_TYPE))
        gst_caps_append_structure (bc, gst_structure_copy (s));
    }
    /* Hap HDR: the format of the frames, once one has said it */
    if (frame_format_applies (self, caps)) {
      const gchar *format = gst_bc_format_to_string (self->frame_format);

      bc = gst_caps_make_writable (bc);
      for (i = 0; i < gst_caps_get_size (bc); i++)
        gst_structure_fixate_field_string (gst_caps_get_structure (bc, i),
            "format", format);
    }
    if (gst_caps_is_empty (bc)) {
      gst_caps_unref (bc);
    } else {
      gst_caps_unref (othercaps);
      othercaps = bc;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (bt, direction,
      caps, othercaps);
}

static gboolean
caps_are_raw (GstCaps * caps)
{
  return gst_structure_has_name (gst_caps_get_structure (caps, 0),
      "video/x-raw");
}

static gboolean
gst_hap_dec_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstHapDec *self = GST_HAP_DEC (bt);
  GstCaps *bc;
  gboolean ok;

  self->have_info = FALSE;
  self->decode = caps_are_raw (outcaps);
  /* the texture's caps: the output's, or when it is decoded those of the
   * input's texture, in the last frame's format when it said one (Hap HDR:
   * the caps list both) */
  if (self->decode) {
    GstBcFormat format = frame_format_applies (self, incaps) ?
        self->frame_format :
        gst_hap_structure_get_format (gst_caps_get_structure (incaps, 0));

    bc = gst_hap_transform_caps (bt, GST_PAD_SINK, incaps, NULL, TRUE);
    if (!gst_caps_is_empty (bc)) {
      bc = gst_caps_truncate (bc);
      gst_caps_set_simple (bc, "format", G_TYPE_STRING,
          gst_bc_format_to_string (format), NULL);
    }
  } else {
    bc = gst_caps_ref (outcaps);
  }
  ok = gst_bc_info_from_caps (&self->info, bc);
  gst_caps_unref (bc);
  if (!ok)
    goto bad_caps;
  self->shared = gst_hap_format_shares_fourcc (self->info.format);
  if (self->decode) {
    if (!gst_video_info_from_caps (&self->out_info, outcaps) ||
        GST_VIDEO_INFO_WIDTH (&self->out_info) != (gint) self->info.width ||
        GST_VIDEO_INFO_HEIGHT (&self->out_info) != (gint) self->info.height ||
        !gst_bc_pixel_layout_from_video_format (&self->layout,
            GST_VIDEO_INFO_FORMAT (&self->out_info)))
      goto bad_caps;
    g_free (self->texture);
    self->texture = g_malloc (self->info.size);
  }
  self->have_info = TRUE;
  GST_DEBUG_OBJECT (self, "%ux%u %s: %" G_GSIZE_FORMAT " bytes a texture%s%s",
      self->info.width, self->info.height,
      gst_bc_format_to_string (self->info.format), self->info.size,
      self->decode ? ", decoded to " : "",
      self->decode ? GST_VIDEO_INFO_NAME (&self->out_info) : "");
  return TRUE;

bad_caps:
  GST_WARNING_OBJECT (self, "cannot make %" GST_PTR_FORMAT " of %"
      GST_PTR_FORMAT, outcaps, incaps);
  return FALSE;
}

static gboolean
gst_hap_dec_transform_size (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize)
{
  GstVideoInfo vinfo;
  GstBcInfo info;

  /* a texture's size and a raw frame's are known from their caps, a Hap
   * frame's is not */
  if (direction != GST_PAD_SINK)
    return FALSE;
  if (caps_are_raw (othercaps)) {
    if (!gst_video_info_from_caps (&vinfo, othercaps))
      return FALSE;
    *othersize = GST_VIDEO_INFO_SIZE (&vinfo);
    return TRUE;
  }
  if (!gst_bc_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = info.size;
  return TRUE;
}

/* a frame whose texture is stored as it is becomes a buffer sharing its
 * memory; any other gets a buffer from the pool (filled in transform) */
static GstFlowReturn
gst_hap_dec_prepare_output_buffer (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer ** outbuf)
{
  GstHapDec *self = GST_HAP_DEC (bt);
  GstBcHapFrame frame;
  GstMapInfo map;
  gsize offset = 0;

  self->stored = FALSE;
  if (self->have_info && !self->decode &&
      gst_buffer_map (inbuf, &map, GST_MAP_READ)) {
    self->stored = gst_bc_hap_frame_parse (&frame, map.data, map.size, NULL)
        && frame.format == self->info.format
        && gst_bc_hap_frame_get_stored (&frame, self->info.size, &offset);
    gst_buffer_unmap (inbuf, &map);
  }
  if (self->stored) {
    *outbuf = gst_buffer_copy_region (inbuf, GST_BUFFER_COPY_ALL, offset,
        self->info.size);
    if (!*outbuf)
      return GST_FLOW_ERROR;
    /* a region keeps the times of a whole buffer only */
    GST_BUFFER_PTS (*outbuf) = GST_BUFFER_PTS (inbuf);
    GST_BUFFER_DTS (*outbuf) = GST_BUFFER_DTS (inbuf);
    GST_BUFFER_DURATION (*outbuf) = GST_BUFFER_DURATION (inbuf);
    GST_BUFFER_OFFSET (*outbuf) = GST_BUFFER_OFFSET (inbuf);
    GST_BUFFER_OFFSET_END (*outbuf) = GST_BUFFER_OFFSET_END (inbuf);
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (bt,
      inbuf, outbuf);
}

/* the format of Hap HDR frame @inbuf when it is not the stream's so far
 * but shares its code, else GST_BC_FORMAT_UNKNOWN */
static GstBcFormat
gst_hap_dec_other_format (GstHapDec * self, GstBuffer * inbuf)
{
  GstBcFormat format = GST_BC_FORMAT_UNKNOWN;
  GstBcHapFrame frame;
  GstMapInfo map;

  if (!self->have_info || !self->shared ||
      !gst_buffer_map (inbuf, &map, GST_MAP_READ))
    return format;
  if (gst_bc_hap_frame_parse (&frame, map.data, map.size, NULL) &&
      frame.format != self->info.format &&
      gst_bc_hap_fourcc_from_format (frame.format) ==
      gst_bc_hap_fourcc_from_format (self->info.format))
    format = frame.format;
  gst_buffer_unmap (inbuf, &map);
  return format;
}

/* Hap HDR's frames are BC6H or BC6H-SF under one code: a frame of the
 * other format than the stream's so far changes the stream's before it is
 * handled. The texture's caps are renegotiated; downstream that does not
 * take the other format stops the stream. The raw output's caps do not
 * change, only the texture decoded into it. */
static GstFlowReturn
gst_hap_dec_submit_input_buffer (GstBaseTransform * bt, gboolean is_discont,
    GstBuffer * inbuf)
{
  GstHapDec *self = GST_HAP_DEC (bt);
  GstBcFormat format = gst_hap_dec_other_format (self, inbuf);
  GstBcInfo info = self->info;

  if (format != GST_BC_FORMAT_UNKNOWN) {
    GST_INFO_OBJECT (self, "the frames are now %s, were %s",
        gst_bc_format_to_string (format),
        gst_bc_format_to_string (self->info.format));
    self->frame_format = format;
    if (self->decode) {
      if (gst_bc_info_set_format (&info, format, info.width, info.height) &&
          info.size == self->info.size)
        self->info = info;
    } else {
      gst_base_transform_reconfigure_src (bt);
      if (!gst_base_transform_reconfigure (bt) || self->info.format != format)
        goto not_taken;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (bt,
      is_discont, inbuf);

not_taken:
  {
    GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (bt));

    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Downstream does not take the "
            "Hap frames' texture format %s.", gst_bc_format_to_string
            (format)), ("a frame at %" GST_TIME_FORMAT " is %s, downstream "
            "takes %" GST_PTR_FORMAT, GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)),
            gst_bc_format_to_string (format), caps));
    gst_clear_caps (&caps);
    gst_buffer_unref (inbuf);
    return GST_FLOW_NOT_NEGOTIATED;
  }
}

/* a damaged frame is dropped; more than max-errors in a row are an error */
static GstFlowReturn
gst_hap_dec_frame_error (GstHapDec * self, GstBuffer * inbuf, GError * err)
{
  gint max_errors;

  GST_OBJECT_LOCK (self);
  max_errors = self->max_errors;
  GST_OBJECT_UNLOCK (self);

  self->errors_in_row++;
  self->frames_dropped++;
  if (err->code == GST_STREAM_ERROR_CODEC_NOT_FOUND ||
      (max_errors >= 0 && self->errors_in_row > (guint) max_errors)) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Cannot decode a Hap frame."),
        ("%s (frame at %" GST_TIME_FORMAT ", %u bad frames in a row, "
            "max-errors %d)", err->message,
            GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)), self->errors_in_row,
            max_errors));
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  GST_ELEMENT_WARNING (self, STREAM, DECODE, ("A Hap frame was dropped."),
      ("%s (frame at %" GST_TIME_FORMAT ", %" G_GSIZE_FORMAT " bytes; %"
          G_GUINT64_FORMAT " dropped so far)", err->message,
          GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)), gst_buffer_get_size (inbuf),
          self->frames_dropped));
  g_error_free (err);
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

typedef struct
{
  const GstBcInfo *info;
  const guint8 *texture;
  guint8 *dst;
  gsize stride;
  const GstBcPixelLayout *layout;
} DecodeJob;

static void
decode_rows (guint first_row, guint n_rows, gpointer user_data)
{
  const DecodeJob *j = user_data;

  gst_bc_decode_rows (j->info->format, j->texture, j->info->width,
      j->info->height, first_row, n_rows, j->dst, j->stride, j->layout);
}

/* Decodes the texture of @frame (in place when stored as it is, else
 * decompressed into self->texture) into @outbuf, its block rows on the
 * workers as bcdec does */
static gboolean
gst_hap_dec_decode (GstHapDec * self, const GstBcHapFrame * frame,
    const guint8 * in_data, GstBuffer * outbuf, GError ** err)
{
  GstBcTile whole = { 0, };
  GstVideoFrame vframe;
  DecodeJob job;
  gsize offset;

  if (gst_bc_hap_frame_get_stored (frame, self->info.size, &offset)) {
    job.texture = in_data + offset;
  } else {
    if (!gst_bc_hap_frame_decode (frame, self->texture, self->info.size,
            self->workers, err))
      return FALSE;
    job.texture = self->texture;
  }
  if (!gst_video_frame_map (&vframe, &self->out_info, outbuf, GST_MAP_WRITE)) {
    g_set_error (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_WRITE,
        "cannot map the output buffer as a %ux%u %s frame", self->info.width,
        self->info.height, GST_VIDEO_INFO_NAME (&self->out_info));
    return FALSE;
  }
  job.info = &self->info;
  job.dst = GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0);
  job.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0);
  job.layout = &self->layout;
  whole.n_rows = self->info.blocks_y;
  gst_bc_workers_run_tiles (self->workers, &whole, 1, decode_rows, NULL,
      &job);
  gst_video_frame_unmap (&vframe);
  return TRUE;
}

static GstFlowReturn
gst_hap_dec_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstHapDec *self = GST_HAP_DEC (bt);
  GstMapInfo in, out;
  GstBcHapFrame frame;
  GError *err = NULL;
  gboolean ok;

  if (!self->have_info)
    return GST_FLOW_NOT_NEGOTIATED;
  if (self->stored) {
    self->errors_in_row = 0;
    return GST_FLOW_OK;
  }

  if (!gst_buffer_map (inbuf, &in, GST_MAP_READ))
    goto map_failed;
  ok = gst_bc_hap_frame_parse (&frame, in.data, in.size, &err);
  if (ok && frame.format != self->info.format) {
    g_set_error (&err, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "the frame's texture is %s, the stream's %s",
        gst_bc_format_to_string (frame.format),
        gst_bc_format_to_string (self->info.format));
    ok = FALSE;
  }
  if (self->decode) {
    if (ok)
      ok = gst_hap_dec_decode (self, &frame, in.data, outbuf, &err);
    gst_buffer_unmap (inbuf, &in);
    if (!ok)
      return gst_hap_dec_frame_error (self, inbuf, err);
    self->errors_in_row = 0;
    return GST_FLOW_OK;
  }
  if (!gst_buffer_map (outbuf, &out, GST_MAP_WRITE)) {
    gst_buffer_unmap (inbuf, &in);
    goto map_failed;
  }
  if (ok && out.size < self->info.size) {
    g_set_error (&err, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "output buffer of %" G_GSIZE_FORMAT " bytes for a texture of %"
        G_GSIZE_FORMAT, out.size, self->info.size);
    ok = FALSE;
  }
  if (ok)
    ok = gst_bc_hap_frame_decode (&frame, out.data, self->info.size,
        self->workers, &err);
  gst_buffer_unmap (outbuf, &out);
  gst_buffer_unmap (inbuf, &in);
  if (!ok)
    return gst_hap_dec_frame_error (self, inbuf, err);

  if (gst_buffer_get_size (outbuf) != self->info.size)
    gst_buffer_set_size (outbuf, self->info.size);
  self->errors_in_row = 0;
  return GST_FLOW_OK;

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL), ("cannot map a buffer"));
  return GST_FLOW_ERROR;
}

static gboolean
gst_hap_dec_stop (GstBaseTransform * bt)
{
  GstHapDec *self = GST_HAP_DEC (bt);

  g_clear_pointer (&self->workers, gst_bc_workers_free);
  g_clear_pointer (&self->texture, g_free);
  return TRUE;
}

static gboolean
gst_hap_dec_start (GstBaseTransform * bt)
{
  GstHapDec *self = GST_HAP_DEC (bt);

  self->workers = gst_hap_workers_new (GST_ELEMENT (self), &self->threads);
  self->have_info = FALSE;
  self->shared = FALSE;
  self->frame_format = GST_BC_FORMAT_UNKNOWN;
  self->stored = FALSE;
  self->decode = FALSE;
  self->errors_in_row = 0;
  self->frames_dropped = 0;
  return TRUE;
}

static void
gst_hap_dec_class_init (GstHapDecClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_hap_dec_set_property;
  gobject_class->get_property = gst_hap_dec_get_property;

  /**
   * GstHapDec:max-errors:
   *
   * Damaged frames in a row that are dropped with a warning before the
   * next one is an error; -1 never stops the stream.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_ERRORS,
      g_param_spec_int ("max-errors", "Max errors",
          "Damaged frames in a row dropped with a warning before the next is "
          "an error (-1 = never an error)", -1, G_MAXINT, DEFAULT_MAX_ERRORS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstHapDec:threads:
   *
   * Threads that decompress the chunks of a chunked frame together, and
   * decode the texture's block rows for raw output, the streaming thread
   * included; 0 means one per processor core. A frame of one chunk takes
   * one thread to decompress.
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Threads that decompress the chunks of a chunked frame together "
          "(and decode the texture for raw output), the streaming thread "
          "included (0 to 256, 0 = one per processor core; default: 0)", 0,
          MAX_THREADS, DEFAULT_THREADS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Hap frame decoder", "Codec/Decoder/Video",
      "Unpacks Hap frames (Snappy, chunks) into block-compressed video "
      "(BC1, BC3, YCoCg-BC3, BC4, BC7, BC6H) for bcdec or glbcupload, or "
      "decodes them into RGB on the CPU",
      "The gst-bc developers");

  bt_class->transform_caps = GST_DEBUG_FUNCPTR (gst_hap_dec_transform_caps);
  bt_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_hap_dec_fixate_caps);
  bt_class->set_caps = GST_DEBUG_FUNCPTR (gst_hap_dec_set_caps);
  bt_class->transform_size = GST_DEBUG_FUNCPTR (gst_hap_dec_transform_size);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_hap_dec_prepare_output_buffer);
  bt_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_hap_dec_submit_input_buffer);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_hap_dec_transform);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_hap_dec_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_hap_dec_stop);
  bt_class->passthrough_on_same_caps = FALSE;
}

static void
gst_hap_dec_init (GstHapDec * self)
{
  self->threads = DEFAULT_THREADS;
  self->max_errors = DEFAULT_MAX_ERRORS;
  self->frame_format = GST_BC_FORMAT_UNKNOWN;
  gst_bc_info_init (&self->info);
}
