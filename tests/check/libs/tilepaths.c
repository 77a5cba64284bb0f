/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's host list (tilepaths.c): the hosts as given, without brackets;
 * empty entries, unmatched brackets, too many, the same host twice (however
 * written) and mixed families refused with a message that names them. */

#include <gst/check/gstcheck.h>

#include <gst/tile/tilepaths.h>
#include <gst/tile/tilebalance.h>

#include <math.h>
#include <string.h>

static void
check_list (const gchar * list, const gchar * const *want)
{
  GError *err = NULL;
  gchar **hosts = gst_tile_paths_parse (list, &err);
  guint i;

  fail_unless (hosts != NULL, "\"%s\": %s", list, err ? err->message : "");
  fail_unless_equals_int (g_strv_length (hosts),
      g_strv_length ((gchar **) want));
  for (i = 0; want[i]; i++)
    fail_unless_equals_string (hosts[i], want[i]);
  fail_unless (gst_tile_paths_check_addresses (hosts, &err), "\"%s\": %s",
      list, err ? err->message : "");
  g_strfreev (hosts);
}

/* @list is refused, by the parser or the address checks, with a message
 * holding @part */
static void
check_refused (const gchar * list, const gchar * part)
{
  GError *err = NULL;
  gchar **hosts = gst_tile_paths_parse (list, &err);

  if (hosts) {
    fail_if (gst_tile_paths_check_addresses (hosts, &err), "\"%s\" passed",
        list);
    g_strfreev (hosts);
  }
  fail_unless (err != NULL);
  fail_unless (strstr (err->message, part) != NULL, "\"%s\": \"%s\" "
      "does not say \"%s\"", list, err->message, part);
  g_error_free (err);
}

GST_START_TEST (test_parse)
{
  check_list ("127.0.0.1", (const gchar *[]) {
      "127.0.0.1", NULL});
  check_list ("sender.example", (const gchar *[]) {
      "sender.example", NULL});
  check_list ("10.1.0.1,10.2.0.1", (const gchar *[]) {
      "10.1.0.1", "10.2.0.1", NULL});
  check_list (" 10.1.0.1 , 10.2.0.1 ", (const gchar *[]) {
      "10.1.0.1", "10.2.0.1", NULL});
  /* IPv6 bare or in brackets */
  check_list ("::1", (const gchar *[]) {
      "::1", NULL});
  check_list ("[fd00::1],fd01::1", (const gchar *[]) {
      "fd00::1", "fd01::1", NULL});
  /* names are not resolved here: a name and an address pass */
  check_list ("a.example,10.2.0.1,b.example", (const gchar *[]) {
      "a.example", "10.2.0.1", "b.example", NULL});
  check_list ("1.0.0.1,1.0.0.2,1.0.0.3,1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,"
      "1.0.0.8", (const gchar *[]) {
      "1.0.0.1", "1.0.0.2", "1.0.0.3", "1.0.0.4", "1.0.0.5", "1.0.0.6",
      "1.0.0.7", "1.0.0.8", NULL});
}

GST_END_TEST;

GST_START_TEST (test_refused)
{
  check_refused ("", "no host");
  check_refused ("10.1.0.1,", "address 2 is empty");
  check_refused (",10.1.0.1", "address 1 is empty");
  check_refused ("10.1.0.1,,10.2.0.1", "address 2 is empty");
  check_refused ("[fd00::1", "unmatched bracket");
  check_refused ("fd00::1]", "unmatched bracket");
  check_refused ("[10.1.0.1]", "brackets are for IPv6");
  check_refused ("10.1.0.1 10.2.0.1", "not a host name or address");
  check_refused ("1.0.0.1,1.0.0.2,1.0.0.3,1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,"
      "1.0.0.8,1.0.0.9", "at most 8 paths");
  /* the same host twice, as written or as an address */
  check_refused ("10.1.0.1,10.1.0.1", "given twice");
  check_refused ("Sender.example,sender.EXAMPLE", "given twice");
  check_refused ("[fd00::1],fd00:0::1", "same address");
  check_refused ("10.2.0.1,10.1.0.1,[::ffff:10.1.0.1]", "mixes IPv4 and IPv6");
  /* mixed families */
  check_refused ("10.1.0.1,[fd00::1]", "mixes IPv4 and IPv6");
}

GST_END_TEST;

/* the rows of a frame shared by rate: contiguous from 0 to n_rows, each
 * unit at least its floor, the shares within a row of the rates' */
static void
check_split_behind (guint32 n_rows, guint n, const gdouble * rates,
    const gdouble * backlog, const guint32 * want)
{
  guint32 bounds[65];
  guint i;

  memset (bounds, 0xff, sizeof (bounds));
  gst_tile_balance_split (n_rows, n, rates, backlog, bounds);
  fail_unless_equals_int (bounds[0], 0);
  fail_unless_equals_int (bounds[n], n_rows);
  for (i = 0; i < n; i++) {
    fail_unless (bounds[i + 1] >= bounds[i]);
    if (want)
      fail_unless_equals_int (bounds[i + 1] - bounds[i], want[i]);
  }
}

