/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbchap
 * @title: Hap frames
 * @short_description: reading and writing Hap frames (Vidvox's container
 *     for block-compressed video)
 *
 * Hap stores one block-compressed texture per frame, in the same block
 * layout as `video/x-bc`, behind a small sectioned header, optionally
 * compressed with Snappy and cut into chunks (the Hap Video specification,
 * github.com/Vidvox/hap, documentation/HapVideoDRAFT.md). Hap is BC1,
 * Hap Alpha BC3, Hap Q scaled YCoCg in BC3 (the layout of
 * %GST_BC_FORMAT_YCOCG_BC3), Hap Alpha-Only BC4, Hap R BC7 and Hap HDR
 * BC6H, unsigned (%GST_BC_FORMAT_BC6H) or signed
 * (%GST_BC_FORMAT_BC6H_SF). Hap Q Alpha (two textures) has no #GstBcFormat
 * and is refused with %GST_STREAM_ERROR_CODEC_NOT_FOUND.
 *
 * Both BC6H formats have one QuickTime code, %GST_BC_HAP_FOURCC_HAPH: only
 * a frame's image section type (0x_2 unsigned, 0x_3 signed) says which,
 * so gst_bc_hap_format_from_fourcc() cannot, and #GstBcHapFrame.format of
 * every parsed frame is what counts. Hap itself stores no colorimetry.
 *
 * gst_bc_hap_frame_parse() checks every header, table and chunk of a frame
 * against the frame's size before anything is read from it: a frame from a
 * file is as untrusted as one from the network. gst_bc_hap_frame_decode()
 * then writes the texture, and never more than its size.
 * gst_bc_hap_frame_compose() writes a frame from a texture.
 *
 * Only built when Snappy (libsnappy) is found.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bchap.h"

#include <snappy-c.h>
#include <string.h>

/* section types */
#define HAP_SECTION_MULTIPLE_IMAGES 0x0D
#define HAP_SECTION_DECODE_INSTRUCTIONS 0x01
#define HAP_SECTION_CHUNK_COMPRESSORS 0x02
#define HAP_SECTION_CHUNK_SIZES 0x03
#define HAP_SECTION_CHUNK_OFFSETS 0x04
/* the high four bits of an image section's type */
#define HAP_STORE_NONE 0xA
#define HAP_STORE_SNAPPY 0xB
#define HAP_STORE_CHUNKED 0xC

/* the largest section a four-byte header can describe */
#define HAP_SHORT_SECTION_MAX 0xFFFFFF

static const struct
{
  GstBcFormat format;
  guint8 texture;               /* the low four bits of the section type */
  guint32 fourcc;
} hap_formats[] = {
  {GST_BC_FORMAT_BC1, 0xB, GST_BC_HAP_FOURCC_HAP1},
  {GST_BC_FORMAT_BC3, 0xE, GST_BC_HAP_FOURCC_HAP5},
  {GST_BC_FORMAT_YCOCG_BC3, 0xF, GST_BC_HAP_FOURCC_HAPY},
  {GST_BC_FORMAT_BC4, 0x1, GST_BC_HAP_FOURCC_HAPA},
  {GST_BC_FORMAT_BC7, 0xC, GST_BC_HAP_FOURCC_HAP7},
  /* Hap HDR: one code for both, first the one its code is read as */
  {GST_BC_FORMAT_BC6H, 0x2, GST_BC_HAP_FOURCC_HAPH},
  {GST_BC_FORMAT_BC6H_SF, 0x3, GST_BC_HAP_FOURCC_HAPH},
};

GType
gst_bc_hap_compressor_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_BC_HAP_COMPRESSOR_NONE, "Stored as it is", "none"},
    {GST_BC_HAP_COMPRESSOR_SNAPPY, "Snappy", "snappy"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstBcHapCompressor", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/**
 * gst_bc_hap_fourcc_from_format:
 * @format: a #GstBcFormat
 *
 * Returns: the QuickTime code of the Hap variant storing @format (e.g.
 *     %GST_BC_HAP_FOURCC_HAP1 for %GST_BC_FORMAT_BC1,
 *     %GST_BC_HAP_FOURCC_HAPH for both %GST_BC_FORMAT_BC6H and
 *     %GST_BC_FORMAT_BC6H_SF), or 0 when Hap has none (BC5)
 */
guint32
gst_bc_hap_fourcc_from_format (GstBcFormat format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_formats); i++)
    if (hap_formats[i].format == format)
      return hap_formats[i].fourcc;
  return 0;
}

