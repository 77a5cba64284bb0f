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
