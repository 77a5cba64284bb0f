/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GL in the check tests, on a headless context (Mesa llvmpipe through
 * GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device): a probe in a child
 * process that tells whether a GL context can be made at all (a test exits
 * 77, skipped, only when it cannot), and, under AddressSanitizer, keeping
 * Mesa's driver loaded. A test that includes this header defines
 * _GNU_SOURCE under AddressSanitizer before any other include
 * (dl_iterate_phdr ()); its main () starts with gl_test_init () and
 * gl_test_check_init (). */

#ifndef __BC_TEST_GL_H__
#define __BC_TEST_GL_H__

#include <gst/check/gstcheck.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <gst/app/app.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gstbctest.h"

#ifdef __SANITIZE_ADDRESS__
#include <dlfcn.h>
#include <link.h>
#endif

#ifdef __SANITIZE_ADDRESS__
static inline int
gl_test_collect_driver (struct dl_phdr_info *info, size_t size, void *data)
{
  const gchar *name = info->dlpi_name;

  if (name && (g_str_has_suffix (name, "_dri.so") ||
          strstr (name, "libgallium") || strstr (name, "libLLVM")))
    g_ptr_array_add (data, g_strdup (name));
  return 0;
}
#endif

/* Under AddressSanitizer: Mesa unloads its driver (swrast_dri.so, LLVM)
 * when the last EGL display goes, and at exit before LeakSanitizer runs;
 * the driver's own allocations, whose roots were its globals, would then
 * be reported as leaks from an "<unknown module>", which no suppression
 * can name. Making the driver RTLD_NODELETE once it is loaded keeps those
 * roots, so LeakSanitizer still reports leaks in everything else. */
static inline void
gl_test_pin_driver (void)
{
#ifdef __SANITIZE_ADDRESS__
  GstGLDisplay *display = gst_gl_display_new ();
  GstGLContext *context = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i;

  /* loads the driver */
  gst_gl_display_create_context (display, NULL, &context, NULL);
  dl_iterate_phdr (gl_test_collect_driver, names);
  for (i = 0; i < names->len; i++)
    dlopen (g_ptr_array_index (names, i), RTLD_NOW | RTLD_NOLOAD |
        RTLD_NODELETE);
  g_ptr_array_unref (names);
  gst_clear_object (&context);
  gst_object_unref (display);
#endif
}

/* One GL display for every pipeline of a test process. Each pipeline
 * would make its own; with GST_GL_WINDOW=egl-device they all stand on the
 * device's one EGLDisplay, and when one pipeline's display is finalized
 * (eglTerminate) while the next pipeline makes its new context current,
 * that fails, rarely ("Failed to activate the GL Context" from glupload,
 * the sink then never leaves PAUSED). Applications share one display the
 * same way, through a GstContext. gl_test_release_display () at the end of
 * the test (a checked fixture) drops it before the leak check. */
static GstGLDisplay *gl_test_display;

static inline void
gl_test_share_display (GstElement * pipeline)
{
  GstContext *context;

  if (gl_test_display == NULL)
    gl_test_display = gst_gl_display_new ();
  context = gst_context_new (GST_GL_DISPLAY_CONTEXT_TYPE, TRUE);
  gst_context_set_gl_display (context, gl_test_display);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);
}

static inline void
gl_test_release_display (void)
{
  gst_clear_object (&gl_test_display);
}

static inline void
gl_test_print_renderer (GstGLContext * context, gpointer data)
{
  const GstGLFuncs *gl = context->gl_vtable;
  const gchar *renderer = (const gchar *) gl->GetString (GL_RENDERER);

  g_print ("GL_RENDERER: %s\n", renderer ? renderer : "?");
}

/* In the child that gl_test_renderer () starts, so that the test processes
 * start without GL: prints GL_RENDERER when a context can be made. */
static inline int
gl_test_probe (void)
{
  GstGLDisplay *display;
  GstGLContext *context = NULL;
  GError *error = NULL;
  gboolean ok;

  gst_init (NULL, NULL);
  gl_test_pin_driver ();
  display = gst_gl_display_new ();
  ok = gst_gl_display_create_context (display, NULL, &context, &error);
  if (ok)
    gst_gl_context_thread_add (context, gl_test_print_renderer, NULL);
  else
    g_printerr ("no GL context (%s)\n", error ? error->message : "?");
  g_clear_error (&error);
  gst_clear_object (&context);
  gst_object_unref (display);
  return ok ? 0 : 77;
}

