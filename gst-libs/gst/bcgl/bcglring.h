/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_GL_RING_H__
#define __GST_BC_GL_RING_H__

#include <gst/bcgl/bcgl.h>

G_BEGIN_DECLS

/* A ring of slots in one GL buffer object made with glBufferStorage () and
 * mapped once, persistent and coherent (GL_MAP_PERSISTENT_BIT |
 * GL_MAP_COHERENT_BIT), with a fence per slot: what the CPU writes into a
 * slot through the mapping the GPU sees without a flush, and what the GPU
 * writes there (after a glMemoryBarrier
 * (GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)) the CPU reads once the slot's
 * fence has signalled. The user fences a slot after the GPU work that uses
 * it and waits for the fence before the CPU touches the slot again.
 *
 * The one ring of the GL encoder (bcglencode.c: the GPU writes, the CPU
 * reads) and of glbcupload's buffer pool (gst/glbc/gstglbcring.c: the CPU
 * writes, the GPU reads); what each keeps per slot (the encoder's slot
 * states and timer queries, glbcupload's textures and fills) is the ring's
 * user data. Reference counted (the memories that hand a slot out hold a
 * reference): made on the GL thread, and the last reference, dropped on
 * any thread, deletes it on its context's GL thread. */
typedef struct _GstBcGLBufferRing GstBcGLBufferRing;

/* GL thread: frees @user_data, and the GL objects it holds, when the ring
 * goes (gst_bc_gl_buffer_ring_set_user_data ()) */
typedef void (*GstBcGLBufferRingFreeFunc) (GstGLContext * context,
                                           gpointer user_data);

/* What @context lacks for a ring (glBufferStorage, glMapBufferRange and
 * sync objects), or NULL. Any thread. */
G_GNUC_INTERNAL
const gchar *       gst_bc_gl_buffer_ring_context_missing (GstGLContext * context);

/* GL thread. A ring of @n_slots slots of @slot_size bytes each, every slot
 * starting at a multiple of @align bytes, in a buffer object made for
 * @target. @flags: GL_MAP_READ_BIT (the CPU reads what the GPU writes)
 * and/or GL_MAP_WRITE_BIT (the GPU reads what the CPU writes), and
 * optionally GL_CLIENT_STORAGE_BIT (a hint for glBufferStorage only).
 * NULL with @error set when the GL implementation refuses the buffer or
 * its mapping. One reference, the caller's. */
G_GNUC_INTERNAL
GstBcGLBufferRing * gst_bc_gl_buffer_ring_new (GstGLContext * context,
                                               GLenum target,
                                               GLbitfield flags,
                                               gsize slot_size,
                                               gsize align, guint n_slots,
                                               GError ** error);

/* Any thread */
G_GNUC_INTERNAL
GstBcGLBufferRing * gst_bc_gl_buffer_ring_ref (GstBcGLBufferRing * ring);

/* Any thread. The last reference, on the ring's GL thread: frees the user
 * data, deletes the fences, unmaps and deletes the buffer object; the
 * slots' memory is gone with it. */
G_GNUC_INTERNAL
void                gst_bc_gl_buffer_ring_unref (GstBcGLBufferRing * ring);

/* Any thread from here to gst_bc_gl_buffer_ring_is_fenced () */

/* The ring user's data, which @free_gl frees when the ring goes: set once,
 * before the ring is shared. */
G_GNUC_INTERNAL
void     gst_bc_gl_buffer_ring_set_user_data (GstBcGLBufferRing * ring,
                                              gpointer user_data,
                                              GstBcGLBufferRingFreeFunc free_gl);
G_GNUC_INTERNAL
gpointer gst_bc_gl_buffer_ring_get_user_data (GstBcGLBufferRing * ring);

/* The context the ring was made on (not reffed), the buffer object's
 * name, the number of slots, the bytes of a slot (as asked), where @slot
 * starts in the buffer object (in bytes) and its mapping (slot_size
 * bytes) */
G_GNUC_INTERNAL
GstGLContext * gst_bc_gl_buffer_ring_get_context (GstBcGLBufferRing * ring);
G_GNUC_INTERNAL
GLuint   gst_bc_gl_buffer_ring_get_buffer (GstBcGLBufferRing * ring);
G_GNUC_INTERNAL
guint    gst_bc_gl_buffer_ring_get_n_slots (GstBcGLBufferRing * ring);
G_GNUC_INTERNAL
gsize    gst_bc_gl_buffer_ring_get_slot_size (GstBcGLBufferRing * ring);
G_GNUC_INTERNAL
gsize    gst_bc_gl_buffer_ring_get_offset (GstBcGLBufferRing * ring, guint slot);
G_GNUC_INTERNAL
guint8 * gst_bc_gl_buffer_ring_get_data (GstBcGLBufferRing * ring, guint slot);

/* Whether @slot has a fence that nobody has seen signal yet: FALSE means
 * the GPU is known to be done with the slot. */
G_GNUC_INTERNAL
gboolean            gst_bc_gl_buffer_ring_is_fenced (GstBcGLBufferRing * ring,
                                                     guint slot);

/* GL thread from here on */

/* Fences @slot after the GPU commands issued so far (replacing its
 * previous fence) and flushes them. */
G_GNUC_INTERNAL
void                gst_bc_gl_buffer_ring_fence (GstBcGLBufferRing * ring,
                                                 guint slot);

/* Waits for the fence of @slot as gst_bc_gl_fence_wait () does; when it
 * has signalled (or there is none), the fence is deleted. Other results
 * keep it (gst_bc_gl_buffer_ring_clear_fence () drops it). */
G_GNUC_INTERNAL
GstBcGLFenceResult  gst_bc_gl_buffer_ring_wait (GstBcGLBufferRing * ring,
                                                guint slot,
                                                guint64 timeout_ns,
                                                gboolean * waited);

/* Deletes the fence of @slot without waiting: the slot is taken as free. */
G_GNUC_INTERNAL
void                gst_bc_gl_buffer_ring_clear_fence (GstBcGLBufferRing * ring,
                                                       guint slot);

/* Deletes, without waiting, the fences of the slots other than @except
 * that have signalled (or failed), so that taking those slots needs no
 * trip to the GL thread; returns how many it deleted. */
G_GNUC_INTERNAL
guint               gst_bc_gl_buffer_ring_reap (GstBcGLBufferRing * ring,
                                                guint except);

G_END_DECLS

#endif /* __GST_BC_GL_RING_H__ */
