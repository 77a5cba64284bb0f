/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Hap frames (gst/bc/bchap.h): compose and decode round trips for every
 * format (Hap HDR's BC6H and BC6H-SF too), compressor and chunk count;
 * frames written by hand byte by byte (short and long headers, a
 * multiple-image section, chunk offset tables, Hap HDR's one block);
 * and damaged frames: every truncation and every value of every header
 * byte of a chunked frame is refused or decoded without a byte written
 * outside the texture (the tests run under AddressSanitizer in CI). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>
#include <gst/bc/bchap.h>

#include "gstbctest.h"

static const GstBcFormat hap_formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_BC3, GST_BC_FORMAT_YCOCG_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC7, GST_BC_FORMAT_BC6H,
  GST_BC_FORMAT_BC6H_SF,
};

/* a texture of @format: the library's encoding of a test picture, or for
 * BC6H made up blocks */
static guint8 *
test_texture (GstBcFormat format, guint width, guint height, guint32 seed,
    GstBcInfo * info)
{
  if (gst_bc_format_is_float (format))
    return test_bc6h_blocks (format, width, height, seed, info);
  return test_encode_picture (format, width, height, seed, info);
}

/* the frame of @tex composed with @compressor in @chunks, in a new buffer
 * of its own size (so reading past it is caught) */
static guint8 *
compose (const GstBcInfo * info, const guint8 * tex,
    GstBcHapCompressor compressor, guint chunks, gsize * len)
{
  gsize max = gst_bc_hap_frame_max_size (info, chunks), offset = 0;
  guint8 *out = g_malloc (max);
  guint8 *frame;

  *len =
      gst_bc_hap_frame_compose (info, tex, compressor, chunks, NULL, out, max,
      &offset);
  fail_unless (*len > 0);
  fail_unless (offset + *len <= max);
  frame = g_memdup2 (out + offset, *len);
  g_free (out);
  return frame;
}

/* parses and decodes @frame into a texture of exactly @info's size;
 * returns whether it worked, the error in @error */
static gboolean
decode (const GstBcInfo * info, const guint8 * frame, gsize len,
    guint8 ** texture, GError ** error)
{
  GstBcHapFrame f;
  gboolean ok;

  *texture = g_malloc (info->size);
  ok = gst_bc_hap_frame_parse (&f, frame, len, error) &&
      gst_bc_hap_frame_decode (&f, *texture, info->size, NULL, error);
  return ok;
}

GST_START_TEST (test_fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_formats); i++) {
    guint32 fourcc = gst_bc_hap_fourcc_from_format (hap_formats[i]);

    fail_unless (fourcc != 0);
    /* (HapH is both BC6H formats: read as BC6H) */
    fail_unless_equals_int (gst_bc_hap_format_from_fourcc (fourcc),
        hap_formats[i] == GST_BC_FORMAT_BC6H_SF ? GST_BC_FORMAT_BC6H :
        hap_formats[i]);
  }
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC1),
      GST_MAKE_FOURCC ('H', 'a', 'p', '1'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format
      (GST_BC_FORMAT_YCOCG_BC3), GST_MAKE_FOURCC ('H', 'a', 'p', 'Y'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC3),
      GST_MAKE_FOURCC ('H', 'a', 'p', '5'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC4),
      GST_MAKE_FOURCC ('H', 'a', 'p', 'A'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC7),
      GST_MAKE_FOURCC ('H', 'a', 'p', '7'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC6H),
      GST_MAKE_FOURCC ('H', 'a', 'p', 'H'));
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format
      (GST_BC_FORMAT_BC6H_SF), GST_BC_HAP_FOURCC_HAPH);
  fail_unless_equals_int (gst_bc_hap_format_from_fourcc
      (GST_BC_HAP_FOURCC_HAPH), GST_BC_FORMAT_BC6H);
  fail_unless_equals_int (gst_bc_hap_fourcc_from_format (GST_BC_FORMAT_BC5), 0);
  fail_unless_equals_int (gst_bc_hap_format_from_fourcc
      (GST_BC_HAP_FOURCC_HAPM), GST_BC_FORMAT_UNKNOWN);
  fail_unless_equals_int (gst_bc_hap_format_from_fourcc (0),
      GST_BC_FORMAT_UNKNOWN);
}

