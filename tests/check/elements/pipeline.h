/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Pipeline helpers shared by the element tests: parse a pipeline, find an
 * element, check the bus, wait for EOS, stop. Each fails the test on what
 * it does not expect; and run_child () for tests in a child process.
 * Define PULL_TIMEOUT before including. */

#ifndef __BC_TEST_PIPELINE_H__
#define __BC_TEST_PIPELINE_H__

#include <gst/check/gstcheck.h>

#ifndef PULL_TIMEOUT
#error "define PULL_TIMEOUT before including pipeline.h"
#endif

static inline GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  fail_unless (p != NULL && err == NULL, "cannot parse '%s': %s", desc,
      err ? err->message : "?");
  return p;
}

static inline GstElement *
get (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);

  fail_unless (e != NULL, "no element %s", name);
  return e;
}

/* Fails on any ERROR or WARNING message posted so far. */
static inline void
check_bus (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    fail ("%s from %s: %s (%s)", GST_MESSAGE_TYPE_NAME (msg),
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : "");
  }
  gst_object_unref (bus);
}

static inline void
wait_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (msg != NULL, "no EOS");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("error instead of EOS: %s (%s)", err->message, dbg ? dbg : "");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

static inline void
stop (GstElement * pipeline)
{
  check_bus (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

/* Runs this test binary again as "--child ARG" with the environment
 * variables of @env_extra (name, value, ..., NULL) added, fails unless it
 * exits with 0, and returns what it printed */
static inline gchar *
run_child (const gchar * arg, const gchar * const *env_extra)
{
  gchar *argv[] = { (gchar *) "/proc/self/exe", (gchar *) "--child",
    (gchar *) arg, NULL
  };
  gchar **env = g_get_environ ();
  gchar *out = NULL, *err_out = NULL;
  GError *error = NULL;
  gint status = 0;
  guint i;

  for (i = 0; env_extra[i]; i += 2)
    env = g_environ_setenv (env, env_extra[i], env_extra[i + 1], TRUE);
  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err_out, &status, &error), "cannot run the child: %s",
      error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL), "the child failed: "
      "%s%s", out, err_out);
  g_strfreev (env);
  g_free (err_out);
  return out;
}

#endif /* __BC_TEST_PIPELINE_H__ */
