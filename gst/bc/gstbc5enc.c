/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbc5enc.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc5_enc_debug);
#define GST_CAT_DEFAULT gst_bc5_enc_debug

struct _GstBc5Enc
{
  GstBcEnc parent;
};

#define gst_bc5_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc5Enc, gst_bc5_enc, GST_TYPE_BC_ENC,
    GST_DEBUG_CATEGORY_INIT (gst_bc5_enc_debug, "bc5enc", 0,
        "BC5 video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc5enc, "bc5enc", GST_RANK_PRIMARY,
    GST_TYPE_BC5_ENC, bc_element_init (plugin));

static GstBcFormat
gst_bc5_enc_get_format (GstBcEnc * enc)
{
  GST_DEBUG_OBJECT (enc, "output format BC5");
  return GST_BC_FORMAT_BC5;
}

static void
gst_bc5_enc_class_init (GstBc5EncClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBcEncClass *bc_enc_class = GST_BC_ENC_CLASS (klass);

  gst_bc_enc_class_add_gl_pad_templates (element_class, "BC5");
  gst_element_class_set_static_metadata (element_class,
      "BC5 video encoder", "Codec/Encoder/Video",
      "Encodes two channels (red and green of RGB) into BC5 (RGTC2) "
      "block-compressed frames on the CPU, or with a GL compute shader for "
      "GLMemory input", "gst-bc developers");

  bc_enc_class->get_format = GST_DEBUG_FUNCPTR (gst_bc5_enc_get_format);
}

static void
gst_bc5_enc_init (GstBc5Enc * self)
{
}