GST_END_TEST;

GST_START_TEST (test_round_trip)
{
  static const guint sizes[][2] = { {1, 1}, {30, 26}, {200, 132} };
  static const guint chunks[] = { 1, 2, 4, 7, 64, 1000 };
  static const GstBcHapCompressor compressors[] = {
    GST_BC_HAP_COMPRESSOR_NONE, GST_BC_HAP_COMPRESSOR_SNAPPY
  };
  guint f, s, c, k;

  for (f = 0; f < G_N_ELEMENTS (hap_formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstBcInfo info;
      guint8 *tex = test_texture (hap_formats[f], sizes[s][0], sizes[s][1],
          f * 7 + s, &info);

      for (c = 0; c < G_N_ELEMENTS (compressors); c++) {
        for (k = 0; k < G_N_ELEMENTS (chunks); k++) {
          guint expect_chunks = MIN (MIN (chunks[k], 64), info.blocks_y);
          GstBcHapFrame frame;
          GError *err = NULL;
          guint8 *out, *hap;
          gsize len, offset = 0;
          gboolean stored;

          hap = compose (&info, tex, compressors[c], chunks[k], &len);
          fail_unless (gst_bc_hap_frame_parse (&frame, hap, len, &err),
              "%s", err ? err->message : "");
          fail_unless_equals_int (frame.format, hap_formats[f]);
          fail_unless_equals_int (frame.n_chunks, expect_chunks);
          /* the section type: stored (0xA_), Snappy (0xB_), chunked (0xC_) */
          if (expect_chunks > 1) {
            fail_unless_equals_int (frame.type >> 4, 0xC);
          } else {
            fail_unless ((frame.type >> 4) == 0xA || (frame.type >> 4) == 0xB);
          }

          fail_unless (decode (&info, hap, len, &out, &err), "%s %ux%u "
              "compressor %d chunks %u: %s",
              gst_bc_format_to_string (hap_formats[f]), sizes[s][0],
              sizes[s][1], compressors[c], chunks[k], err ? err->message : "");
          fail_unless (memcmp (out, tex, info.size) == 0);

          /* stored as it is: the texture is used in place */
          stored = gst_bc_hap_frame_get_stored (&frame, info.size, &offset);
          if (compressors[c] == GST_BC_HAP_COMPRESSOR_NONE) {
            fail_unless (stored);
            fail_unless (offset + info.size <= len);
            fail_unless (memcmp (hap + offset, tex, info.size) == 0);
          } else {
            /* a chunk Snappy does not make smaller is stored as it is: a
             * frame is never much larger than its texture */
            fail_unless (len <= info.size + 4 + 4 + (4 + 64) + (4 + 4 * 64));
          }
          /* on three threads: the same frame, the same texture */
          {
            GstBcWorkers *workers = gst_bc_workers_new (3);
            gsize max = gst_bc_hap_frame_max_size (&info, chunks[k]);
            guint8 *par = g_malloc (max), *back = g_malloc (info.size);
            gsize plen, poff = 0;

            plen = gst_bc_hap_frame_compose (&info, tex, compressors[c],
                chunks[k], workers, par, max, &poff);
            fail_unless_equals_int (plen, len);
            fail_unless (memcmp (par + poff, hap, len) == 0);
            fail_unless (gst_bc_hap_frame_decode (&frame, back, info.size,
                    workers, NULL));
            fail_unless (memcmp (back, tex, info.size) == 0);
            g_free (back);
            g_free (par);
            gst_bc_workers_free (workers);
          }
          /* a texture of another size is refused */
          fail_if (gst_bc_hap_frame_decode (&frame, out, info.size - 1, NULL,
                  NULL));
          g_free (out);
          g_free (hap);
        }
      }
      g_free (tex);
    }
  }
}

