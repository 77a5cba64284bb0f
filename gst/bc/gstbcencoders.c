/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-bc1enc
 * @title: bc1enc
 * @see_also: #bc3enc, #bcdec, #GstBcEnc
 *
 * Encodes raw RGB or YUV video into BC1 (DXT1) block-compressed frames: 8 bytes per
 * 4x4 block, 4 bits per pixel, no alpha. Frames whose size is not a multiple
 * of 4 are padded by repeating the last column and row; the caps carry the
 * visible size. The encode runs on #GstBcEnc:threads threads; every output
 * frame is a key frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! bc1enc ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a test picture and decodes it again for display.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,width=1920,height=1080 ! bc1enc quality=high threads=4 ! fakesink
 * ]| Encodes 60 full-HD frames at the best quality on four threads.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,format=NV12,width=3840,height=2160 ! bc1enc quality=fast ! fakesink
 * ]| Encodes NV12 video: the encoder converts it to RGB itself (the
 * caps' colorimetry, see #GstBcEnc), no videoconvert needed.
 *
 * Since: 0.1
 */

/**
 * SECTION:element-bc3enc
 * @title: bc3enc
 * @see_also: #bc1enc, #bcdec, #GstBcEnc
 *
 * Encodes raw RGB(A) video into 16-byte-per-block BC3 frames (8 bits per
 * pixel). With #GstBc3Enc:ycocg (the default) the colour is stored as
 * YCoCg-BC3 (van Waveren and Castano, "Real-Time YCoCg-DXT Compression",
 * 2007): luma in the alpha block, chroma in the colour block, which gives
 * much better quality than BC1 for natural pictures; alpha is dropped.
 * With #GstBc3Enc:ycocg=false plain BC3 (DXT5) is produced and alpha is kept.
 * Frames whose size is not a multiple of 4 are padded by repeating the last
 * column and row; the caps carry the visible size.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! bc3enc ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a test picture as YCoCg-BC3 and decodes it again for display.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGBA ! bc3enc ycocg=false ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes RGBA video as plain BC3, keeping alpha.
 *
 * Since: 0.1
 */

/**
 * SECTION:element-bc4enc
 * @title: bc4enc
 * @see_also: #bc5enc, #bc1enc, #bcdec, #GstBcEnc
 *
 * Encodes one channel of video into BC4 (RGTC1) block-compressed frames:
 * 8 bytes per 4x4 block, 4 bits per pixel. For machine vision, depth and
 * other single-plane streams. The channel is:
 *
 * - GRAY8: the grey value;
 * - GRAY16_LE: the 16-bit value scaled to 0..255 (value / 257, rounded
 *   to the nearest integer);
 * - packed RGB(A): the luma, (77 R + 150 G + 29 B + 128) >> 8 (BT.601
 *   weights in 8-bit fixed point, full range); alpha is ignored.
 *
 * GRAY8 comes first in the sink template, so a grey source is taken as it
 * is. #bcdec decodes BC4 to grey (R = G = B). Frames whose size is not a
 * multiple of 4 are padded by repeating the last column and row; the caps
 * carry the visible size. The encode runs on #GstBcEnc:threads threads;
 * every output frame is a key frame.
 *
 * #GstBcEnc:quality: fast takes the block's minimum and maximum as
 * endpoints; normal adds a least-squares refit and the 6-value mode (with
 * exact 0 and 255) where it is better; high refits twice and also searches
 * the neighbouring endpoints.
 *
 * `video/x-raw(memory:GLMemory)` input (GRAY8, GRAY16_LE, RGBA, RGBx, BGRA
 * or BGRx textures, e.g. after glupload) is encoded by a GL compute shader
 * on the pipeline's GL context: the same channel (grey, 16-bit grey
 * rounded, or luma) and the same algorithm, one frame kept back while the
 * GPU works (see #GstBcEnc:path).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8 ! bc4enc ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a grey test picture and decodes it again for display.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,format=GRAY16_LE,width=1280,height=720 ! bc4enc quality=high ! fakesink
 * ]| Encodes 16-bit grey (depth-like) frames at the best quality.
 * |[
 * gst-launch-1.0 videotestsrc ! glupload ! bc4enc ! glbcupload ! glimagesink
 * ]| Encodes the luma of GL textures on the GPU and shows it.
 *
 * Since: 0.1
 */

/**
 * SECTION:element-bc5enc
 * @title: bc5enc
 * @see_also: #bc4enc, #bcdec, #GstBcEnc
 *
 * Encodes two channels of video into BC5 (RGTC2) block-compressed frames:
 * 16 bytes per 4x4 block (two BC4 blocks), 8 bits per pixel. The input is
 * packed RGB(A): red goes to the first channel and green to the second;
 * blue and alpha are ignored. Two-component data (normal maps, motion
 * vectors, a pair of planes) is carried in R and G of RGBx/RGBA (or any
 * other accepted order). #bcdec decodes BC5 to (R, G, 0).
 *
 * Frames whose size is not a multiple of 4 are padded by repeating the last
 * column and row; the caps carry the visible size. The encode runs on
 * #GstBcEnc:threads threads; every output frame is a key frame.
 * #GstBcEnc:quality works on each channel as in #bc4enc.
 *
 * `video/x-raw(memory:GLMemory)` input (RGBA, RGBx, BGRA or BGRx textures,
 * e.g. after glupload) is encoded by a GL compute shader on the pipeline's
 * GL context, the same algorithm as on the CPU, one frame kept back while
 * the GPU works (see #GstBcEnc:path).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! bc5enc ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes the red and green of a test picture and shows them decoded.
 * |[
 * gst-launch-1.0 videotestsrc ! glupload ! bc5enc ! glbcupload ! glimagesink
 * ]| The same with GL textures, encoded on the GPU.
 *
 * Since: 0.1
 */

/**
 * SECTION:element-bc7enc
 * @title: bc7enc
 * @see_also: #bc1enc, #bc3enc, #bcdec, #GstBcEnc
 *
 * Encodes RGB(A) video into BC7 (BPTC) block-compressed frames: 16 bytes per
 * 4x4 block, 8 bits per pixel, with alpha. Input without alpha is opaque,
 * and blocks whose alpha is 255 everywhere decode to alpha 255 exactly.
 *
 * #GstBcEnc:quality chooses the BC7 modes the encoder tries:
 *
 * - fast (real time): mode 6 only (one subset, 7-bit endpoints with p-bits,
 *   4-bit indices, RGBA);
 * - normal: modes 1, 3 and 6, the two-subset modes on the two most
 *   promising of their 64 partitions;
 * - high: modes 0, 1, 2, 3 and 6, more partitions, and exhaustive p-bit and
 *   index refinement.
 *
 * Modes 0 to 3 have no alpha: they are only chosen where they are better,
 * in practice on opaque blocks. Frames whose size is not a multiple of 4
 * are padded by repeating the last column and row; the caps carry the
 * visible size. The encode runs on #GstBcEnc:threads threads; every output
 * frame is a key frame.
 *
 * When the plugin is built with the GStreamer GL library, bc7enc also
 * accepts `video/x-raw(memory:GLMemory)` and encodes it with a compute
 * shader on the pipeline's GL context (see #GstBcEnc), a port of the same
 * encoder at every quality: on an IEEE-float implementation such as Mesa's
 * llvmpipe the blocks are the CPU's bit for bit. The shader is large: the
 * driver may take seconds to compile normal and high the first time, and
 * high is slow on a software rasteriser.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! bc7enc quality=fast ! bcdec ! videoconvert ! autovideosink
 * ]| Encodes a test picture in real-time mode and decodes it for display.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=10 ! video/x-raw,width=1920,height=1080 ! bc7enc quality=high ! fakesink
 * ]| Encodes ten full-HD frames at the best quality on every core.
 * |[
 * gst-launch-1.0 videotestsrc ! glupload ! bc7enc quality=fast ! glbcupload ! glimagesink
 * ]| Encodes on the GPU and decodes there again for display.
 *
 * Since: 0.1
 */

/* The bcNenc elements: one subclass of #GstBcEnc each, described by the
 * table below, each with its own GST_ELEMENT_REGISTER_DEFINE_CUSTOM (their
 * type names GstBc1Enc, ... are those of the documentation). A subclass
 * only says what it produces and which raw formats it takes; bc3enc also
 * has #GstBc3Enc:ycocg. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbcenc.h"
#include "gstbcelements.h"

/* The raw formats of bc4enc: grey first, then the RGB formats (luma) */
#define BC4_ENC_RAW_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, " \
    "BGRx, xRGB, xBGR, ARGB, ABGR, RGB, BGR }"

typedef struct
{
  const gchar *element_name;
  const gchar *type_name;
  /* the format produced; bc3enc: YCoCg-BC3, or BC3 when ycocg=false */
  GstBcFormat format;
  const gchar *raw_formats, *gl_formats, *bc_formats;
  const gchar *longname, *description;
} GstBcEncoderInfo;

/* the index of each encoder in encoders[] */
enum
{
  ENCODER_BC1,
  ENCODER_BC3,
  ENCODER_BC4,
  ENCODER_BC5,
  ENCODER_BC7,
};

static const GstBcEncoderInfo encoders[] = {
  [ENCODER_BC1] = {"bc1enc", "GstBc1Enc", GST_BC_FORMAT_BC1, GST_BC_ENC_RAW_FORMATS,
        GST_BC_ENC_GL_FORMATS, "BC1", "BC1 video encoder",
      "Encodes RGB or YUV video into BC1 (DXT1) block-compressed frames on "
        "the CPU, or with a GL compute shader for GLMemory input"},
  [ENCODER_BC3] = {"bc3enc", "GstBc3Enc", GST_BC_FORMAT_YCOCG_BC3, GST_BC_ENC_RAW_FORMATS,
        GST_BC_ENC_GL_FORMATS, "{ YCoCg-BC3, BC3 }", "BC3 video encoder",
      "Encodes RGB(A) video into YCoCg-BC3 or BC3 (DXT5) block-compressed "
        "frames on the CPU, or with a GL compute shader for GLMemory input"},
  [ENCODER_BC4] = {"bc4enc", "GstBc4Enc", GST_BC_FORMAT_BC4, BC4_ENC_RAW_FORMATS,
        GST_BC_ENC_GL_GRAY_FORMATS, "BC4", "BC4 video encoder",
      "Encodes one channel (grey, 16-bit grey scaled to 8 bits, or the "
        "luma of RGB) into BC4 (RGTC1) block-compressed frames on the CPU, "
        "or with a GL compute shader for GLMemory input"},
  [ENCODER_BC5] = {"bc5enc", "GstBc5Enc", GST_BC_FORMAT_BC5, GST_BC_ENC_RAW_FORMATS,
        GST_BC_ENC_GL_FORMATS, "BC5", "BC5 video encoder",
      "Encodes two channels (red and green of RGB) into BC5 (RGTC2) "
        "block-compressed frames on the CPU, or with a GL compute shader for "
        "GLMemory input"},
  [ENCODER_BC7] = {"bc7enc", "GstBc7Enc", GST_BC_FORMAT_BC7, GST_BC_ENC_RAW_FORMATS,
        GST_BC_ENC_GL_FORMATS, "BC7", "BC7 video encoder",
      "Encodes RGB(A) video into BC7 (BPTC) block-compressed frames on the "
        "CPU, or with a GL compute shader for GLMemory input; quality=fast is "
        "a real-time subset (mode 6)"},
};

/* bc3enc's instance: the ycocg property, under the object lock */
typedef struct
{
  GstBcEnc parent;

  gboolean ycocg;
} GstBc3Enc;

typedef GstBcEncClass GstBc3EncClass;

#define DEFAULT_YCOCG TRUE

enum
{
  PROP_0,
  PROP_YCOCG,
};

static GQuark encoder_info_quark;

static const GstBcEncoderInfo *
get_info (GType type)
{
  return g_type_get_qdata (type, encoder_info_quark);
}

static GstBcFormat
gst_bc_encoder_get_format (GstBcEnc * enc)
{
  GstBcFormat format = get_info (G_OBJECT_TYPE (enc))->format;

  if (format == GST_BC_FORMAT_YCOCG_BC3) {
    GST_OBJECT_LOCK (enc);
    if (!((GstBc3Enc *) enc)->ycocg)
      format = GST_BC_FORMAT_BC3;
    GST_OBJECT_UNLOCK (enc);
  }
  return format;
}

static void
gst_bc3_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstBc3Enc *self = (GstBc3Enc *) object;

  switch (prop_id) {
    case PROP_YCOCG:
      GST_OBJECT_LOCK (self);
      self->ycocg = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc3_enc_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstBc3Enc *self = (GstBc3Enc *) object;

  switch (prop_id) {
    case PROP_YCOCG:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->ycocg);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_bc3_enc_install_properties (GObjectClass * gobject_class)
{
  gobject_class->set_property = gst_bc3_enc_set_property;
  gobject_class->get_property = gst_bc3_enc_get_property;

  /**
   * GstBc3Enc:ycocg:
   *
   * Whether to store the colour as YCoCg (`format=YCoCg-BC3`, better
   * quality, no alpha) or as plain RGBA BC3 (`format=BC3`).
   */
  g_object_class_install_property (gobject_class, PROP_YCOCG,
      g_param_spec_boolean ("ycocg", "YCoCg",
          "Store colour as YCoCg (format=YCoCg-BC3: better quality, no "
          "alpha) instead of RGBA (format=BC3, keeps alpha) (default: true)",
          DEFAULT_YCOCG, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

static void
gst_bc_encoder_class_init (GstBcEncClass * klass, gpointer data)
{
  const GstBcEncoderInfo *info = data;
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_bc_enc_class_add_pad_templates (element_class, info->raw_formats,
      info->gl_formats, info->bc_formats);
  gst_element_class_set_static_metadata (element_class, info->longname,
      "Codec/Encoder/Video", info->description, "The gst-bc developers");
  klass->get_format = GST_DEBUG_FUNCPTR (gst_bc_encoder_get_format);
  if (info->format == GST_BC_FORMAT_YCOCG_BC3)
    gst_bc3_enc_install_properties (G_OBJECT_CLASS (klass));
}

static void
gst_bc_encoder_init (GTypeInstance * instance, gpointer klass)
{
  if (get_info (G_TYPE_FROM_CLASS (klass))->format == GST_BC_FORMAT_YCOCG_BC3)
    ((GstBc3Enc *) instance)->ycocg = DEFAULT_YCOCG;
}

/* The type of @info, registered on first use */
static GType
gst_bc_encoder_get_type (const GstBcEncoderInfo * info)
{
  GType type = g_type_from_name (info->type_name);
  GTypeInfo type_info = {
    sizeof (GstBcEncClass), NULL, NULL,
    (GClassInitFunc) gst_bc_encoder_class_init, NULL, info,
    info->format == GST_BC_FORMAT_YCOCG_BC3 ? sizeof (GstBc3Enc) :
        sizeof (GstBcEnc), 0, gst_bc_encoder_init, NULL
  };

  if (type)
    return type;
  encoder_info_quark = g_quark_from_static_string ("gst-bc-encoder-info");
  type = g_type_register_static (GST_TYPE_BC_ENC, info->type_name,
      &type_info, 0);
  g_type_set_qdata (type, encoder_info_quark, (gpointer) info);
  return type;
}

/* Registers the element of @info (and its type, on first use) */
static gboolean
gst_bc_encoder_register (GstPlugin * plugin, const GstBcEncoderInfo * info)
{
  bc_element_init (plugin);
  return gst_element_register (plugin, info->element_name, GST_RANK_PRIMARY,
      gst_bc_encoder_get_type (info));
}

/* GST_ELEMENT_REGISTER (bcNenc, plugin) registers one encoder of the table
 * (gst-full builds pick elements one by one) */
#define GST_BC_ENCODER_REGISTER_DEFINE(name, index)                   \
  static gboolean                                                     \
  G_PASTE (gst_bc_encoder_register_, name) (GstPlugin * plugin)       \
  {                                                                   \
    return gst_bc_encoder_register (plugin, &encoders[index]);        \
  }                                                                   \
  GST_ELEMENT_REGISTER_DEFINE_CUSTOM (name,                           \
      G_PASTE (gst_bc_encoder_register_, name))

GST_BC_ENCODER_REGISTER_DEFINE (bc1enc, ENCODER_BC1);
GST_BC_ENCODER_REGISTER_DEFINE (bc3enc, ENCODER_BC3);
GST_BC_ENCODER_REGISTER_DEFINE (bc4enc, ENCODER_BC4);
GST_BC_ENCODER_REGISTER_DEFINE (bc5enc, ENCODER_BC5);
GST_BC_ENCODER_REGISTER_DEFINE (bc7enc, ENCODER_BC7);
