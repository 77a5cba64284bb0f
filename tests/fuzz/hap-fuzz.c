/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libFuzzer target for the Hap frame reader (gst/bc/bchap.h): what a .mov
 * file can put in front of hapdec. The first two bytes pick the stream the
 * frame is decoded for (texture format and size: byte 0 modulo 7 the
 * format, byte 1 the size, 1x1 to 64x32); the rest is the frame, in a
 * buffer of exactly its size, decoded into a texture of exactly the
 * stream's size, so that the sanitizers see any access outside either.
 * A frame that decodes must have made the whole texture. Then the same
 * bytes, read as a texture, are written as a Hap frame (the compressor and
 * chunk count from byte 1) and must read back unchanged. Built and run by
 * run.sh (-t hap). */

#include <gst/gst.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bchap.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

static const GstBcFormat formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_BC3, GST_BC_FORMAT_YCOCG_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC7, GST_BC_FORMAT_BC6H,
  GST_BC_FORMAT_BC6H_SF,
};

static void
round_trip (const GstBcInfo * info, const guint8 * tex, guint8 pick)
{
  GstBcHapCompressor compressor = (pick & 1) ? GST_BC_HAP_COMPRESSOR_SNAPPY :
      GST_BC_HAP_COMPRESSOR_NONE;
  guint chunks = 1 + (pick >> 1) % 9;
  gsize max = gst_bc_hap_frame_max_size (info, chunks), offset = 0, len;
  guint8 *out = malloc (max), *frame, *back = malloc (info->size);
  GstBcHapFrame f;

  len = gst_bc_hap_frame_compose (info, tex, compressor, chunks, NULL, out, max,
      &offset);
  if (len == 0 || offset + len > max)
    abort ();
  frame = malloc (len);
  memcpy (frame, out + offset, len);
  if (!gst_bc_hap_frame_parse (&f, frame, len, NULL) ||
      f.format != info->format ||
      !gst_bc_hap_frame_decode (&f, back, info->size, NULL, NULL) ||
      memcmp (back, tex, info->size) != 0)
    abort ();
  free (frame);
  free (back);
  free (out);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GstBcInfo info;
  GstBcHapFrame f;
  guint8 *frame, *tex;
  gsize offset = 0;
  guint w, h;

  if (size < 2)
    return 0;
  w = 1 + (data[1] & 63);
  h = 1 + ((data[1] >> 6) * 10 + (data[0] >> 3)) % 32;
  gst_bc_info_init (&info);
  if (!gst_bc_info_set_format (&info,
          formats[data[0] % G_N_ELEMENTS (formats)], w, h))
    abort ();

  frame = malloc (size - 2 ? size - 2 : 1);
  memcpy (frame, data + 2, size - 2);
  tex = malloc (info.size);
  if (gst_bc_hap_frame_parse (&f, frame, size - 2, NULL)) {
    if (f.n_chunks == 0)
      abort ();
    if (gst_bc_hap_frame_get_stored (&f, info.size, &offset) &&
        offset + info.size > size - 2)
      abort ();
    memset (tex, 0xa5, info.size);
    gst_bc_hap_frame_decode (&f, tex, info.size, NULL, NULL);
  }
  free (tex);
  free (frame);

  if (size - 2 >= info.size)
    round_trip (&info, data + 2, data[1]);
  return 0;
}