GST_END_TEST;

/* Hap HDR: the section types of Vidvox's hap.c, 0x_2 BC6H (unsigned),
 * 0x_3 BC6H-SF, stored (0xA_), Snappy (0xB_) and chunked (0xC_) */
GST_START_TEST (test_hdr)
{
  static const struct
  {
    GstBcFormat format;
    guint8 texture;
  } formats[] = {
    {GST_BC_FORMAT_BC6H, 0x2}, {GST_BC_FORMAT_BC6H_SF, 0x3},
  };
  static const struct
  {
    GstBcHapCompressor compressor;
    guint chunks;
    guint8 store;
  } frames[] = {
    {GST_BC_HAP_COMPRESSOR_NONE, 1, 0xA}, {GST_BC_HAP_COMPRESSOR_SNAPPY, 1,
        0xB}, {GST_BC_HAP_COMPRESSOR_SNAPPY, 5, 0xC},
    {GST_BC_HAP_COMPRESSOR_NONE, 3, 0xC},
  };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBcInfo info;
    guint8 *tex =
        test_bc6h_blocks (formats[f].format, 130, 66, 40 + f, &info);
    guint8 hdr[8];

    for (i = 0; i < G_N_ELEMENTS (frames); i++) {
      GstBcHapFrame frame;
      GError *err = NULL;
      guint8 *hap, *out;
      gsize len;

      hap = compose (&info, tex, frames[i].compressor, frames[i].chunks, &len);
      fail_unless (gst_bc_hap_frame_parse (&frame, hap, len, &err), "%s",
          err ? err->message : "");
      fail_unless_equals_int (frame.format, formats[f].format);
      fail_unless_equals_int (frame.type,
          frames[i].store << 4 | formats[f].texture);
      fail_unless_equals_int (frame.n_chunks, frames[i].chunks);
      if (frames[i].store == 0xB)
        fail_unless (len < info.size / 2, "%" G_GSIZE_FORMAT " bytes", len);
      fail_unless (decode (&info, hap, len, &out, &err), "%s",
          err ? err->message : "");
      fail_unless (memcmp (out, tex, info.size) == 0);
      g_free (out);
      g_free (hap);
    }

    /* stored: 33 x 17 blocks of 16 bytes = 0x2310 */
    fail_unless_equals_int (gst_bc_hap_frame_stored_header (formats[f].format,
            info.size, hdr), 4);
    fail_unless_equals_int (hdr[0], 0x10);
    fail_unless_equals_int (hdr[1], 0x23);
    fail_unless_equals_int (hdr[2], 0);
    fail_unless_equals_int (hdr[3], 0xA0 | formats[f].texture);
    g_free (tex);
  }
}

GST_END_TEST;

/* hand-written Hap HDR frames of one 4x4 block (16 bytes): the right size
 * decodes, a frame claiming 0xA2 with another size is refused */
