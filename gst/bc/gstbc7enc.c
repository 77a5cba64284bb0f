/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbc7enc.h"
#include "gstbcelements.h"

GST_DEBUG_CATEGORY_STATIC (gst_bc7_enc_debug);
#define GST_CAT_DEFAULT gst_bc7_enc_debug

struct _GstBc7Enc
{
  GstBcEnc parent;
};

#define gst_bc7_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstBc7Enc, gst_bc7_enc, GST_TYPE_BC_ENC,
    GST_DEBUG_CATEGORY_INIT (gst_bc7_enc_debug, "bc7enc", 0,
        "BC7 video encoder"));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (bc7enc, "bc7enc", GST_RANK_PRIMARY,
    GST_TYPE_BC7_ENC, bc_element_init (plugin));

static GstBcFormat
gst_bc7_enc_get_format (GstBcEnc * enc)
{
  GST_DEBUG_OBJECT (enc, "output format BC7");
  return GST_BC_FORMAT_BC7;
}

static void
gst_bc7_enc_class_init (GstBc7EncClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBcEncClass *bc_enc_class = GST_BC_ENC_CLASS (klass);

  gst_bc_enc_class_add_gl_pad_templates (element_class, "BC7");
  gst_element_class_set_static_metadata (element_class,
      "BC7 video encoder", "Codec/Encoder/Video",
      "Encodes RGB(A) video into BC7 (BPTC) block-compressed frames on the "
      "CPU, or with a GL compute shader for GLMemory input; quality=fast is a "
      "real-time subset (mode 6)", "gst-bc developers");

  bc_enc_class->get_format = GST_DEBUG_FUNCPTR (gst_bc7_enc_get_format);
}

static void
gst_bc7_enc_init (GstBc7Enc * self)
{
}
