/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbc4enc.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc4_enc_debug);
#define GST_CAT_DEFAULT gst_bc4_enc_debug

/**
 * GST_BC4_ENC_RAW_FORMATS:
 *
 * The raw formats of bc4enc: grey first, then the RGB formats (luma).
 */
#define GST_BC4_ENC_RAW_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, " \
    "BGRx, xRGB, xBGR, ARGB, ABGR, RGB, BGR }"

struct _GstBc4Enc
{
  GstBcEnc parent;
};

#define gst_bc4_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc4Enc, gst_bc4_enc, GST_TYPE_BC_ENC,
    GST_DEBUG_CATEGORY_INIT (gst_bc4_enc_debug, "bc4enc", 0,
        "BC4 video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc4enc, "bc4enc", GST_RANK_PRIMARY,
    GST_TYPE_BC4_ENC, bc_element_init (plugin));

static GstBcFormat
gst_bc4_enc_get_format (GstBcEnc * enc)
{
  GST_DEBUG_OBJECT (enc, "output format BC4");
  return GST_BC_FORMAT_BC4;
}

static void
gst_bc4_enc_class_init (GstBc4EncClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBcEncClass *bc_enc_class = GST_BC_ENC_CLASS (klass);

  gst_bc_enc_class_add_gl_pad_templates_full (element_class,
      GST_BC4_ENC_RAW_FORMATS, GST_BC_ENC_GL_GRAY_FORMATS, "BC4");
  gst_element_class_set_static_metadata (element_class,
      "BC4 video encoder", "Codec/Encoder/Video",
      "Encodes one channel (grey, 16-bit grey scaled to 8 bits, or the luma "
      "of RGB) into BC4 (RGTC1) block-compressed frames on the CPU, or with a GL compute "
      "shader for GLMemory input", "gst-bc developers");

  bc_enc_class->get_format = GST_DEBUG_FUNCPTR (gst_bc4_enc_get_format);
}

static void
gst_bc4_enc_init (GstBc4Enc * self)
{
}