/**
 * gst_bc_hap_format_from_fourcc:
 * @fourcc: a QuickTime sample description code
 *
 * Returns: the #GstBcFormat of the Hap variant @fourcc, or
 *     %GST_BC_FORMAT_UNKNOWN (also for Hap Q Alpha, which has two
 *     textures). Hap HDR (%GST_BC_HAP_FOURCC_HAPH) gives
 *     %GST_BC_FORMAT_BC6H, though its frames may be
 *     %GST_BC_FORMAT_BC6H_SF: their section type says (#GstBcHapFrame.format)
 */
GstBcFormat
gst_bc_hap_format_from_fourcc (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_formats); i++)
    if (hap_formats[i].fourcc == fourcc)
      return hap_formats[i].format;
  return GST_BC_FORMAT_UNKNOWN;
}

static guint8
hap_texture_from_format (GstBcFormat format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_formats); i++)
    if (hap_formats[i].format == format)
      return hap_formats[i].texture;
  return 0;
}

static GstBcFormat
hap_format_from_texture (guint8 texture)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_formats); i++)
    if (hap_formats[i].texture == texture)
      return hap_formats[i].format;
  return GST_BC_FORMAT_UNKNOWN;
}

/* little-endian fields at any alignment (GStreamer's GST_READ_UINT32_LE
 * may load them as a misaligned word, which UBSan refuses) */
static inline guint32
hap_read_u32 (const guint8 * p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 |
      (guint32) p[3] << 24;
}

static inline void
hap_write_u32 (guint8 * p, guint32 v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */
/* ---------------------------------------------------------------------- */

/* The section at @p, @avail bytes left: its type, header size and length.
 * FALSE when the header or the section does not fit in @avail. */
static gboolean
hap_read_section (const guint8 * p, gsize avail, guint8 * type,
    gsize * header, gsize * length)
{
  gsize len;

  if (avail < 4)
    return FALSE;
  len = hap_read_u32 (p) & 0xffffff;
  *type = p[3];
  *header = 4;
  if (len == 0) {
    if (avail < 8)
      return FALSE;
    len = hap_read_u32 (p + 4);
    *header = 8;
  }
  if (len > avail - *header)
    return FALSE;
  *length = len;
  return TRUE;
}

static gboolean
hap_is_image_section (guint8 type)
{
  guint8 store = type >> 4;

  return store == HAP_STORE_NONE || store == HAP_STORE_SNAPPY ||
      store == HAP_STORE_CHUNKED;
}

/* the decode instructions at the start of a chunked image section */
static gboolean
hap_parse_chunked (GstBcHapFrame * frame, const guint8 * body, gsize len,
    GError ** error)
{
  const guint8 *p, *end;
  gsize hdr, ilen, n_comp = 0, n_size = 0, n_off = 0;
  guint8 type;
  guint64 next = 0;
  guint i;

  if (!hap_read_section (body, len, &type, &hdr, &ilen))
    goto truncated;
  if (type != HAP_SECTION_DECODE_INSTRUCTIONS) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "chunked Hap frame without decode instructions (section type 0x%02x)",
        type);
    return FALSE;
  }
  frame->data = body + hdr + ilen;
  frame->data_size = len - hdr - ilen;

  /* the tables, in any order; other sections are skipped */
  p = body + hdr;
  end = p + ilen;
  while (p < end) {
    gsize shdr, slen;
    guint8 stype;

    if (!hap_read_section (p, end - p, &stype, &shdr, &slen))
      goto truncated;
    switch (stype) {
      case HAP_SECTION_CHUNK_COMPRESSORS:
        frame->chunk_compressors = p + shdr;
        n_comp = slen;
        break;
      case HAP_SECTION_CHUNK_SIZES:
        frame->chunk_sizes = p + shdr;
        n_size = slen / 4;
        if (slen % 4)
          goto bad_tables;
        break;
      case HAP_SECTION_CHUNK_OFFSETS:
        frame->chunk_offsets = p + shdr;
        n_off = slen / 4;
        if (slen % 4)
          goto bad_tables;
        break;
      default:
        break;
    }
    p += shdr + slen;
  }
  if (!frame->chunk_compressors || !frame->chunk_sizes || n_comp == 0 ||
      n_comp != n_size || (frame->chunk_offsets && n_off != n_comp))
    goto bad_tables;
  if (n_comp > G_MAXUINT)
    goto bad_tables;
  frame->n_chunks = n_comp;

  /* every chunk within the frame data */
  for (i = 0; i < frame->n_chunks; i++) {
    guint8 comp = frame->chunk_compressors[i];
    guint64 size = hap_read_u32 (frame->chunk_sizes + 4 * i);
    guint64 off = frame->chunk_offsets ?
        hap_read_u32 (frame->chunk_offsets + 4 * i) : next;

    if (comp != GST_BC_HAP_COMPRESSOR_NONE &&
        comp != GST_BC_HAP_COMPRESSOR_SNAPPY) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
          "Hap chunk %u of %u has an unknown compressor 0x%02x", i,
          frame->n_chunks, comp);
      return FALSE;
    }
    if (off + size > frame->data_size) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
          "Hap chunk %u of %u (%" G_GUINT64_FORMAT " bytes at %"
          G_GUINT64_FORMAT ") lies outside the frame data (%" G_GSIZE_FORMAT
          " bytes)", i, frame->n_chunks, size, off, frame->data_size);
      return FALSE;
    }
    next = off + size;
  }
  return TRUE;

