/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The persistent, coherent mapped ring of slots (see bcglring.h).
 *
 * A slot's fence is written on the GL thread only; other threads read it
 * atomically (gst_bc_gl_buffer_ring_is_fenced ()) to skip a trip to the GL
 * thread when the GPU is known to be done with the slot. The reference
 * count is atomic; the last unref runs the deletion on the GL thread
 * (directly when it is on it already). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcglring.h"

#define PERSISTENT_COHERENT (GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)

struct _GstBcGLBufferRing
{
  gint refcount;                /* atomic */
  GstGLContext *context;
  GLenum target;
  GLuint buffer;
  guint8 *map;
  gsize slot_size;
  gsize stride;                 /* bytes between slots */
  guint n_slots;
  GLsync *fences;               /* atomic pointers, written on the GL thread */
  gpointer user_data;
  GstBcGLBufferRingFreeFunc free_user_data;
};

const gchar *
gst_bc_gl_buffer_ring_context_missing (GstGLContext * context)
{
  const GstGLFuncs *gl;
  gboolean gles;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), "a GL context");

  gl = context->gl_vtable;
  gles = (gst_gl_context_get_gl_api (context) & (GST_GL_API_OPENGL |
          GST_GL_API_OPENGL3)) == 0;
  if (gl->BufferStorage == NULL)
    return gles ? "GL_EXT_buffer_storage (glBufferStorage)" :
        "GL_ARB_buffer_storage (glBufferStorage, OpenGL 4.4)";
  if (gl->MapBufferRange == NULL || gl->UnmapBuffer == NULL ||
      gl->FenceSync == NULL || gl->ClientWaitSync == NULL ||
      gl->DeleteSync == NULL)
    return "sync objects and glMapBufferRange (OpenGL 3.2, OpenGL ES 3.0)";
  return NULL;
}

GstBcGLBufferRing *
gst_bc_gl_buffer_ring_new (GstGLContext * context, GLenum target,
    GLbitfield flags, gsize slot_size, gsize align, guint n_slots,
    GError ** error)
{
  const GstGLFuncs *gl;
  GstBcGLBufferRing *ring;
  GLbitfield access = flags & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
  gsize stride, total;
  GLenum err;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), NULL);
  g_return_val_if_fail (slot_size > 0 && align > 0 && n_slots > 0, NULL);
  g_return_val_if_fail (access != 0, NULL);

  gl = context->gl_vtable;

  /* the buffer's size must fit GLsizeiptr (signed) */
  stride = 0;
  if (slot_size <= (gsize) G_MAXSSIZE - (align - 1))
    stride = (slot_size + align - 1) / align * align;
  if (stride == 0 || stride > (gsize) G_MAXSSIZE / n_slots) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "A GL buffer of %u slots of %" G_GSIZE_FORMAT " bytes is too large",
        n_slots, slot_size);
    return NULL;
  }
  total = stride * n_slots;

  ring = g_new0 (GstBcGLBufferRing, 1);
  ring->refcount = 1;
  ring->context = gst_object_ref (context);
  ring->target = target;
  ring->slot_size = slot_size;
  ring->stride = stride;
  ring->n_slots = n_slots;
  ring->fences = g_new0 (GLsync, n_slots);

  while (gl->GetError () != GL_NO_ERROR);       /* not ours */
  gl->GenBuffers (1, &ring->buffer);
  gl->BindBuffer (target, ring->buffer);
  gl->BufferStorage (target, (GLsizeiptr) total, NULL,
      flags | PERSISTENT_COHERENT);
  err = gl->GetError ();
  if (err == GL_NO_ERROR) {
    ring->map = gl->MapBufferRange (target, 0, (GLsizeiptr) total,
        access | PERSISTENT_COHERENT);
    err = gl->GetError ();
  }
  gl->BindBuffer (target, 0);
  if (err != GL_NO_ERROR || ring->map == NULL) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "Could not create and map a persistent, coherent GL buffer of %"
        G_GSIZE_FORMAT " bytes (glBufferStorage/glMapBufferRange: GL error "
        "0x%x)", total, err);
    ring->map = NULL;
    gst_bc_gl_buffer_ring_unref (ring);
    return NULL;
  }
  return ring;
}

GstBcGLBufferRing *
gst_bc_gl_buffer_ring_ref (GstBcGLBufferRing * ring)
{
  g_return_val_if_fail (ring != NULL, NULL);

  g_atomic_int_inc (&ring->refcount);
  return ring;
}

