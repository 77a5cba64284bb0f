/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Fence waits and timer queries (see bcgl.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcgl.h"

GstBcGLFenceResult
gst_bc_gl_fence_wait (GstGLContext * context, GLsync fence,
    guint64 timeout_ns, gboolean * waited)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GLenum r;

  r = gl->ClientWaitSync (fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
  if (r == GL_TIMEOUT_EXPIRED && timeout_ns > 0) {
    if (waited)
      *waited = TRUE;
    r = gl->ClientWaitSync (fence, GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
  }
  switch (r) {
    case GL_ALREADY_SIGNALED:
    case GL_CONDITION_SATISFIED:
      return GST_BC_GL_FENCE_SIGNALED;
    case GL_TIMEOUT_EXPIRED:
      return GST_BC_GL_FENCE_TIMEOUT;
    default:
      return GST_BC_GL_FENCE_FAILED;
  }
}

gboolean
gst_bc_gl_context_has_timer_query (GstGLContext * context)
{
  const GstGLFuncs *gl;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), FALSE);

  gl = context->gl_vtable;
  return gst_gl_context_check_gl_version (context, GST_GL_API_OPENGL |
      GST_GL_API_OPENGL3, 3, 3) && gl->GenQueries && gl->BeginQuery &&
      gl->EndQuery && gl->GetQueryObjectuiv && gl->GetQueryObjectui64v &&
      gl->DeleteQueries;
}

gboolean
gst_bc_gl_query_get_result (GstGLContext * context, GLuint query, guint64 * ns)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GLuint available = 0;
  GLuint64 result = 0;

  gl->GetQueryObjectuiv (query, GL_QUERY_RESULT_AVAILABLE, &available);
  if (!available)
    return FALSE;
  gl->GetQueryObjectui64v (query, GL_QUERY_RESULT, &result);
  *ns = result;
  return TRUE;
}

struct _GstBcGLTimer
{
  GstGLContext *context;
  GLuint queries[GST_BC_GL_TIMER_QUERIES];
  gint64 begin_us[GST_BC_GL_TIMER_QUERIES];
  /* [head, head + busy) in flight; the one begun, or -1 */
  guint head, busy;
  gint current;
  guint64 frames, ns, invalid;
};

GstBcGLTimer *
gst_bc_gl_timer_new (GstGLContext * context)
{
  GstBcGLTimer *timer;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), NULL);

  if (!gst_bc_gl_context_has_timer_query (context))
    return NULL;
  timer = g_new0 (GstBcGLTimer, 1);
  timer->context = gst_object_ref (context);
  timer->current = -1;
  context->gl_vtable->GenQueries (GST_BC_GL_TIMER_QUERIES, timer->queries);
  return timer;
}

void
gst_bc_gl_timer_free (GstBcGLTimer * timer)
{
  if (!timer)
    return;
  timer->context->gl_vtable->DeleteQueries (GST_BC_GL_TIMER_QUERIES,
      timer->queries);
  gst_object_unref (timer->context);
  g_free (timer);
}

/* the finished queries, in order, without waiting */
static void
gst_bc_gl_timer_collect (GstBcGLTimer * timer)
{
  gint64 now_us = g_get_monotonic_time ();

  while (timer->busy > 0) {
    guint i = timer->head;
    guint64 ns = 0;

    if (!gst_bc_gl_query_get_result (timer->context, timer->queries[i], &ns))
      break;
    if (ns > (guint64) (now_us - timer->begin_us[i] + 1000) * 1000) {
      timer->invalid++;
    } else {
      timer->ns += ns;
      timer->frames++;
    }
    timer->head = (i + 1) % GST_BC_GL_TIMER_QUERIES;
    timer->busy--;
  }
}

gboolean
gst_bc_gl_timer_begin (GstBcGLTimer * timer)
{
  guint i;

  g_return_val_if_fail (timer != NULL && timer->current < 0, FALSE);

  gst_bc_gl_timer_collect (timer);
  if (timer->busy == GST_BC_GL_TIMER_QUERIES)
    return FALSE;
  i = (timer->head + timer->busy) % GST_BC_GL_TIMER_QUERIES;
  timer->begin_us[i] = g_get_monotonic_time ();
  timer->context->gl_vtable->BeginQuery (GL_TIME_ELAPSED, timer->queries[i]);
  timer->current = i;
  return TRUE;
}

void
gst_bc_gl_timer_end (GstBcGLTimer * timer)
{
  g_return_if_fail (timer != NULL && timer->current >= 0);

  timer->context->gl_vtable->EndQuery (GL_TIME_ELAPSED);
  timer->busy++;
  timer->current = -1;
}

void
gst_bc_gl_timer_take (GstBcGLTimer * timer, guint64 * frames, guint64 * ns,
    guint64 * invalid)
{
  *frames = timer->frames;
  *ns = timer->ns;
  *invalid = timer->invalid;
  timer->frames = timer->ns = timer->invalid = 0;
}