truncated:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
      "truncated Hap decode instructions (a section is larger than its "
      "container)");
  return FALSE;
bad_tables:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
      "bad Hap chunk tables (%" G_GSIZE_FORMAT " compressors, %" G_GSIZE_FORMAT
      " sizes, %" G_GSIZE_FORMAT " offsets)", n_comp, n_size, n_off);
  return FALSE;
}

/**
 * gst_bc_hap_frame_parse:
 * @frame: (out caller-allocates): the parsed frame
 * @data: (array length=size): a Hap frame
 * @size: its size in bytes
 * @error: return location for a #GError (%GST_STREAM_ERROR_DECODE for a
 *     damaged frame, %GST_STREAM_ERROR_CODEC_NOT_FOUND for a Hap variant
 *     without a #GstBcFormat), or %NULL
 *
 * Reads the headers of a Hap frame and checks that every section, table and
 * chunk they describe lies within @size bytes. Snappy data is checked when
 * decoded.
 *
 * Returns: %TRUE if @frame describes a frame gst_bc_hap_frame_decode() can
 *     decode
 */
gboolean
gst_bc_hap_frame_parse (GstBcHapFrame * frame, const guint8 * data,
    gsize size, GError ** error)
{
  const guint8 *body;
  gsize hdr, len;
  guint8 type;

  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (data != NULL || size == 0, FALSE);

  memset (frame, 0, sizeof (*frame));
  frame->frame = data;

  if (!hap_read_section (data, size, &type, &hdr, &len)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "truncated Hap frame (%" G_GSIZE_FORMAT " bytes, shorter than its "
        "header says)", size);
    return FALSE;
  }
  body = data + hdr;

  /* one image inside a multiple-images section is read as that image; two
   * (Hap Q Alpha) have no single texture format */
  if (type == HAP_SECTION_MULTIPLE_IMAGES) {
    const guint8 *p = body, *end = body + len, *image = NULL;
    gsize ihdr = 0, ilen = 0;
    guint8 itype = 0;
    guint images = 0;

    while (p < end) {
      gsize shdr, slen;
      guint8 stype;

      if (!hap_read_section (p, end - p, &stype, &shdr, &slen)) {
        g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
            "truncated Hap multiple-image section");
        return FALSE;
      }
      if (hap_is_image_section (stype)) {
        images++;
        image = p;
        itype = stype;
        ihdr = shdr;
        ilen = slen;
      }
      p += shdr + slen;
    }
    if (images != 1) {
      g_set_error (error, GST_STREAM_ERROR, images ?
          GST_STREAM_ERROR_CODEC_NOT_FOUND : GST_STREAM_ERROR_DECODE,
          images ? "Hap frame with %u textures (Hap Q Alpha) is not "
          "supported" : "Hap multiple-image section without an image (%u)",
          images);
      return FALSE;
    }
    type = itype;
    body = image + ihdr;
    len = ilen;
  }

  if (!hap_is_image_section (type)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "not a Hap image section (type 0x%02x)", type);
    return FALSE;
  }
  frame->type = type;
  frame->format = hap_format_from_texture (type & 0x0F);
  if (frame->format == GST_BC_FORMAT_UNKNOWN) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_CODEC_NOT_FOUND,
        "unknown Hap texture format 0x%x (section type 0x%02x)", type & 0x0F,
        type);
    return FALSE;
  }

  if (type >> 4 == HAP_STORE_CHUNKED)
    return hap_parse_chunked (frame, body, len, error);

  frame->data = body;
  frame->data_size = len;
  frame->n_chunks = 1;
  return TRUE;
}

