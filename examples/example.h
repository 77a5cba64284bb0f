/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Helpers shared by the examples: the command line and the pipeline (all
 * of them), the main loop, its bus watch and its signal handlers
 * (examples/sender.c and examples/receiver.c). */

#ifndef __EXAMPLE_H__
#define __EXAMPLE_H__

#include <gst/gst.h>
#include <glib-unix.h>
#include <signal.h>

/* Parses the command line, GStreamer's options included (which initialises
 * GStreamer); FALSE, with the message printed, on a bad option */
static inline gboolean
example_parse_options (int *argc, char ***argv, const GOptionEntry * entries,
    const gchar * parameter_string, const gchar * summary)
{
  GOptionContext *ctx = g_option_context_new (parameter_string);
  GError *err = NULL;
  gboolean ok;

  g_option_context_set_summary (ctx, summary);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, &err);
  if (!ok) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
  }
  g_option_context_free (ctx);
  return ok;
}

/* gst_parse_launch () of @desc; NULL, with a message naming @prog, when
 * the pipeline cannot be built */
static inline GstElement *
example_parse_launch (const gchar * prog, const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  if (pipeline == NULL || err != NULL) {
    g_printerr ("%s: could not build the pipeline: %s\n", prog,
        err ? err->message : "unknown error");
    g_clear_error (&err);
    if (pipeline)
      gst_object_unref (pipeline);
    return NULL;
  }
  return pipeline;
}

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

typedef struct _ExampleApp ExampleApp;

/* Called with each element message named ExampleApp.stats_name */
typedef void (*ExampleStatsFunc) (ExampleApp * app, const GstStructure * s);

/* What a running example shares with its bus watch, its signal and timeout
 * handlers: first member of Sender and Receiver */
struct _ExampleApp
{
  const gchar *prog;
  guint eos_timeout_s;          /* how long EOS may take after a signal */
  const gchar *stats_name;      /* the element's statistics message */
  ExampleStatsFunc on_stats;
  GMainLoop *loop;
  GstElement *pipeline;
  gint ret;
  gboolean eos_requested;
  guint eos_timeout_id;
  guint sig_int, sig_term;
};

/* The bus watch: statistics go to app->on_stats, a warning is printed,
 * an error printed and the main loop stopped with exit status 1, EOS stops
 * the main loop; a latency change (tilesrc's automatic latency) is
 * distributed, as gst-launch-1.0 does */
static inline gboolean
example_on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  ExampleApp *app = user_data;
  const GstStructure *s = gst_message_get_structure (msg);
  gboolean error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      if (s && gst_structure_has_name (s, app->stats_name))
        app->on_stats (app, s);
      break;
    case GST_MESSAGE_WARNING:
    case GST_MESSAGE_ERROR:
      if (error)
        gst_message_parse_error (msg, &err, &dbg);
      else
        gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("%s: %s from %s: %s\n%s%s", app->prog,
          error ? "error" : "warning", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "", dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      if (error) {
        app->ret = 1;
        g_main_loop_quit (app->loop);
      }
      break;
    case GST_MESSAGE_EOS:
      g_print ("%s: EOS\n", app->prog);
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_LATENCY:
      gst_bin_recalculate_latency (GST_BIN (app->pipeline));
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

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

/* Makes @app's main loop, watches its pipeline's bus
 * (example_on_bus_message), handles SIGINT/SIGTERM (example_on_signal) and
 * sets the pipeline to PLAYING. FALSE, with the error printed and app->ret
 * 1, when it does not start; example_stop () undoes it either way. */
static inline gboolean
example_start (ExampleApp * app)
{
  GstBus *bus = gst_element_get_bus (app->pipeline);
  GstMessage *msg;

  app->loop = g_main_loop_new (NULL, FALSE);
  gst_bus_add_watch (bus, example_on_bus_message, app);
  app->sig_int = g_unix_signal_add (SIGINT, example_on_signal, app);
  app->sig_term = g_unix_signal_add (SIGTERM, example_on_signal, app);
  if (gst_element_set_state (app->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE) {
    gst_object_unref (bus);
    return TRUE;
  }

  /* the error message (port in use, ...) is on the bus */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    example_on_bus_message (bus, msg, app);
    gst_message_unref (msg);
  } else {
    g_printerr ("%s: could not start the pipeline\n", app->prog);
  }
  gst_object_unref (bus);
  app->ret = 1;
  return FALSE;
}

/* Stops the pipeline, removes what example_start () added */
static inline void
example_stop (ExampleApp * app)
{
  GstBus *bus;

  g_source_remove (app->sig_int);
  g_source_remove (app->sig_term);
  if (app->eos_timeout_id)
    g_source_remove (app->eos_timeout_id);
  gst_element_set_state (app->pipeline, GST_STATE_NULL);
  bus = gst_element_get_bus (app->pipeline);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  g_main_loop_unref (app->loop);
}

#endif /* __EXAMPLE_H__ */