GST_START_TEST (test_hdr_hand_written)
{
  static const guint8 types[] = { 0xa2, 0xa3 };
  guint8 f[64], blk[16], *out;
  GstBcHapFrame frame;
  GstBcInfo info;
  GError *err = NULL;
  guint t, i;

  for (i = 0; i < 16; i++)
    blk[i] = 0x30 + 7 * i;
  for (t = 0; t < G_N_ELEMENTS (types); t++) {
    GstBcFormat format = types[t] == 0xa2 ? GST_BC_FORMAT_BC6H :
        GST_BC_FORMAT_BC6H_SF;

    gst_bc_info_init (&info);
    fail_unless (gst_bc_info_set_format (&info, format, 4, 4));
    fail_unless_equals_int (info.size, 16);

    f[0] = 16;
    f[1] = f[2] = 0;
    f[3] = types[t];
    memcpy (f + 4, blk, 16);
    fail_unless (gst_bc_hap_frame_parse (&frame, f, 20, &err), "%s",
        err ? err->message : "");
    fail_unless_equals_int (frame.format, format);
    fail_unless (decode (&info, f, 20, &out, &err), "%s",
        err ? err->message : "");
    fail_unless (memcmp (out, blk, 16) == 0);
    g_free (out);

    /* 8 and 24 bytes of texture: not the stream's 16 */
    for (i = 0; i < 2; i++) {
      f[0] = i ? 24 : 8;
      memcpy (f + 4, blk, 16);
      memcpy (f + 20, blk, 8);
      fail_if (decode (&info, f, 4 + f[0], &out, &err), "%u bytes", f[0]);
      fail_unless (err != NULL && err->domain == GST_STREAM_ERROR &&
          err->code == GST_STREAM_ERROR_DECODE);
      GST_INFO ("0x%02x, %u bytes: %s", types[t], f[0], err->message);
      g_clear_error (&err);
      g_free (out);
    }
    /* and a frame whose header claims more than it has */
    f[0] = 16;
    fail_if (decode (&info, f, 19, &out, &err));
    fail_unless (err != NULL && err->code == GST_STREAM_ERROR_DECODE);
    g_clear_error (&err);
    g_free (out);
  }
}

GST_END_TEST;

/* a picture Snappy makes much smaller: a flat one */
GST_START_TEST (test_snappy_smaller)
{
  guint8 *rgba = g_malloc (256 * 128 * 4), *tex, *hap, *out;
  GstBcPixelLayout layout;
  GstBcHapFrame frame;
  GstBcInfo info;
  gsize len, offset;
  guint chunks;

  memset (rgba, 0x80, 256 * 128 * 4);
  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGBA));
  tex = test_encode (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, rgba, &layout,
      256, 128, &info);
  for (chunks = 1; chunks <= 8; chunks *= 2) {
    hap = compose (&info, tex, GST_BC_HAP_COMPRESSOR_SNAPPY, chunks, &len);
    fail_unless (len < info.size / 4, "%" G_GSIZE_FORMAT " bytes", len);
    fail_unless (gst_bc_hap_frame_parse (&frame, hap, len, NULL));
    fail_if (gst_bc_hap_frame_get_stored (&frame, info.size, &offset));
    fail_unless (decode (&info, hap, len, &out, NULL));
    fail_unless (memcmp (out, tex, info.size) == 0);
    g_free (out);
    g_free (hap);
  }
  g_free (tex);
  g_free (rgba);
}

GST_END_TEST;

GST_START_TEST (test_stored_header)
{
  guint8 hdr[8];
  GstBcInfo info;
  guint8 *tex =
      test_encode_picture (GST_BC_FORMAT_BC1, 16, 8, 1, &info), *frame;
  GstBcHapFrame f;
  gsize offset = 0;

  /* 8 blocks of 8 bytes: 64 = 0x40, type 0xAB (BC1, stored) */
  fail_unless_equals_int (gst_bc_hap_frame_stored_header (GST_BC_FORMAT_BC1,
          info.size, hdr), 4);
  fail_unless (memcmp (hdr, "\x40\x00\x00\xab", 4) == 0);
  frame = g_malloc (4 + info.size);
  memcpy (frame, hdr, 4);
  memcpy (frame + 4, tex, info.size);
  fail_unless (gst_bc_hap_frame_parse (&f, frame, 4 + info.size, NULL));
  fail_unless (gst_bc_hap_frame_get_stored (&f, info.size, &offset));
  fail_unless_equals_int (offset, 4);
  g_free (frame);

  /* 2^24 bytes do not fit in three: the eight-byte header */
  fail_unless_equals_int (gst_bc_hap_frame_stored_header (GST_BC_FORMAT_BC7,
          1 << 24, hdr), 8);
  fail_unless (memcmp (hdr, "\x00\x00\x00\xac\x00\x00\x00\x01", 8) == 0);
  fail_unless_equals_int (gst_bc_hap_frame_stored_header
      (GST_BC_FORMAT_YCOCG_BC3, 0xffffff, hdr), 4);
  fail_unless (memcmp (hdr, "\xff\xff\xff\xaf", 4) == 0);
  fail_unless_equals_int (gst_bc_hap_frame_stored_header (GST_BC_FORMAT_BC5,
          64, hdr), 0);
  g_free (tex);
}