static void
check_split (guint32 n_rows, guint n, const gdouble * rates,
    const guint32 * want)
{
  check_split_behind (n_rows, n, rates, NULL, want);
}

GST_START_TEST (test_balance_split)
{
  const gdouble none[4] = { 0 };
  const gdouble two[2] = { 300e6, 700e6 };
  const gdouble four[4] = { 150e6, 350e6, 150e6, 350e6 };
  const gdouble one_known[3] = { 0, 100, 300 };
  const gdouble slow[4] = { 1, 1e9, 1e9, 1e9 };
  gdouble many[64];
  guint32 bounds[65];
  guint i;

  /* nothing measured: equal shares, the remainder to the first */
  check_split (1080, 4, none, (const guint32[]) {
      270, 270, 270, 270});
  check_split (10, 4, none, (const guint32[]) {
      3, 3, 2, 2});
  /* 0.3 / 0.7: both above the floor (1080 / 16 = 67 rows), so exactly
   * their shares */
  check_split (1080, 2, two, (const guint32[]) {
      324, 756});
  /* units on a 300 and a 700 Mbit/s path, dealt out in turn */
  check_split (1080, 4, four, (const guint32[]) {
      162, 378, 162, 378});
  /* a unit not measured counts as the mean of the others (200) */
  check_split (300, 3, one_known, (const guint32[]) {
      100, 50, 150});
  /* rounding: 1000 rows at 1:2, the row left to the larger remainder
   * (333.3 and 666.7) */
  check_split (1000, 2, (const gdouble[]) {
      1, 2}, (const guint32[]) {
      333, 667});
  /* a unit far slower keeps its floor (1080 / 32 = 33 rows), the others
   * share the rest */
  check_split (1080, 4, slow, (const guint32[]) {
      33, 349, 349, 349});
  /* two units under the floor: 2160 / 32 = 67 each, 2026 left at 1:3
   * (506.5 and 1519.5: the row left to the first of equal remainders) */
  check_split (2160, 4, (const gdouble[]) {
      1, 2, 1000, 3000}, (const guint32[]) {
      67, 67, 507, 1519});
  /* a unit behind by 100 rows at 300 / 700: the same finishing time,
   * (1080 + 100) x 0.3 - 100 = 254 and 826 rows */
  check_split_behind (1080, 2, two, (const gdouble[]) {
      100, 0}, (const guint32[]) {
      254, 826});
  /* both behind by the same time: the plain shares */
  check_split_behind (1080, 2, two, (const gdouble[]) {
      30, 70}, (const guint32[]) {
      324, 756});
  /* a unit behind by more than the frame: its floor, the rest to the
   * other; no backlog counts less than none */
  check_split_behind (1080, 2, two, (const gdouble[]) {
      5000, -7}, (const guint32[]) {
      67, 1013});
  /* fewer rows than units: one row each to the first, none to the rest */
  check_split (3, 4, none, (const guint32[]) {
      1, 1, 1, 0});
  /* a unit whose path failed (rate < 0) takes nothing, and no floor: the
   * others share the frame as without it */
  check_split (1080, 4, (const gdouble[]) {
      150e6, -1, 150e6, 350e6}, (const guint32[]) {
      249, 0, 249, 582});
  check_split (1080, 2, (const gdouble[]) {
      -1, 700e6}, (const guint32[]) {
      0, 1080});
  /* not measured and failed: the one left takes it all */
  check_split (1080, 3, (const gdouble[]) {
      0, -1, -1}, (const guint32[]) {
      1080, 0, 0});
  /* the floor is of the units left (1080 / 24 = 45) */
  check_split (1080, 4, (const gdouble[]) {
      1, -1, 1e9, 1e9}, (const guint32[]) {
      45, 0, 518, 517});
  /* every unit failed: equal shares (no such frame is sent) */
  check_split (1080, 2, (const gdouble[]) {
      -1, -1}, (const guint32[]) {
      540, 540});
  /* 64 units of random rates: a cover, every unit at least its floor */
  for (i = 0; i < 64; i++)
    many[i] = g_random_double_range (1, 1000);
  check_split (2160, 64, many, NULL);
  gst_tile_balance_split (2160, 64, many, NULL, bounds);
  for (i = 0; i < 64; i++)
    fail_unless (bounds[i + 1] - bounds[i] >= 2160 / (8 * 64));
}

GST_END_TEST;

/* A frame over paths 0 and 3 (of 8): @sent and @received datagrams each,
 * the last of each arriving at @last_ms; sent in 20 ms. */
static void
stripe (GstTileStripeState * st, guint64 frame, guint64 next,
    const guint64 * sent, const guint64 * received, const gdouble * last_ms)
{
  GstTileStripeSample s[GST_TILE_BALANCE_MAX_PATHS] = { {0} };
  guint paths[2] = { 0, 3 }, i;

  for (i = 0; i < 2; i++) {
    s[paths[i]].sent = sent[i];
    s[paths[i]].received = received[i];
    s[paths[i]].last_ns = (gint64) (last_ms[i] * GST_MSECOND);
  }
  gst_tile_balance_stripe (st, s, 20 * GST_MSECOND, frame, next);
}

