/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Helpers shared by examples/sender.c and examples/receiver.c. */

#ifndef __TILE_EXAMPLE_H__
#define __TILE_EXAMPLE_H__

#include <gst/gst.h>

/* FALSE, with a message naming @prog, when element @name is not there */
static inline gboolean
example_check_element (const gchar * prog, const gchar * name,
    const gchar * hint)
{
  GstElementFactory *factory = gst_element_factory_find (name);

  if (factory == NULL) {
    g_printerr ("%s: element %s not found: %s\n", prog, name, hint);
    return FALSE;
  }
  gst_object_unref (factory);
  return TRUE;
}

/* a guint64 field, 0 when absent */
static inline guint64
example_get_u64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  if (s == NULL || !gst_structure_get_uint64 (s, field, &v))
    v = 0;
  return v;
}

/* a latency field (ns) in ms, or "-" when not there yet */
static inline gchar *
example_format_ms (const GstStructure * s, const gchar * field)
{
  guint64 ns;

  if (s == NULL || !gst_structure_get_uint64 (s, field, &ns))
    return g_strdup ("-");
  return g_strdup_printf ("%.2f", ns / 1e6);
}

/* What a running example shares with its signal and timeout handlers:
 * first member of Sender and Receiver */
typedef struct
{
  const gchar *prog;
  guint eos_timeout_s;          /* how long EOS may take after a signal */
  GMainLoop *loop;
  GstElement *pipeline;
  gint ret;
  gboolean eos_requested;
  guint eos_timeout_id;
} ExampleApp;

static inline gboolean
example_eos_timeout (gpointer user_data)
{
  ExampleApp *app = user_data;

  g_printerr ("%s: EOS did not go through within %d s, stopping\n",
      app->prog, app->eos_timeout_s);
  app->eos_timeout_id = 0;
  app->ret = 1;
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

/* SIGINT/SIGTERM: the first sends EOS (and gives it a few seconds), the
 * second stops at once */
static inline gboolean
example_on_signal (gpointer user_data)
{
  ExampleApp *app = user_data;

  if (app->eos_requested) {
    g_printerr ("%s: interrupted again, stopping now\n", app->prog);
    g_main_loop_quit (app->loop);
    return G_SOURCE_CONTINUE;
  }
  g_print ("%s: interrupted, sending EOS\n", app->prog);
  app->eos_requested = TRUE;
  gst_element_send_event (app->pipeline, gst_event_new_eos ());
  app->eos_timeout_id = g_timeout_add_seconds (app->eos_timeout_s,
      example_eos_timeout, app);
  return G_SOURCE_CONTINUE;
}

#endif /* __TILE_EXAMPLE_H__ */
