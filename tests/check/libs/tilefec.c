/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libgsttile's forward error correction (tilefec.c, ISA-L Reed-Solomon)
 * and the parity layout of the wire (tilewire.c): layouts within the
 * protocol's bounds, interleaving, and encode/decode round trips for every
 * count of losses a group's parity covers, and one more that it does not. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilewire.h>
#include <gst/tile/tilefec.h>

#include <string.h>

/* The sender's layouts stay within the protocol's bounds, cover the tile,
 * and give at least the overhead asked for (but where the bound stops
 * them). */
GST_START_TEST (test_layout)
{
  const guint32 sizes[] = { 1, 2, 3, 7, 31, 32, 33, 64, 100, 1000, 100000 };
  const guint percents[] = { 1, 5, 10, 20, 33, 50, 90 };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (j = 0; j < G_N_ELEMENTS (percents); j++) {
      GstTileFecLayout l;
      guint32 n = sizes[i];

      fail_unless (gst_tile_fec_layout_for (&l, n, percents[j]));
      fail_unless_equals_int (l.n, n);
      fail_unless (l.span >= 1 && l.span <= GST_TILE_FEC_SPAN);
      fail_unless ((guint64) l.span * l.groups >= n);
      /* as even as they go: no group a whole member short */
      fail_unless ((guint64) (l.span - 1) * l.groups < n);
      fail_unless_equals_int (l.groups,
          gst_tile_wire_parity_groups (n, l.span));
      fail_unless_equals_int (l.n_parity, l.parity * l.groups);
      fail_unless (l.n_parity <= gst_tile_wire_parity_max (n));
      fail_unless (gst_tile_wire_parity_layout_check (n, l.span, l.parity,
              NULL));
      /* the overhead asked for, unless half the tile bounds it */
      if (percents[j] <= GST_TILE_FEC_MAX_PERCENT &&
          (l.parity + 1) * l.groups <= gst_tile_wire_parity_max (n))
        fail_unless (l.parity * 100 >= l.span * percents[j],
            "n %u at %u %%: %u parity for %u", n, percents[j], l.parity,
            l.span);
    }
  }
  {
    GstTileFecLayout l;

    fail_if (gst_tile_fec_layout_for (&l, 100, 0));
    fail_if (gst_tile_fec_layout_for (&l, 0, 20));
  }
}

GST_END_TEST;

/* The layout in a parity datagram's offset field, and the checks of a
 * layout against its tile. */