/* chunk @i of @frame: its compressor, bytes and size */
static void
hap_frame_chunk (const GstBcHapFrame * frame, guint i, gsize * next,
    guint8 * comp, const guint8 ** src, gsize * len)
{
  gsize off;

  if (!frame->chunk_compressors) {
    *comp = frame->type >> 4;
    *src = frame->data;
    *len = frame->data_size;
    return;
  }
  *comp = frame->chunk_compressors[i];
  *len = hap_read_u32 (frame->chunk_sizes + 4 * i);
  off = frame->chunk_offsets ?
      hap_read_u32 (frame->chunk_offsets + 4 * i) : *next;
  *src = frame->data + off;
  *next = off + *len;
}

/**
 * gst_bc_hap_frame_get_stored:
 * @frame: a frame from gst_bc_hap_frame_parse()
 * @texture_size: the size of the texture (#GstBcInfo.size)
 * @offset: (out): where the texture starts in the frame
 *
 * Whether the texture of @frame is stored as it is, in one piece (no Snappy,
 * chunks if any in order and contiguous), so it can be used in place
 * without gst_bc_hap_frame_decode().
 *
 * Returns: %TRUE if @texture_size bytes at @offset in the frame are the
 *     texture
 */
gboolean
gst_bc_hap_frame_get_stored (const GstBcHapFrame * frame, gsize texture_size,
    gsize * offset)
{
  const guint8 *first = NULL;
  gsize next = 0, total = 0;
  guint i;

  g_return_val_if_fail (frame != NULL && offset != NULL, FALSE);

  for (i = 0; i < frame->n_chunks; i++) {
    const guint8 *src;
    gsize len;
    guint8 comp;

    hap_frame_chunk (frame, i, &next, &comp, &src, &len);
    if (comp != GST_BC_HAP_COMPRESSOR_NONE)
      return FALSE;
    if (!first)
      first = src;
    if (src != first + total)
      return FALSE;
    total += len;
  }
  if (!first || total != texture_size)
    return FALSE;
  *offset = first - frame->frame;
  return TRUE;
}

/* one chunk of a frame being decoded: where its bytes are and go */
typedef struct
{
  const guint8 *src;
  gsize len;
  gsize out_pos;
  gsize out_len;
  guint8 comp;
  gboolean ok;
} HapChunk;

typedef struct
{
  HapChunk *chunks;
  guint8 *texture;
} HapDecodeJob;