static void
ring_free_gl (GstGLContext * context, GstBcGLBufferRing * ring)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint i;

  if (ring->free_user_data)
    ring->free_user_data (context, ring->user_data);
  for (i = 0; i < ring->n_slots; i++)
    gst_bc_gl_buffer_ring_clear_fence (ring, i);
  if (ring->buffer) {
    if (ring->map) {
      gl->BindBuffer (ring->target, ring->buffer);
      gl->UnmapBuffer (ring->target);
      gl->BindBuffer (ring->target, 0);
    }
    gl->DeleteBuffers (1, &ring->buffer);
  }
}

void
gst_bc_gl_buffer_ring_unref (GstBcGLBufferRing * ring)
{
  g_return_if_fail (ring != NULL);

  if (!g_atomic_int_dec_and_test (&ring->refcount))
    return;
  gst_gl_context_thread_add (ring->context,
      (GstGLContextThreadFunc) ring_free_gl, ring);
  g_free (ring->fences);
  gst_object_unref (ring->context);
  g_free (ring);
}

void
gst_bc_gl_buffer_ring_set_user_data (GstBcGLBufferRing * ring,
    gpointer user_data, GstBcGLBufferRingFreeFunc free_gl)
{
  g_return_if_fail (ring != NULL && ring->free_user_data == NULL);

  ring->user_data = user_data;
  ring->free_user_data = free_gl;
}

gpointer
gst_bc_gl_buffer_ring_get_user_data (GstBcGLBufferRing * ring)
{
  return ring->user_data;
}

GstGLContext *
gst_bc_gl_buffer_ring_get_context (GstBcGLBufferRing * ring)
{
  return ring->context;
}

gsize
gst_bc_gl_buffer_ring_get_slot_size (GstBcGLBufferRing * ring)
{
  return ring->slot_size;
}

GLuint
gst_bc_gl_buffer_ring_get_buffer (GstBcGLBufferRing * ring)
{
  return ring->buffer;
}

guint
gst_bc_gl_buffer_ring_get_n_slots (GstBcGLBufferRing * ring)
{
  return ring->n_slots;
}

gsize
gst_bc_gl_buffer_ring_get_offset (GstBcGLBufferRing * ring, guint slot)
{
  g_return_val_if_fail (slot < ring->n_slots, 0);

  return ring->stride * slot;
}

guint8 *
gst_bc_gl_buffer_ring_get_data (GstBcGLBufferRing * ring, guint slot)
{
  g_return_val_if_fail (slot < ring->n_slots, NULL);

  return ring->map + ring->stride * slot;
}

gboolean
gst_bc_gl_buffer_ring_is_fenced (GstBcGLBufferRing * ring, guint slot)
{
  g_return_val_if_fail (slot < ring->n_slots, FALSE);

  return g_atomic_pointer_get (&ring->fences[slot]) != NULL;
}

void
gst_bc_gl_buffer_ring_fence (GstBcGLBufferRing * ring, guint slot)
{
  const GstGLFuncs *gl = ring->context->gl_vtable;

  g_return_if_fail (slot < ring->n_slots);

  if (ring->fences[slot])
    gl->DeleteSync (ring->fences[slot]);
  g_atomic_pointer_set (&ring->fences[slot],
      gl->FenceSync (GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
  gl->Flush ();
}

void
gst_bc_gl_buffer_ring_clear_fence (GstBcGLBufferRing * ring, guint slot)
{
  const GstGLFuncs *gl = ring->context->gl_vtable;
  GLsync fence;

  g_return_if_fail (slot < ring->n_slots);

  fence = ring->fences[slot];
  if (fence == NULL)
    return;
  g_atomic_pointer_set (&ring->fences[slot], NULL);
  gl->DeleteSync (fence);
}

GstBcGLFenceResult
gst_bc_gl_buffer_ring_wait (GstBcGLBufferRing * ring, guint slot,
    guint64 timeout_ns, gboolean * waited)
{
  GstBcGLFenceResult r;

  g_return_val_if_fail (slot < ring->n_slots, GST_BC_GL_FENCE_FAILED);

  if (ring->fences[slot] == NULL)
    return GST_BC_GL_FENCE_SIGNALED;
  r = gst_bc_gl_fence_wait (ring->context, ring->fences[slot], timeout_ns,
      waited);
  if (r == GST_BC_GL_FENCE_SIGNALED)
    gst_bc_gl_buffer_ring_clear_fence (ring, slot);
  return r;
}

guint
gst_bc_gl_buffer_ring_reap (GstBcGLBufferRing * ring, guint except)
{
  guint i, n = 0;

  for (i = 0; i < ring->n_slots; i++) {
    if (i == except || ring->fences[i] == NULL)
      continue;
    if (gst_bc_gl_fence_wait (ring->context, ring->fences[i], 0,
            NULL) != GST_BC_GL_FENCE_TIMEOUT) {
      gst_bc_gl_buffer_ring_clear_fence (ring, i);
      n++;
    }
  }
  return n;
}