GST_START_TEST (test_layout_wire)
{
  guint span, parity, index;
  GError *err = NULL;

  gst_tile_wire_parity_fields (gst_tile_wire_parity_offset (32, 7, 65535),
      &span, &parity, &index);
  fail_unless_equals_int (span, 32);
  fail_unless_equals_int (parity, 7);
  fail_unless_equals_int (index, 65535);
  fail_unless_equals_int (gst_tile_wire_parity_offset (1, 1, 0), 0x01010000);
  fail_unless_equals_int (gst_tile_wire_parity_groups (100, 32), 4);
  fail_unless_equals_int (gst_tile_wire_parity_groups (100, 25), 4);
  fail_unless_equals_int (gst_tile_wire_parity_max (1), 1);
  fail_unless_equals_int (gst_tile_wire_parity_max (7), 4);

  fail_unless (gst_tile_wire_parity_layout_check (100, 25, 12, NULL));
  /* a span larger than the tile */
  fail_if (gst_tile_wire_parity_layout_check (10, 11, 1, &err));
  fail_unless (strstr (err->message, "span is 11") != NULL, "%s", err->message);
  g_clear_error (&err);
  /* more parity than half the tile */
  fail_if (gst_tile_wire_parity_layout_check (100, 25, 13, &err));
  fail_unless (strstr (err->message, "52 parity datagrams") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  fail_if (gst_tile_wire_parity_layout_check (100, 0, 1, NULL));
  fail_if (gst_tile_wire_parity_layout_check (100, 25, 0, NULL));
  fail_if (gst_tile_wire_parity_layout_check (600, 250, 7, NULL));
}

GST_END_TEST;

static void
fill_tile (guint8 * tile, gsize size, guint32 seed)
{
  gsize i;

  for (i = 0; i < size; i++) {
    seed = seed * 1103515245 + 12345;
    tile[i] = (guint8) (seed >> 16);
  }
}

/* Member c of group g of the tile in @tile: its bytes, padded into @pad
 * when it is the short last datagram; zeros past the end. */
static const guint8 *
member (const GstTileFecLayout * l, const guint8 * tile, gsize size, guint ps,
    guint32 g, guint c, guint8 * pad)
{
  guint64 i = (guint64) c * l->groups + g, off = i * ps;

  if (i >= l->n)
    return gst_tile_fec_zeros ();
  if (off + ps <= size)
    return tile + off;
  memset (pad, 0, ps);
  memcpy (pad, tile + off, size - off);
  return pad;
}

/* One group of the tile, decoded with @lost data members missing (chosen
 * at random among its real members) and all but @lost parity rows (or
 * all of them when @lost exceeds the parity count): byte-exact when @lost
 * <= parity, refused (the outputs untouched) beyond. */
static void
check_group (GstTileFec * fec, const GstTileFecLayout * l, const guint8 * tile,
    gsize size, guint ps, const guint8 * parity, guint32 g, guint lost,
    GRand * rand)
{
  const guint8 *data[GST_TILE_WIRE_PARITY_MAX_SPAN], *rows[256];
  guint8 *out[GST_TILE_WIRE_PARITY_MAX_SPAN];
  guint8 *pad = g_malloc (ps), *bufs = g_malloc (ps * lost + 1);
  guint real = 0, c, j, k, e = 0, dropped_rows = 0;
  gboolean gone[GST_TILE_WIRE_PARITY_MAX_SPAN] = { FALSE };

  for (c = 0; c < l->span; c++)
    if ((guint64) c * l->groups + g < l->n)
      real++;
  if (lost > real) {
    g_free (pad);
    g_free (bufs);
    return;
  }
  /* @lost distinct real members, at random */
  for (k = 0; k < lost;) {
    c = g_rand_int_range (rand, 0, real);
    if (!gone[c]) {
      gone[c] = TRUE;
      k++;
    }
  }
  memset (bufs, 0xa5, ps * lost + 1);
  for (c = 0; c < l->span; c++) {
    if (gone[c]) {
      data[c] = NULL;
      out[e] = bufs + (gsize) e *ps;
      e++;
    } else {
      data[c] = member (l, tile, size, ps, g, c, pad);
    }
  }
  /* keep exactly @lost rows (of those there are), at random */
  for (j = 0; j < l->parity; j++)
    rows[j] = parity + ((gsize) j * l->groups + g) * ps;
  while (l->parity - dropped_rows > MAX (lost, 1) &&
      l->parity - dropped_rows > 0) {
    j = g_rand_int_range (rand, 0, l->parity);
    if (rows[j]) {
      rows[j] = NULL;
      dropped_rows++;
    }
  }
  if (lost <= l->parity) {
    fail_unless (gst_tile_fec_decode (fec, l->span, l->parity, ps, data, rows,
            out));
    for (c = 0, e = 0; c < l->span; c++) {
      guint8 expect[256];

      if (!gone[c])
        continue;
      memcpy (expect, member (l, tile, size, ps, g, c, pad), ps);
      fail_unless (memcmp (out[e], expect, ps) == 0,
          "n %u group %u member %u (%u lost) not recovered", l->n, g, c, lost);
      e++;
    }
  } else {
    fail_if (gst_tile_fec_decode (fec, l->span, l->parity, ps, data, rows,
            out));
    for (k = 0; k < ps * lost + 1; k++)
      fail_unless_equals_int (bufs[k], 0xa5);
  }
  g_free (pad);
  g_free (bufs);
}

/* Encode, then decode every group with 0 to parity data datagrams lost
 * (and only as many parity rows as needed), and with one more: tiles of
 * several sizes (a short last datagram, groups of unequal size), at
 * several overheads. */
GST_START_TEST (test_round_trip)
{
  const guint32 sizes[] = { 1, 2, 5, 16, 33, 100, 257 };
  const guint percents[] = { 10, 20, 50 };
  const guint ps = 24;
  GstTileFec *fec = gst_tile_fec_new ();
  GRand *rand = g_rand_new_with_seed (36);
  guint i, j, lost, checked = 0;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (j = 0; j < G_N_ELEMENTS (percents); j++) {
      GstTileFecLayout l;
      gsize size = (gsize) sizes[i] * ps - (sizes[i] > 1 ? 7 : 3);
      guint32 n = gst_tile_wire_packets_per_tile (size, ps), g;
      guint8 *tile = g_malloc (size), *parity;

      fail_unless_equals_int (n, sizes[i]);
      fill_tile (tile, size, sizes[i] * 100 + percents[j]);
      fail_unless (gst_tile_fec_layout_for (&l, n, percents[j]));
      parity = g_malloc ((gsize) l.n_parity * ps);
      gst_tile_fec_encode (fec, &l, tile, size, ps, parity);
      for (g = 0; g < l.groups; g++) {
        for (lost = 0; lost <= l.parity + 1; lost++) {
          check_group (fec, &l, tile, size, ps, parity, g, lost, rand);
          checked++;
        }
      }
      g_free (parity);
      g_free (tile);
    }
  }
  fail_unless (checked > 100);
  g_rand_free (rand);
  gst_tile_fec_free (fec);
}

GST_END_TEST;

/* Parity rows are what the generator says: a group of one member with one
 * row at 1 / (1 xor 0) = 1 is a copy of the member. */
GST_START_TEST (test_single_member_copy)
{
  GstTileFec *fec = gst_tile_fec_new ();
  GstTileFecLayout l;
  guint8 tile[10], parity[16];

  fill_tile (tile, sizeof (tile), 7);
  fail_unless (gst_tile_fec_layout_for (&l, 1, 10));
  fail_unless_equals_int (l.span, 1);
  fail_unless_equals_int (l.parity, 1);
  gst_tile_fec_encode (fec, &l, tile, sizeof (tile), 16, parity);
  fail_unless (memcmp (parity, tile, sizeof (tile)) == 0);
  fail_unless (memcmp (parity + 10, gst_tile_fec_zeros (), 6) == 0);
  gst_tile_fec_free (fec);
}

GST_END_TEST;

static Suite *
tilefec_suite (void)
{
  Suite *s = suite_create ("tilefec");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_layout_wire);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_single_member_copy);
  return s;
}

GST_CHECK_MAIN (tilefec);