static void
hap_decode_chunk (guint i, gpointer user_data)
{
  HapDecodeJob *job = user_data;
  HapChunk *c = &job->chunks[i];
  gsize out = c->out_len;

  if (c->comp == GST_BC_HAP_COMPRESSOR_NONE) {
    memcpy (job->texture + c->out_pos, c->src, c->len);
    c->ok = TRUE;
  } else {
    c->ok = snappy_uncompress ((const char *) c->src, c->len,
        (char *) job->texture + c->out_pos, &out) == SNAPPY_OK &&
        out == c->out_len;
  }
}

/* chunked frames of at most this many chunks are decoded in parallel */
#define HAP_MAX_PARALLEL_CHUNKS 256

/**
 * gst_bc_hap_frame_decode:
 * @frame: a frame from gst_bc_hap_frame_parse()
 * @texture: (array length=texture_size): where the texture goes
 * @texture_size: its size (#GstBcInfo.size of the stream)
 * @workers: (nullable): threads that decompress the chunks of a chunked
 *     frame in parallel, or %NULL for the calling thread alone
 * @error: return location for a #GError (%GST_STREAM_ERROR_DECODE), or
 *     %NULL
 *
 * Decompresses the chunks of @frame into @texture. Where each chunk goes is
 * worked out from the chunks' headers first, and nothing is ever written
 * past @texture_size: a frame whose chunks do not make up exactly
 * @texture_size bytes, or with damaged Snappy data, fails.
 *
 * Returns: %TRUE if @texture holds the frame's whole texture
 */
gboolean
gst_bc_hap_frame_decode (const GstBcHapFrame * frame, guint8 * texture,
    gsize texture_size, GstBcWorkers * workers, GError ** error)
{
  /* on the stack: no allocation per frame */
  HapChunk table[HAP_MAX_PARALLEL_CHUNKS], *chunks;
  HapDecodeJob job;
  gsize pos = 0, next = 0;
  guint i, n;

  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (texture != NULL || texture_size == 0, FALSE);

  n = frame->n_chunks;
  /* very many chunks (a hostile file) are decoded one by one, without a
   * table */
  chunks = n > HAP_MAX_PARALLEL_CHUNKS ? NULL : table;

  for (i = 0; i < n; i++) {
    HapChunk c;

    hap_frame_chunk (frame, i, &next, &c.comp, &c.src, &c.len);
    c.out_pos = pos;
    if (c.comp == GST_BC_HAP_COMPRESSOR_NONE) {
      c.out_len = c.len;
    } else if (c.comp != GST_BC_HAP_COMPRESSOR_SNAPPY) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
          "Hap frame with an unknown compressor 0x%x", c.comp);
      return FALSE;
    } else if (snappy_uncompressed_length ((const char *) c.src, c.len,
            &c.out_len) != SNAPPY_OK) {
      goto bad_snappy;
    }
    if (c.out_len > texture_size - pos) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
          "Hap frame has more texture than the stream's frames (%"
          G_GSIZE_FORMAT " bytes; chunk %u of %u)", texture_size, i, n);
      return FALSE;
    }
    pos += c.out_len;
    if (chunks) {
      chunks[i] = c;
    } else {
      job.chunks = &c;
      job.texture = texture;
      hap_decode_chunk (0, &job);
      if (!c.ok)
        goto bad_snappy;
    }
  }
  if (pos != texture_size) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "Hap frame has %" G_GSIZE_FORMAT " bytes of texture, the stream's "
        "frames have %" G_GSIZE_FORMAT, pos, texture_size);
    return FALSE;
  }

  if (chunks) {
    job.chunks = chunks;
    job.texture = texture;
    if (workers && n > 1)
      gst_bc_workers_run (workers, n, hap_decode_chunk, &job);
    else
      for (i = 0; i < n; i++)
        hap_decode_chunk (i, &job);
    for (i = 0; i < n; i++)
      if (!chunks[i].ok)
        goto bad_snappy;
  }
  return TRUE;

bad_snappy:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
      "damaged Snappy data in Hap chunk %u of %u", i, n);
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */
/* ---------------------------------------------------------------------- */

