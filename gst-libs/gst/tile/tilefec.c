/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Forward error correction (protocol=udp, tilesink's `fec`): a tile's
 * datagrams in interleaved groups, each group's parity datagrams a
 * Reed-Solomon code over GF(2^8) (ISA-L's Cauchy matrix, polynomial
 * 0x11d): parity row j of a group of span K is sum over its members c of
 * 1 / ((K + j) xor c) times member c (its packet_size bytes, the tile's last
 * datagram zero-padded, members past the tile's end zeros). Any K of a
 * group's K data and parity datagrams give back the others (every square
 * submatrix of a Cauchy matrix is invertible): decoding E missing members
 * inverts the E x E matrix of their coefficients in E parity rows
 * received (ISA-L's gf_invert_matrix), and one pass (ec_encode_data) over
 * the members received and those rows gives them back. See
 * docs/wire-protocol.md, "Parity datagrams". */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilefec.h"

#include <string.h>
#include <isa-l/erasure_code.h>

static const guint8 fec_zeros[GST_TILE_WIRE_MAX_PACKET_PAYLOAD];

struct _GstTileFec
{
  /* the generator of (gen_span, gen_parity): (span + parity) x span, its
   * last parity rows the parity's coefficients */
  guint8 *gen;
  gsize gen_alloc;
  guint gen_span, gen_parity;
  /* the encoding tables of that generator's parity rows */
  guint8 *enc;
  gsize enc_alloc;
  guint enc_span, enc_parity;   /* 0: none */
  /* decoding: the missing members' coefficients in the parity rows used,
   * its inverse, the decoding matrix, its tables */
  guint8 *b, *binv, *d, *dec;
  gsize b_alloc, binv_alloc, d_alloc, dec_alloc;
  /* a tile's last datagram, zero-padded */
  guint8 *pad;
  guint pad_alloc;
};

GstTileFec *
gst_tile_fec_new (void)
{
  return g_new0 (GstTileFec, 1);
}

void
gst_tile_fec_free (GstTileFec * fec)
{
  if (!fec)
    return;
  g_free (fec->gen);
  g_free (fec->enc);
  g_free (fec->b);
  g_free (fec->binv);
  g_free (fec->d);
  g_free (fec->dec);
  g_free (fec->pad);
  g_free (fec);
}

/* Zeros, GST_TILE_WIRE_MAX_PACKET_PAYLOAD of them: the members of a group
 * past the tile's end. */
const guint8 *
gst_tile_fec_zeros (void)
{
  return fec_zeros;
}

static void
grow (guint8 ** p, gsize * alloc, gsize size)
{
  if (size > *alloc) {
    g_free (*p);
    *p = g_malloc (size);
    *alloc = size;
  }
}

/* The layout of @n datagrams with @span and @parity as they are (a
 * receiver's, from a parity datagram's header): FALSE unless valid
 * (gst_tile_wire_parity_layout_check ()). */
gboolean
gst_tile_fec_layout_from (GstTileFecLayout * l, guint32 n, guint span,
    guint parity)
{
  if (!gst_tile_wire_parity_layout_check (n, span, parity, NULL))
    return FALSE;
  l->n = n;
  l->span = span;
  l->parity = parity;
  l->groups = gst_tile_wire_parity_groups (n, span);
  l->n_parity = parity * l->groups;
  return TRUE;
}

/* The sender's layout for a tile of @n datagrams at @percent overhead:
 * groups of at most GST_TILE_FEC_SPAN, as even as they go, and @percent of
 * a group's span in parity (rounded up), within what the protocol allows
 * (gst_tile_wire_parity_max ()). FALSE: no parity (@percent 0, or none
 * fits). */
gboolean
gst_tile_fec_layout_for (GstTileFecLayout * l, guint32 n, guint percent)
{
  guint32 groups, span, parity, most;

  if (n == 0 || percent == 0)
    return FALSE;
  percent = MIN (percent, GST_TILE_FEC_MAX_PERCENT);
  groups = gst_tile_wire_parity_groups (n, GST_TILE_FEC_SPAN);
  span = gst_tile_wire_parity_groups (n, groups);
  parity = (span * percent + 99) / 100;
  most = gst_tile_wire_parity_max (n) / groups;
  parity = MIN (parity, MIN (most, 256 - span));
  if (parity == 0)
    return FALSE;
  return gst_tile_fec_layout_from (l, n, span, parity);
}

/* The generator matrix of @span and @parity in fec->gen. */
static void
fec_generator (GstTileFec * fec, guint span, guint parity)
{
  if (fec->gen && fec->gen_span == span && fec->gen_parity >= parity)
    return;
  grow (&fec->gen, &fec->gen_alloc, (gsize) (span + parity) * span);
  /* (its rows do not depend on how many there are: a generator of more
   * parity rows serves fewer) */
  gf_gen_cauchy1_matrix (fec->gen, (gint) (span + parity), (gint) span);
  fec->gen_span = span;
  fec->gen_parity = parity;
}

/* Member @c of group @g of @l: its bytes in @tile (the last datagram
 * zero-padded into fec->pad), zeros past the tile's end. */
static const guint8 *
fec_member (GstTileFec * fec, const GstTileFecLayout * l, const guint8 * tile,
    guint64 tile_size, guint ps, guint32 g, guint c)
{
  guint64 i = (guint64) c * l->groups + g, off = i * ps;

  if (i >= l->n)
    return fec_zeros;
  if (off + ps <= tile_size)
    return tile + off;
  memcpy (fec->pad, tile + off, tile_size - off);
  memset (fec->pad + (tile_size - off), 0, ps - (tile_size - off));
  return fec->pad;
}

/* Encodes the parity datagrams of a tile (@tile_size bytes in @tile,
 * @ps bytes per datagram, laid out as @l) into @parity: @l->n_parity x @ps
 * bytes, parity datagram p at p x @ps. */
void
gst_tile_fec_encode (GstTileFec * fec, const GstTileFecLayout * l,
    const guint8 * tile, guint64 tile_size, guint ps, guint8 * parity)
{
  guint8 *data[GST_TILE_WIRE_PARITY_MAX_SPAN];
  guint8 *out[256];
  guint32 g;
  guint c, j;

  g_return_if_fail (ps <= GST_TILE_WIRE_MAX_PACKET_PAYLOAD);

  if (fec->enc_span != l->span || fec->enc_parity != l->parity) {
    fec_generator (fec, l->span, l->parity);
    grow (&fec->enc, &fec->enc_alloc, (gsize) 32 * l->span * l->parity);
    ec_init_tables ((gint) l->span, (gint) l->parity,
        fec->gen + (gsize) l->span * l->span, fec->enc);
    fec->enc_span = l->span;
    fec->enc_parity = l->parity;
  }
  if (ps > fec->pad_alloc) {
    g_free (fec->pad);
    fec->pad = g_malloc (ps);
    fec->pad_alloc = ps;
  }
  for (g = 0; g < l->groups; g++) {
    for (c = 0; c < l->span; c++)
      data[c] = (guint8 *) fec_member (fec, l, tile, tile_size, ps, g, c);
    for (j = 0; j < l->parity; j++)
      out[j] = parity + ((gsize) j * l->groups + g) * ps;
    ec_encode_data ((gint) ps, (gint) l->span, (gint) l->parity, fec->enc,
        data, out);
  }
}

/* Recovers the missing members of one group of @span members with @parity
 * rows, @ps bytes each: @data[c] a member's bytes (zero-padded, zeros past
 * the tile) or NULL when missing, @rows[j] parity row j or NULL when
 * missing; @out gets one pointer per missing member, in member order,
 * where its bytes go. Returns FALSE (nothing written) when fewer rows came
 * than members are missing. */
gboolean
gst_tile_fec_decode (GstTileFec * fec, guint span, guint parity, guint ps,
    const guint8 * const *data, const guint8 * const *rows, guint8 ** out)
{
  guint8 *src[GST_TILE_WIRE_PARITY_MAX_SPAN];
  guint missing[GST_TILE_WIRE_PARITY_MAX_SPAN];
  guint used[GST_TILE_WIRE_PARITY_MAX_SPAN];
  const guint8 *g;
  guint e = 0, r = 0, c, j, k, l;

  g_return_val_if_fail (span >= 1 && span <= GST_TILE_WIRE_PARITY_MAX_SPAN,
      FALSE);
  g_return_val_if_fail (parity >= 1 && span + parity <= 256, FALSE);

  for (c = 0; c < span; c++)
    if (!data[c])
      missing[e++] = c;
  if (e == 0)
    return TRUE;
  /* the first e parity rows that came */
  for (j = 0; j < parity && r < e; j++)
    if (rows[j])
      used[r++] = j;
  if (r < e)
    return FALSE;

  fec_generator (fec, span, parity);
  g = fec->gen + (gsize) span * span;
  grow (&fec->b, &fec->b_alloc, (gsize) e * e);
  grow (&fec->binv, &fec->binv_alloc, (gsize) e * e);
  grow (&fec->d, &fec->d_alloc, (gsize) span * e);
  /* parity row j = sum over members c of G[j][c] x member c, so with A the
   * e x e matrix of the used rows' coefficients of the missing members,
   * missing = A^-1 x (the used rows + the received members' terms in
   * them): only A is inverted (e x e, where inverting the span x span
   * matrix of all the rows received costs about 70 us at span 32) */
  for (k = 0; k < e; k++)
    for (l = 0; l < e; l++)
      fec->b[k * e + l] = g[(gsize) used[k] * span + missing[l]];
  if (gf_invert_matrix (fec->b, fec->binv, (gint) e) != 0)
    return FALSE;               /* (a Cauchy matrix's never is singular) */
  /* the sources: the members received, then the used parity rows; the
   * decoding matrix's row l (missing member l): A^-1[l][k] for used row k,
   * sum over k of A^-1[l][k] x G[k][c] for received member c */
  r = 0;
  for (c = 0; c < span; c++) {
    if (!data[c])
      continue;
    for (l = 0; l < e; l++) {
      guint8 v = 0;

      for (k = 0; k < e; k++)
        v ^= gf_mul (fec->binv[l * e + k], g[(gsize) used[k] * span + c]);
      fec->d[(gsize) l * span + r] = v;
    }
    src[r++] = (guint8 *) data[c];
  }
  for (k = 0; k < e; k++) {
    for (l = 0; l < e; l++)
      fec->d[(gsize) l * span + r] = fec->binv[l * e + k];
    src[r++] = (guint8 *) rows[used[k]];
  }
  grow (&fec->dec, &fec->dec_alloc, (gsize) 32 * span * e);
  ec_init_tables ((gint) span, (gint) e, fec->d, fec->dec);
  ec_encode_data ((gint) ps, (gint) span, (gint) e, fec->dec, src, out);
  return TRUE;
}
