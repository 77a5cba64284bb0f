/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-bc1enc
 * @title: bc1enc
 * @see_also: #bc3enc, #bcdec, #GstBcEnc
 *
 * Encodes raw RGB video into BC1 (DXT1) block-compressed frames: 8 bytes per
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
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbc1enc.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc1_enc_debug);
#define GST_CAT_DEFAULT gst_bc1_enc_debug

struct _GstBc1Enc
{
  GstBcEnc parent;
};

#define gst_bc1_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc1Enc, gst_bc1_enc, GST_TYPE_BC_ENC,
    GST_DEBUG_CATEGORY_INIT (gst_bc1_enc_debug, "bc1enc", 0,
        "BC1 video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc1enc, "bc1enc", GST_RANK_PRIMARY,
    GST_TYPE_BC1_ENC, bc_element_init (plugin));

static GstBcFormat
gst_bc1_enc_get_format (GstBcEnc * enc)
{
  GST_DEBUG_OBJECT (enc, "output format BC1");
  return GST_BC_FORMAT_BC1;
}

static void
gst_bc1_enc_class_init (GstBc1EncClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBcEncClass *bc_enc_class = GST_BC_ENC_CLASS (klass);

  gst_bc_enc_class_add_gl_pad_templates (element_class, "BC1");
  gst_element_class_set_static_metadata (element_class,
      "BC1 video encoder", "Codec/Encoder/Video",
      "Encodes RGB video into BC1 (DXT1) block-compressed frames on the CPU, or with a GL compute shader for GLMemory input",
      "gst-bc developers");

  bc_enc_class->get_format = GST_DEBUG_FUNCPTR (gst_bc1_enc_get_format);
}

static void
gst_bc1_enc_init (GstBc1Enc * self)
{
}