/* chunks cut at block rows, at most GST_BC_HAP_MAX_CHUNKS */
static guint
hap_chunk_count (const GstBcInfo * info, guint chunks)
{
  return CLAMP (chunks, 1, MIN (GST_BC_HAP_MAX_CHUNKS, info->blocks_y));
}

static void
hap_chunk_range (const GstBcInfo * info, guint n, guint i, gsize * off,
    gsize * len)
{
  gsize first = (gsize) info->blocks_y * i / n;
  gsize last = (gsize) info->blocks_y * (i + 1) / n;

  *off = first * info->row_bytes;
  *len = (last - first) * info->row_bytes;
}

/* the largest headers before the chunk data: image section, decode
 * instructions, compressor table, size table */
static gsize
hap_max_headers (guint n)
{
  return n == 1 ? 8 : 8 + 4 + (4 + n) + (4 + 4 * (gsize) n);
}

/**
 * gst_bc_hap_frame_max_size:
 * @info: the stream's geometry
 * @chunks: the chunks asked of gst_bc_hap_frame_compose()
 *
 * Returns: how large the output of gst_bc_hap_frame_compose() may need to be
 */
gsize
gst_bc_hap_frame_max_size (const GstBcInfo * info, guint chunks)
{
  gsize size;
  guint i, n;

  g_return_val_if_fail (info != NULL, 0);

  n = hap_chunk_count (info, chunks);
  size = hap_max_headers (n);
  for (i = 0; i < n; i++) {
    gsize off, len;

    hap_chunk_range (info, n, i, &off, &len);
    size += MAX (len, snappy_max_compressed_length (len));
  }
  return size;
}

/* writes a section header for @len bytes of @type ending at @end; returns
 * its size */
static guint
hap_write_header_before (guint8 * end, guint8 type, gsize len)
{
  if (len > 0 && len <= HAP_SHORT_SECTION_MAX) {
    hap_write_u32 (end - 4, len);
    end[-1] = type;
    return 4;
  }
  hap_write_u32 (end - 8, 0);
  end[-5] = type;
  hap_write_u32 (end - 4, len);
  return 8;
}

/**
 * gst_bc_hap_frame_stored_header:
 * @format: the texture's format
 * @texture_size: its size
 * @header: (out caller-allocates) (array fixed-size=8): where the header
 *     goes
 *
 * Writes the header of a Hap frame storing a texture as it is: the frame
 * is the header followed by the texture (to write one without copying the
 * texture).
 *
 * Returns: the header's size (4 or 8), or 0 when Hap has no variant for
 *     @format or @texture_size is too large for a frame
 */
guint
gst_bc_hap_frame_stored_header (GstBcFormat format, gsize texture_size,
    guint8 * header)
{
  guint8 texture = hap_texture_from_format (format);
  guint n;

  g_return_val_if_fail (header != NULL, 0);

  if (!texture || texture_size > G_MAXUINT32)
    return 0;
  n = texture_size > 0 && texture_size <= HAP_SHORT_SECTION_MAX ? 4 : 8;
  hap_write_header_before (header + n, (HAP_STORE_NONE << 4) | texture,
      texture_size);
  return n;
}

typedef struct
{
  const GstBcInfo *info;
  const guint8 *texture;
  GstBcHapCompressor compressor;
  guint n;
  guint8 *out;
  gsize slot[GST_BC_HAP_MAX_CHUNKS];    /* where chunk i is written */
  gsize avail[GST_BC_HAP_MAX_CHUNKS];   /* and how much room it has */
  guint32 size[GST_BC_HAP_MAX_CHUNKS];
  guint8 comp[GST_BC_HAP_MAX_CHUNKS];
} HapComposeJob;

static void
hap_compose_chunk (guint i, gpointer user_data)
{
  HapComposeJob *job = user_data;
  gsize off, len, clen = job->avail[i];
  guint8 *dst = job->out + job->slot[i];

  hap_chunk_range (job->info, job->n, i, &off, &len);
  if (job->compressor == GST_BC_HAP_COMPRESSOR_SNAPPY &&
      snappy_compress ((const char *) job->texture + off, len, (char *) dst,
          &clen) == SNAPPY_OK && clen < len) {
    job->comp[i] = GST_BC_HAP_COMPRESSOR_SNAPPY;
  } else {
    memcpy (dst, job->texture + off, len);
    job->comp[i] = GST_BC_HAP_COMPRESSOR_NONE;
    clen = len;
  }
  job->size[i] = clen;
}

