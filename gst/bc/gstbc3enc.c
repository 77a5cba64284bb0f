/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbc3enc.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc3_enc_debug);
#define GST_CAT_DEFAULT gst_bc3_enc_debug

#define DEFAULT_YCOCG TRUE

enum
{
  PROP_0,
  PROP_YCOCG,
};

struct _GstBc3Enc
{
  GstBcEnc parent;

  /* under the object lock */
  gboolean ycocg;
};

#define gst_bc3_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc3Enc, gst_bc3_enc, GST_TYPE_BC_ENC,
    GST_DEBUG_CATEGORY_INIT (gst_bc3_enc_debug, "bc3enc", 0,
        "BC3 / YCoCg-BC3 video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc3enc, "bc3enc", GST_RANK_PRIMARY,
    GST_TYPE_BC3_ENC, bc_element_init (plugin));

static void gst_bc3_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_bc3_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstBcFormat gst_bc3_enc_get_format (GstBcEnc * enc);

static void
gst_bc3_enc_class_init (GstBc3EncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBcEncClass *bc_enc_class = GST_BC_ENC_CLASS (klass);

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

  gst_bc_enc_class_add_gl_pad_templates (element_class, "{ YCoCg-BC3, BC3 }");
  gst_element_class_set_static_metadata (element_class,
      "BC3 video encoder", "Codec/Encoder/Video",
      "Encodes RGB(A) video into YCoCg-BC3 or BC3 (DXT5) block-compressed "
      "frames on the CPU, or with a GL compute shader for GLMemory input",
      "gst-bc developers");

  bc_enc_class->get_format = GST_DEBUG_FUNCPTR (gst_bc3_enc_get_format);
}

static void
gst_bc3_enc_init (GstBc3Enc * self)
{
  self->ycocg = DEFAULT_YCOCG;
}

static void
gst_bc3_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstBc3Enc *self = GST_BC3_ENC (object);

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
  GstBc3Enc *self = GST_BC3_ENC (object);

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

static GstBcFormat
gst_bc3_enc_get_format (GstBcEnc * enc)
{
  GstBc3Enc *self = GST_BC3_ENC (enc);
  gboolean ycocg;

  GST_OBJECT_LOCK (self);
  ycocg = self->ycocg;
  GST_OBJECT_UNLOCK (self);

  GST_DEBUG_OBJECT (self, "output format %s", ycocg ? "YCoCg-BC3" : "BC3");
  return ycocg ? GST_BC_FORMAT_YCOCG_BC3 : GST_BC_FORMAT_BC3;
}