/* Of two paths, the share of the one with @w once it is cut to @f of it */
static gdouble
cut (gdouble w, gdouble f)
{
  return w * f / (w * f + (1 - w));
}

#define SHARES(st, a, b) G_STMT_START { \
  fail_unless (fabs ((st)->weight[0] - (a)) < 1e-9, "path 0: %f, want %f", \
      (st)->weight[0], (gdouble) (a)); \
  fail_unless (fabs ((st)->weight[3] - (b)) < 1e-9, "path 3: %f, want %f", \
      (st)->weight[3], (gdouble) (b)); \
} G_STMT_END

/* Striped datagrams (gst_tile_balance_stripe ()): the paths' shares start
 * as a frame was sent, a path whose last datagram arrives later than the
 * other's hands some of its share over (at most a quarter, once a round),
 * one that delivered nothing goes to its floor, paths that keep up keep
 * their shares */
GST_START_TEST (test_balance_stripe)
{
  GstTileStripeState st;
  GstTileStripeSample one[GST_TILE_BALANCE_MAX_PATHS] = { {0} };
  gdouble a;

  gst_tile_balance_stripe_init (&st);
  /* one path: nothing to share */
  one[2].sent = one[2].received = 100;
  gst_tile_balance_stripe (&st, one, 20 * GST_MSECOND, 0, 1);
  fail_unless_equals_int (st.have, 0);
  /* new paths: their shares as the frame was sent */
  stripe (&st, 0, 1, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      20, 20});
  fail_unless_equals_int (st.have, (1 << 0) | (1 << 3));
  SHARES (&st, 0.5, 0.5);
  /* the last datagrams together, or within the slack (0.5 ms): no
   * change */
  stripe (&st, 1, 2, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      20.4, 20});
  SHARES (&st, 0.5, 0.5);
  /* path 0 5.5 ms late of a 20 ms frame: e^-(0.5 x 5 / 20) of its
   * share, against path 3's (the shares then sum to 1 again) */
  stripe (&st, 2, 5, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      25.5, 20});
  a = cut (0.5, exp (-0.5 * 5 / 20.0));
  SHARES (&st, a, 1 - a);
  /* frames sent before that cut do not cut it again */
  stripe (&st, 4, 6, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      40, 20});
  SHARES (&st, a, 1 - a);
  /* later ones do, by a quarter at most (40 ms late: e^-1 < 0.75) */
  stripe (&st, 5, 7, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      60, 20});
  a = cut (a, 0.75);
  SHARES (&st, a, 1 - a);
  /* path 3 late now: it hands over */
  stripe (&st, 7, 8, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 500}, (const gdouble[]) {
      20, 30.5});
  a = 1 - cut (1 - a, exp (-0.5 * 10 / 20.0));
  SHARES (&st, a, 1 - a);
  /* more than 10 % lost: as late as a frame (e^-0.5 x (1 - 0.5/20)) */
  stripe (&st, 8, 9, (const guint64[]) {
      500, 500}, (const guint64[]) {
      400, 500}, (const gdouble[]) {
      20, 20});
  a = cut (a, MAX (exp (-0.5 * 19.5 / 20.0), 0.75));
  SHARES (&st, a, 1 - a);
  /* nothing came over path 3: its floor, 1 % */
  stripe (&st, 9, 10, (const guint64[]) {
      500, 500}, (const guint64[]) {
      500, 0}, (const gdouble[]) {
      20, 0});
  SHARES (&st, 0.99, 0.01);
  /* a path that did not carry a frame keeps its share; a new one starts
   * with its share of the frame */
  memset (one, 0, sizeof (one));
  one[0].sent = one[0].received = 100;
  one[5].sent = one[5].received = 100;
  gst_tile_balance_stripe (&st, one, 20 * GST_MSECOND, 10, 11);
  fail_unless (st.have & (1 << 5));
  fail_unless (fabs (st.weight[3] - 0.01) < 1e-9);
  fail_unless (fabs (st.weight[0] - 0.5) < 1e-9);
  fail_unless (fabs (st.weight[5] - 0.5) < 1e-9);
  /* then both learn, path 3's share untouched */
  one[5].last_ns = 10 * GST_MSECOND;
  gst_tile_balance_stripe (&st, one, 20 * GST_MSECOND, 11, 12);
  fail_unless (fabs (st.weight[3] - 0.01) < 1e-9);
  fail_unless (st.weight[5] < 0.5);
  fail_unless (fabs (st.weight[0] + st.weight[5] - 1) < 1e-9);
}

GST_END_TEST;

static Suite *
tilepaths_suite (void)
{
  Suite *s = suite_create ("tilepaths");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_refused);
  tcase_add_test (tc, test_balance_split);
  tcase_add_test (tc, test_balance_stripe);
  return s;
}

GST_CHECK_MAIN (tilepaths);