/* Runs this test binary again as "--probe": GL_RENDERER when it could make
 * a GL context, else NULL (the test is then skipped). */
static inline gchar *
gl_test_renderer (void)
{
  gchar *argv[] = { (gchar *) "/proc/self/exe", (gchar *) "--probe", NULL };
  gchar *out = NULL, *line, *renderer = NULL;

  /* what the child says, not how it ends: a crash or a sanitizer report
   * after the context was made must fail the tests, not skip them */
  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
          NULL, NULL, NULL))
    return NULL;
  line = out ? strstr (out, "GL_RENDERER: ") : NULL;
  if (line) {
    line += strlen ("GL_RENDERER: ");
    renderer = g_strndup (line, strcspn (line, "\n"));
  }
  g_free (out);
  return renderer;
}

/* First in main (): the headless platform, unless the environment asks for
 * another one; run as "--probe", the probe, and the process ends there. */
static inline void
gl_test_init (int argc, char **argv)
{
  g_setenv ("GST_GL_PLATFORM", "egl", FALSE);
  g_setenv ("GST_GL_WINDOW", "egl-device", FALSE);
  if (argc == 2 && strcmp (argv[1], "--probe") == 0)
    exit (gl_test_probe ());
}

/* gst_check_init (), then the probe: FALSE, said on stderr, when no GL
 * context can be made (the test then exits 77: skipped). GL_RENDERER is
 * printed, and given in @renderer (nullable) to free. */
static inline gboolean
gl_test_check_init (int *argc, char ***argv, gchar ** renderer)
{
  gchar *r;

  gst_check_init (argc, argv);
  r = gl_test_renderer ();
  if (r == NULL) {
    g_printerr ("no GL context can be created: skipping\n");
    return FALSE;
  }
  g_print ("GL_RENDERER %s\n", r);
  if (renderer)
    *renderer = r;
  else
    g_free (r);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* the encoders' GL path in a pipeline                                     */

/* The encoder's `path` property (where its last frame was encoded) */
static inline gchar *
gl_test_enc_path (GstElement * enc)
{
  gchar *path = NULL;

  g_object_get (enc, "path", &path, NULL);
  fail_unless (path != NULL);
  return path;
}

/* appsrc ! glupload ! @enc ! appsink (@enc: an encoder and its
 * properties), playing with @caps (taken) on the source: the GL path; the
 * encoder is the TestPipe's element */
static inline void
gl_pipe_start (TestPipe * g, const gchar * enc, GstCaps * caps)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time "
      "! glupload ! %s name=enc ! appsink name=sink sync=false", enc);

  test_pipe_launch (g, desc, "enc");
  g_free (desc);
  gl_test_share_display (g->pipeline);
  g_object_set (g->src, "caps", caps, NULL);
  gst_caps_unref (caps);
  test_pipe_play (g);
}

static inline void
gl_pipe_push (TestPipe * g, GstBuffer * buf)
{
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (g->src), buf),
      GST_FLOW_OK);
}

/* New caps on the source (taken) */
static inline void
gl_pipe_set_caps (TestPipe * g, GstCaps * caps)
{
  g_object_set (g->src, "caps", caps, NULL);
  gst_caps_unref (caps);
}

/* In a child process (test_child_main ()): runs the pipeline @desc, whose
 * encoder is named "enc", until EOS or an error (PULL_TIMEOUT at most),
 * and prints "ok <its path property>", "error: <message> | <debug>" or
 * "timeout". The encoder tests' children in other GL contexts. */
static inline int
gl_test_child_run (const gchar * desc)
{
  GstElement *p;
  GstBus *bus;
  GstMessage *msg;
  int ret = 0;

  gst_init (NULL, NULL);
  p = gst_parse_launch (desc, NULL);
  if (p == NULL)
    return 1;
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  if (!msg) {
    g_print ("timeout\n");
    ret = 1;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    GstElement *enc = gst_bin_get_by_name (GST_BIN (p), "enc");
    gchar *path = NULL;

    g_object_get (enc, "path", &path, NULL);
    g_print ("ok %s\n", path);
    g_free (path);
    gst_object_unref (enc);
  } else {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_print ("error: %s | %s\n", err->message, dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  }
  /* no teardown: libglvnd's eglReleaseThread can double free when an
   * OpenGL ES context's thread ends (see glbcupload.c); the child has said
   * what it had to say (filesink flushed its file at EOS) */
  fflush (stdout);
  _exit (ret);
}

#endif /* __BC_TEST_GL_H__ */
