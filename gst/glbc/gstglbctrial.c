/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload on trial: autopluggers (decodebin, uridecodebin, playbin and
 * their 3 versions) set a decoder to READY and ask whether it accepts the
 * caps. Here glbcupload makes its GL context with its errors held back
 * and says no, quietly, when GL cannot decode (gst_gl_bc_trial_accepts ());
 * a stream's caps (PAUSED on) post what fails. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbctrial.h"
#include "gstglbccontext.h"

#include <gst/bc/bc.h>

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug


/* The dummy display gst_gl_display_new () gives when no window system,
 * EGL platform or device could be opened: no GL context can be made on
 * it. (gst_gl_display_new_with_type () also makes displays of the plain
 * class for Win32 and EAGL, with their own type: those work.) */
static gboolean
is_dummy_display (GstGLDisplay * display)
{
  GstGLDisplayType type = gst_gl_display_get_handle_type (display);

  return type == GST_GL_DISPLAY_TYPE_NONE || type == GST_GL_DISPLAY_TYPE_ANY;
}

/* once per stay out of NULL: each caps event asks again */
static void
post_no_display (GstElement * self, GstGLBcTrial * t)
{
  gboolean posted;

  GST_OBJECT_LOCK (self);
  posted = t->no_display_posted;
  t->no_display_posted = TRUE;
  GST_OBJECT_UNLOCK (self);
  if (posted)
    return;
  GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No OpenGL display: "
          "glbcupload cannot decode on the GPU here; decode with bcdec "
          "instead"), ("GStreamer found no window system, EGL platform or "
          "EGL device that works (GST_GL_WINDOW=%s, GST_GL_PLATFORM=%s, "
          "DISPLAY=%s, WAYLAND_DISPLAY=%s); headless GL needs "
          "GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device",
          GST_STR_NULL (g_getenv ("GST_GL_WINDOW")),
          GST_STR_NULL (g_getenv ("GST_GL_PLATFORM")),
          GST_STR_NULL (g_getenv ("DISPLAY")),
          GST_STR_NULL (g_getenv ("WAYLAND_DISPLAY"))));
}

/* GstGLBaseFilter's search for a GL context (which also runs gl_start)
 * with the ERROR messages it posts held back: for an element on trial */
static gboolean
find_gl_context_quietly (GstGLBaseFilter * self, GstGLBcTrial * t)
{
  GstMessage *error;
  gboolean found;

  GST_OBJECT_LOCK (self);
  t->hold_errors = TRUE;
  GST_OBJECT_UNLOCK (self);

  found = gst_gl_base_filter_find_gl_context (self);
  /* a context found, but gl_start () failed on it: let it go (GstGLBaseFilter's
   * stop ()), so that the next search starts again */
  if (!found)
    GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_GL_BASE_FILTER))->stop
        (GST_BASE_TRANSFORM (self));

  GST_OBJECT_LOCK (self);
  t->hold_errors = FALSE;
  error = t->held_error;
  t->held_error = NULL;
  GST_OBJECT_UNLOCK (self);

  if (error) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (error, &err, &debug);
    GST_INFO_OBJECT (self, "no usable GL context: %s (%s)", err->message,
        GST_STR_NULL (debug));
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (error);
  }
  return found;
}

/* Whether GL can decode @caps here for @filter, asked with the caps (ACCEPT_CAPS on the
 * sink pad) until a GL context is found.
 *
 * An element in READY is on trial: decodebin, uridecodebin, playbin and
 * their 3 versions try a decoder by setting it to READY and asking whether
 * it accepts the caps, and take the next one (bcdec) when it does not.
 * decodebin keeps the errors a decoder posts meanwhile to itself, but
 * decodebin3 of GStreamer 1.22 lets them through to the application, and
 * fails. So on trial glbcupload makes its GL context now, with its errors
 * held back, and says no without an error when there is no display (on
 * the dummy display no context is even tried: GStreamer's X11 window
 * crashes on it), no context can be made, the context lacks what
 * glbcupload needs or cannot sample the format.
 *
 * From PAUSED on (the caps of a stream, glbcupload named in the pipeline)
 * the caps are accepted and the GL context is made as GstGLBaseFilter
 * does, which posts what fails, except without a display: then the caps
 * are refused with a RESOURCE/NOT_FOUND error saying so. */
gboolean
gst_gl_bc_trial_accepts (GstGLBaseFilter * filter, GstGLBcTrial * t,
    GstCaps * caps)
{
  GstElement *self = GST_ELEMENT (filter);
  GstGLBcFormatSupport support;
  GstGLContext *context;
  GstBcInfo info;
  gboolean trial;

  GST_OBJECT_LOCK (self);
  trial = GST_STATE (self) <= GST_STATE_READY;
  GST_OBJECT_UNLOCK (self);

  context = gst_gl_base_filter_get_gl_context (filter);
  if (!context) {
    if (!filter->display || is_dummy_display (filter->display)) {
      if (!trial)
        post_no_display (self, t);
      GST_INFO_OBJECT (self, "no OpenGL display: caps refused");
      return FALSE;
    }
    if (!trial)
      return TRUE;
    if (!find_gl_context_quietly (filter, t))
      return FALSE;
    context = gst_gl_base_filter_get_gl_context (filter);
    if (!context)
      return FALSE;
  }
  support.missing = NULL;
  if (trial && gst_bc_info_from_caps (&info, caps))
    gst_gl_bc_format_support (context, info.format, &support);
  gst_object_unref (context);
  if (support.missing) {
    GST_INFO_OBJECT (self, "the GL context cannot sample %s textures (it "
        "lacks %s): caps refused", gst_bc_format_to_string (info.format),
        support.missing);
    return FALSE;
  }
  return TRUE;
}

/* With the hold on (a context search on trial), keeps the first ERROR
 * message of @element instead of posting it; TRUE when @message was taken */
gboolean
gst_gl_bc_trial_hold (GstElement * element, GstGLBcTrial * t,
    GstMessage * message)
{
  if (GST_MESSAGE_TYPE (message) != GST_MESSAGE_ERROR ||
      GST_MESSAGE_SRC (message) != GST_OBJECT_CAST (element))
    return FALSE;
  GST_OBJECT_LOCK (element);
  if (!t->hold_errors) {
    GST_OBJECT_UNLOCK (element);
    return FALSE;
  }
  if (!t->held_error)
    t->held_error = message;
  else
    gst_message_unref (message);
  GST_OBJECT_UNLOCK (element);
  return TRUE;
}

/* NULL to READY: the "No OpenGL display" error may be posted again */
void
gst_gl_bc_trial_reset (GstElement * element, GstGLBcTrial * t)
{
  GST_OBJECT_LOCK (element);
  t->no_display_posted = FALSE;
  GST_OBJECT_UNLOCK (element);
}

void
gst_gl_bc_trial_clear (GstGLBcTrial * t)
{
  gst_clear_message (&t->held_error);
}