GST_END_TEST;

/* frames written by hand: one BC4 block (8 bytes) in the ways the Hap
 * specification allows */
static const guint8 block[8] = { 10, 200, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc };

static void
check_hand_frame (const guint8 * frame, gsize len, gboolean stored,
    gsize stored_offset)
{
  GstBcInfo info;
  GstBcHapFrame f;
  GError *err = NULL;
  guint8 *out;
  gsize offset = 0;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC4, 4, 4));
  fail_unless (gst_bc_hap_frame_parse (&f, frame, len, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (f.format, GST_BC_FORMAT_BC4);
  fail_unless (decode (&info, frame, len, &out, &err), "%s",
      err ? err->message : "");
  fail_unless (memcmp (out, block, 8) == 0);
  g_free (out);
  fail_unless_equals_int (gst_bc_hap_frame_get_stored (&f, 8, &offset), stored);
  if (stored)
    fail_unless_equals_int (offset, stored_offset);
}

GST_START_TEST (test_hand_written)
{
  guint8 f[64];
  gsize n;

  /* short header, stored */
  memcpy (f, "\x08\x00\x00\xa1", 4);
  memcpy (f + 4, block, 8);
  check_hand_frame (f, 12, TRUE, 4);

  /* long header (three zero bytes, then a 32-bit size) */
  memcpy (f, "\x00\x00\x00\xa1\x08\x00\x00\x00", 8);
  memcpy (f + 8, block, 8);
  check_hand_frame (f, 16, TRUE, 8);
  /* trailing bytes after the frame's section are ignored */
  check_hand_frame (f, 20, TRUE, 8);

  /* one image in a multiple-image section, after an unknown section */
  memcpy (f, "\x14\x00\x00\x0d" "\x04\x00\x00\x77" "abcd"
      "\x08\x00\x00\xa1", 16);
  memcpy (f + 16, block, 8);
  check_hand_frame (f, 24, TRUE, 16);

  /* two chunks, stored, with an offset table putting the second chunk's
   * bytes first: not in place */
  n = 0;
  memcpy (f + n, "\x00\x00\x00\xc1", 4);
  n += 4;
  GST_WRITE_UINT32_LE (f + n, 4 + 6 + 12 + 12 + 8);
  n += 4;
  memcpy (f + n, "\x1e\x00\x00\x01", 4);        /* decode instructions: 30 */
  n += 4;
  memcpy (f + n, "\x02\x00\x00\x02\x0a\x0a", 6);        /* compressors */
  n += 6;
  memcpy (f + n, "\x08\x00\x00\x03\x05\x00\x00\x00\x03\x00\x00\x00", 12);
  n += 12;
  memcpy (f + n, "\x08\x00\x00\x04\x03\x00\x00\x00\x00\x00\x00\x00", 12);
  n += 12;
  memcpy (f + n, block + 5, 3);
  memcpy (f + n + 3, block, 5);
  n += 8;
  check_hand_frame (f, n, FALSE, 0);

  /* the same without the offset table: chunks in order, in place */
  n = 0;
  memcpy (f + n, "\x1e\x00\x00\xc1", 4);
  n += 4;
  memcpy (f + n, "\x12\x00\x00\x01", 4);
  n += 4;
  memcpy (f + n, "\x02\x00\x00\x02\x0a\x0a", 6);
  n += 6;
  memcpy (f + n, "\x08\x00\x00\x03\x05\x00\x00\x00\x03\x00\x00\x00", 12);
  n += 12;
  memcpy (f + n, block, 8);
  n += 8;
  check_hand_frame (f, n, TRUE, 26);
}

GST_END_TEST;

/* @frame is refused with @code */
static void
check_refused (const guint8 * frame, gsize len, gint code, const gchar * what)
{
  GstBcInfo info;
  GError *err = NULL;
  guint8 *out;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC4, 4, 4));
  fail_if (decode (&info, frame, len, &out, &err), "%s decoded", what);
  fail_unless (err != NULL, "%s: no error", what);
  fail_unless (err->domain == GST_STREAM_ERROR, "%s", what);
  fail_unless_equals_int (err->code, code);
  GST_INFO ("%s: %s", what, err->message);
  g_error_free (err);
  g_free (out);
}

