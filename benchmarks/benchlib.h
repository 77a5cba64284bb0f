/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Helpers shared by the C benchmark programs (bc-encode-bench,
 * bc-transport-bench, ...), as benchlib.py and benchlib.sh are by their
 * scripts. */

#ifndef __BENCHLIB_H__
#define __BENCHLIB_H__

#include <gst/gst.h>

#include <string.h>
#include <time.h>

/* Parses the command line, GStreamer's options included (which initialises
 * GStreamer). FALSE, with the message printed (after "@error_prefix: "
 * when not NULL), on a bad option. */
static inline gboolean
bench_parse_options (gint * argc, gchar *** argv, const GOptionEntry * entries,
    const gchar * parameter_string, const gchar * error_prefix)
{
  GOptionContext *ctx = g_option_context_new (parameter_string);
  GError *error = NULL;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, &error);
  if (!ok) {
    g_printerr ("%s%s%s\n", error_prefix ? error_prefix : "",
        error_prefix ? ": " : "", error->message);
    g_clear_error (&error);
  }
  g_option_context_free (ctx);
  return ok;
}

/* CLOCK_REALTIME in ns: comparable between the ends of a transport (and
 * with the GstReferenceTimestampMeta timestamp/x-unix of tilesrc) */
static inline guint64
bench_realtime_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_REALTIME, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
}

/* CLOCK_MONOTONIC in ns */
static inline guint64
bench_mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
}

/* Fills @data with pseudo-random bytes, xorshift64 from @state (not 0):
 * frames that do not compress. The last size % 8 bytes are their index. */
static inline void
bench_fill_random (guint8 * data, gsize size, guint64 state)
{
  guint64 x = state;
  gsize i;

  for (i = 0; i + 8 <= size; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    memcpy (data + i, &x, 8);
  }
  for (; i < size; i++)
    data[i] = (guint8) i;
}

/* Appends @str as a JSON string, null when NULL */
static inline void
bench_json_string (GString * s, const gchar * str)
{
  const gchar *p;

  if (!str) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_c (s, '"');
  for (p = str; *p; p++) {
    guchar c = *p;

    if (c == '"' || c == '\\')
      g_string_append_printf (s, "\\%c", c);
    else if (c < 0x20)
      g_string_append_printf (s, "\\u%04x", c);
    else
      g_string_append_c (s, c);
  }
  g_string_append_c (s, '"');
}

/* @e's statistics, to be freed: its "stats"; NULL when it has none or @e
 * is NULL */
static inline GstStructure *
bench_get_stats (GstElement * e)
{
  GObjectClass *klass;
  GstStructure *st = NULL;

  if (!e)
    return NULL;
  klass = G_OBJECT_GET_CLASS (e);
  if (g_object_class_find_property (klass, "stats"))
    g_object_get (e, "stats", &st, NULL);
  return st;
}

#endif /* __BENCHLIB_H__ */
