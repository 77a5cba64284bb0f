/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's host list (tilepaths.c): the hosts as given, without brackets;
 * empty entries, unmatched brackets, too many, the same host twice (however
 * written) and mixed families refused with a message that names them. */

#include <gst/check/gstcheck.h>

#include <gst/tile/tilepaths.h>

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

static Suite *
tilepaths_suite (void)
{
  Suite *s = suite_create ("tilepaths");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_refused);
  return s;
}

GST_CHECK_MAIN (tilepaths);