GST_START_TEST (test_refused)
{
  guint8 f[64];

  check_refused (f, 0, GST_STREAM_ERROR_DECODE, "empty");
  memcpy (f, "\x08\x00\x00\xa1", 4);
  memcpy (f + 4, block, 8);
  check_refused (f, 11, GST_STREAM_ERROR_DECODE, "one byte short");
  check_refused (f, 3, GST_STREAM_ERROR_DECODE, "three bytes");
  memcpy (f, "\x00\x00\x00\xa1\xff\xff\xff\xff", 8);
  check_refused (f, 16, GST_STREAM_ERROR_DECODE, "4 GiB long header");
  /* the texture is 8 bytes: 4 and 12 are refused */
  memcpy (f, "\x04\x00\x00\xa1", 4);
  check_refused (f, 8, GST_STREAM_ERROR_DECODE, "texture too small");
  memcpy (f, "\x0c\x00\x00\xa1", 4);
  check_refused (f, 16, GST_STREAM_ERROR_DECODE, "texture too large");
  /* unknown texture formats, not an image section */
  memcpy (f, "\x08\x00\x00\xa4", 4);
  check_refused (f, 12, GST_STREAM_ERROR_CODEC_NOT_FOUND, "format 4");
  memcpy (f, "\x08\x00\x00\xa7", 4);
  check_refused (f, 12, GST_STREAM_ERROR_CODEC_NOT_FOUND, "format 7");
  memcpy (f, "\x08\x00\x00\x42", 4);
  check_refused (f, 12, GST_STREAM_ERROR_DECODE, "section 0x42");
  /* Snappy data that is not */
  memcpy (f, "\x08\x00\x00\xb1\xff\xff\xff\xff\xff\xff\xff\xff", 12);
  check_refused (f, 12, GST_STREAM_ERROR_DECODE, "bad Snappy");
  /* Hap Q Alpha: two images */
  memcpy (f, "\x18\x00\x00\x0d" "\x08\x00\x00\xa1", 8);
  memcpy (f + 8, block, 8);
  memcpy (f + 16, "\x08\x00\x00\xa1", 4);
  memcpy (f + 20, block, 8);
  check_refused (f, 28, GST_STREAM_ERROR_CODEC_NOT_FOUND, "two images");
  memcpy (f, "\x04\x00\x00\x0d" "abcd", 8);
  check_refused (f, 8, GST_STREAM_ERROR_DECODE, "no image");

  /* chunked: no instructions, tables that disagree, a chunk outside */
  memcpy (f, "\x0c\x00\x00\xc1" "\x08\x00\x00\x02", 8);
  memcpy (f + 8, block, 8);
  check_refused (f, 16, GST_STREAM_ERROR_DECODE, "no instructions");
  memcpy (f, "\x18\x00\x00\xc1" "\x10\x00\x00\x01"
      "\x02\x00\x00\x02\x0a\x0a" "\x06\x00\x00\x03\x08\x00\x00\x00\x00\x00",
      24);
  memcpy (f + 24, block, 8);
  check_refused (f, 32, GST_STREAM_ERROR_DECODE, "size table of 6 bytes");
  memcpy (f, "\x1a\x00\x00\xc1" "\x0e\x00\x00\x01"
      "\x02\x00\x00\x02\x0a\x0a" "\x04\x00\x00\x03\x08\x00\x00\x00", 22);
  memcpy (f + 22, block, 8);
  check_refused (f, 30, GST_STREAM_ERROR_DECODE, "2 compressors, 1 size");
  memcpy (f, "\x12\x00\x00\xc1" "\x0e\x00\x00\x01"
      "\x01\x00\x00\x02\x0a" "\x05\x00\x00\x03\x09\x00\x00\x00\x00", 22);
  check_refused (f, 22, GST_STREAM_ERROR_DECODE, "odd table");
  memcpy (f, "\x14\x00\x00\xc1" "\x0d\x00\x00\x01"
      "\x01\x00\x00\x02\x0a" "\x04\x00\x00\x03\x09\x00\x00\x00", 21);
  memcpy (f + 21, block, 8);
  check_refused (f, 29, GST_STREAM_ERROR_DECODE, "chunk beyond the data");
  memcpy (f, "\x19\x00\x00\xc1" "\x0d\x00\x00\x01"
      "\x01\x00\x00\x02\x0c" "\x04\x00\x00\x03\x08\x00\x00\x00", 21);
  memcpy (f + 21, block, 8);
  check_refused (f, 29, GST_STREAM_ERROR_DECODE, "compressor 0x0c");
  memcpy (f, "\x19\x00\x00\xc1" "\x0d\x00\x00\x01"
      "\x01\x00\x00\x02\x0a" "\x04\x00\x00\x03\xff\xff\xff\xff", 21);
  memcpy (f + 21, block, 8);
  check_refused (f, 29, GST_STREAM_ERROR_DECODE, "chunk of 4 GiB");
}