/**
 * gst_bc_hap_frame_compose:
 * @info: the texture's geometry and format
 * @texture: (array): the texture, @info's size in bytes
 * @compressor: the second-stage compressor
 * @chunks: how many chunks to cut the texture into (at block rows; clamped
 *     to 1..%GST_BC_HAP_MAX_CHUNKS and to the block rows)
 * @workers: (nullable): threads that compress the chunks in parallel, or
 *     %NULL for the calling thread alone
 * @out: (array length=out_size): where the frame is written
 * @out_size: at least gst_bc_hap_frame_max_size() bytes
 * @offset: (out): where in @out the frame starts
 *
 * Writes a Hap frame of @texture. Each chunk is compressed into room of its
 * own, then the chunks are moved together and the headers written in front
 * of them, so the frame may start a few bytes into @out. A chunk that
 * Snappy does not make smaller is stored as it is.
 *
 * Returns: the frame's size, or 0 when Hap has no variant for the format or
 *     @out is too small
 */
gsize
gst_bc_hap_frame_compose (const GstBcInfo * info, const guint8 * texture,
    GstBcHapCompressor compressor, guint chunks, GstBcWorkers * workers,
    guint8 * out, gsize out_size, gsize * offset)
{
  HapComposeJob j, *job = &j;
  guint8 tex;
  gsize base, pos, data_len = 0, start;
  guint i, n;

  g_return_val_if_fail (info != NULL && texture != NULL, 0);
  g_return_val_if_fail (out != NULL && offset != NULL, 0);

  tex = hap_texture_from_format (info->format);
  if (!tex || info->size > G_MAXUINT32 ||
      out_size < gst_bc_hap_frame_max_size (info, chunks))
    return 0;

  n = hap_chunk_count (info, chunks);
  job->info = info;
  job->texture = texture;
  job->compressor = compressor;
  job->n = n;
  job->out = out;
  base = hap_max_headers (n);
  pos = base;
  for (i = 0; i < n; i++) {
    gsize off, len;

    hap_chunk_range (info, n, i, &off, &len);
    job->slot[i] = pos;
    job->avail[i] = MAX (len, snappy_max_compressed_length (len));
    pos += job->avail[i];
  }
  if (workers && n > 1)
    gst_bc_workers_run (workers, n, hap_compose_chunk, job);
  else
    for (i = 0; i < n; i++)
      hap_compose_chunk (i, job);

  /* the chunks one after the other */
  pos = base;
  for (i = 0; i < n; i++) {
    if (job->slot[i] != pos)
      memmove (out + pos, out + job->slot[i], job->size[i]);
    pos += job->size[i];
    data_len += job->size[i];
  }

  /* the headers, backwards from the chunk data */
  start = base;
  if (n == 1) {
    start -= hap_write_header_before (out + start, (job->comp[0] << 4) | tex,
        data_len);
  } else {
    gsize instructions = (4 + n) + (4 + 4 * (gsize) n);

    start -= 4 * n;
    for (i = 0; i < n; i++)
      hap_write_u32 (out + start + 4 * i, job->size[i]);
    start -= hap_write_header_before (out + start,
        HAP_SECTION_CHUNK_SIZES, 4 * n);
    start -= n;
    memcpy (out + start, job->comp, n);
    start -= hap_write_header_before (out + start,
        HAP_SECTION_CHUNK_COMPRESSORS, n);
    start -= hap_write_header_before (out + start,
        HAP_SECTION_DECODE_INSTRUCTIONS, instructions);
    start -= hap_write_header_before (out + start,
        (HAP_STORE_CHUNKED << 4) | tex, 4 + instructions + data_len);
  }
  *offset = start;
  return pos - start;
}
