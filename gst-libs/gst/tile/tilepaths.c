/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's `host` as a list of paths: parsing and the checks that need no
 * connection (see tilepaths.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilepaths.h"
#include "tilewire.h"

#include <gio/gio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

/* One entry of the list, trimmed and without its brackets; NULL with
 * @error set when it is not a host. */
static gchar *
parse_entry (const gchar * entry, guint index, GError ** error)
{
  gchar *s = g_strstrip (g_strdup (entry)), *host;
  gsize len = strlen (s);

  if (len == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "host list: address %u is empty", index + 1);
    g_free (s);
    return NULL;
  }
  if (s[0] == '[' || s[len - 1] == ']') {
    if (len < 3 || s[0] != '[' || s[len - 1] != ']') {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
          "host list: \"%s\" has an unmatched bracket", s);
      g_free (s);
      return NULL;
    }
    host = g_strndup (s + 1, len - 2);
    g_free (s);
    s = host;
    if (!strchr (s, ':')) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
          "host list: \"[%s]\": brackets are for IPv6 addresses", s);
      g_free (s);
      return NULL;
    }
  }
  if (strpbrk (s, " \t[]")) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "host list: \"%s\" is not a host name or address", s);
    g_free (s);
    return NULL;
  }
  return s;
}

/**
 * gst_tile_paths_parse:
 * @list: one host, or several separated by commas ("10.1.0.1,10.2.0.1",
 *     "[fd00::1],[fd01::1]"); spaces around each are ignored
 * @error: where the reason goes
 *
 * Returns: (transfer full): the hosts, without brackets, 1 to
 * GST_TILE_WIRE_MAX_PATHS of them, none twice (names compared without case);
 * NULL with @error set for an empty entry, an unmatched bracket, too many
 * or the same host twice.
 */
gchar **
gst_tile_paths_parse (const gchar * list, GError ** error)
{
  gchar **parts, **hosts;
  guint i, j, n;

  if (!list || !*list) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "no host");
    return NULL;
  }
  parts = g_strsplit (list, ",", -1);
  n = g_strv_length (parts);
  if (n > GST_TILE_WIRE_MAX_PATHS) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "host list: %u addresses, at most %u paths are supported", n,
        GST_TILE_WIRE_MAX_PATHS);
    g_strfreev (parts);
    return NULL;
  }
  hosts = g_new0 (gchar *, n + 1);
  for (i = 0; i < n; i++) {
    if (!(hosts[i] = parse_entry (parts[i], i, error)))
      goto fail;
    for (j = 0; j < i; j++) {
      if (g_ascii_strcasecmp (hosts[i], hosts[j]) == 0) {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
            "host list: \"%s\" is given twice: each path needs its own "
            "address of the sender", hosts[i]);
        goto fail;
      }
    }
  }
  g_strfreev (parts);
  return hosts;

fail:
  g_strfreev (parts);
  g_strfreev (hosts);
  return NULL;
}

/* The family of a literal address (AF_INET, AF_INET6), or 0 for a name;
 * its bytes in @bytes (16). */
static gint
literal_family (const gchar * host, guint8 * bytes)
{
  memset (bytes, 0, 16);
  if (inet_pton (AF_INET, host, bytes) == 1)
    return AF_INET;
  if (inet_pton (AF_INET6, host, bytes) == 1)
    return AF_INET6;
  return 0;
}

/**
 * gst_tile_paths_check_addresses:
 * @hosts: what gst_tile_paths_parse() gave
 * @error: where the reason goes
 *
 * The checks that need no name resolution: literal addresses of one family
 * only (an IPv4 and an IPv6 address of the sender are the same host seen
 * two ways, not two paths one can balance), and no address twice however
 * it is written ("::1" and "0::1"). Names are checked when they connect
 * (two paths to the same address: the second is skipped).
 *
 * Returns: FALSE with @error set when the list fails them.
 */
gboolean
gst_tile_paths_check_addresses (gchar ** hosts, GError ** error)
{
  guint8 a[16], b[16];
  guint i, j;

  for (i = 0; hosts[i]; i++) {
    gint fi = literal_family (hosts[i], a);

    if (!fi)
      continue;
    for (j = 0; j < i; j++) {
      gint fj = literal_family (hosts[j], b);

      if (!fj)
        continue;
      if (fi != fj) {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
            "host list mixes IPv4 and IPv6 (\"%s\" and \"%s\"): give the "
            "sender's addresses of one family", hosts[j], hosts[i]);
        return FALSE;
      }
      if (memcmp (a, b, 16) == 0) {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
            "host list: \"%s\" and \"%s\" are the same address: each path "
            "needs its own address of the sender", hosts[j], hosts[i]);
        return FALSE;
      }
    }
  }
  return TRUE;
}