GST_END_TEST;

/* every truncation and every value of every header byte of a chunked
 * Snappy frame: refused, or decoded into exactly the texture */
GST_START_TEST (test_damaged)
{
  GstBcInfo info;
  guint8 *tex = test_encode_picture (GST_BC_FORMAT_BC1, 64, 32, 9, &info);
  gsize len, i, header;
  guint8 *hap = compose (&info, tex, GST_BC_HAP_COMPRESSOR_SNAPPY, 4, &len);
  guint v, decoded = 0, refused = 0;

  /* up to the chunk data: 4 + 4 + (4 + 4) + (4 + 16) */
  header = 36;
  fail_unless (len > header + 64);
  for (i = 0; i < len; i++) {
    guint8 *cut = g_memdup2 (hap, i), *out;

    if (decode (&info, cut, i, &out, NULL))
      decoded++;
    g_free (out);
    g_free (cut);
  }
  /* no shorter frame holds the whole texture */
  fail_unless_equals_int (decoded, 0);

  for (i = 0; i < header + 64; i++) {
    for (v = 0; v < 256; v++) {
      guint8 *bad = g_memdup2 (hap, len), *out;
      GError *err = NULL;

      if (bad[i] == v) {
        g_free (bad);
        continue;
      }
      bad[i] = v;
      if (decode (&info, bad, len, &out, &err)) {
        decoded++;
      } else {
        fail_unless (err != NULL && err->domain == GST_STREAM_ERROR);
        g_error_free (err);
        refused++;
      }
      g_free (out);
      g_free (bad);
    }
  }
  GST_INFO ("damaged frames: %u decoded, %u refused", decoded, refused);
  fail_unless (refused > 0);
  g_free (hap);
  g_free (tex);
}

GST_END_TEST;

static Suite *
bchap_suite (void)
{
  Suite *s = suite_create ("bchap");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_fourcc);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_hdr);
  tcase_add_test (tc, test_hdr_hand_written);
  tcase_add_test (tc, test_snappy_smaller);
  tcase_add_test (tc, test_stored_header);
  tcase_add_test (tc, test_hand_written);
  tcase_add_test (tc, test_refused);
  tcase_add_test (tc, test_damaged);
  return s;
}

GST_CHECK_MAIN (bchap);
