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

#endif /* __BENCHLIB_H__ */
