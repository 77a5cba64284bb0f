/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the files of glbcupload's pool share (not glbcupload itself):
 *
 *  - gstglbcring.c: the ring's slots, their textures and fills, and the
 *    uploads from a slot into its texture;
 *  - gstglbcstep.c: the stepped uploads, tile by tile as the producer
 *    reports them complete;
 *  - gstglbcmemory.c: the allocator and memory of one slot;
 *  - gstglbcpool.c: the GstBufferPool.
 *
 * A fill of a slot starts when the pool hands the slot's buffer out and
 * lasts until the buffer comes back; each block row records the fill it
 * was last uploaded in, so glbcupload uploads only the rows still missing
 * when the frame is pushed, and a late stepped upload of an older fill
 * does nothing. */

#ifndef __GST_GL_BC_POOL_PRIVATE_H__
#define __GST_GL_BC_POOL_PRIVATE_H__

#include "gstglbcpool.h"

#include <gst/bc/bctilemeta.h>

G_BEGIN_DECLS

/* the most slots a ring has */
#define GST_GL_BC_RING_MAX_SLOTS 32

typedef void (GSTGLAPI * GstGLBcTexStorage2DFunc) (GLenum target,
    GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height);

/* One slot as glbc sees it */
typedef struct
{
  GLuint texture;
  gint fill;                    /* atomic: bumped whenever handed out */
  gboolean waited;              /* the last hand-out waited for the GPU */
  /* GL thread only */
  guint32 *row_fill;            /* the fill each block row holds */
  gint stepped_fill;            /* the fill the stepped counts are of */
  guint stepped_count;
  guint stepped_errors;
} GstGLBcSlot;

/* What glbc keeps with a ring: the ring's user data, freed with it on the
 * GL thread */
typedef struct
{
  GstGLWindow *window;          /* stepped uploads are queued to it */
  GstBcInfo info;
  GLenum internal_format;
  GstGLBcTexStorage2DFunc TexStorage2D;
  gint stepped;                 /* atomic */
  guint n_slots;
  GstGLBcSlot *slots;
} GstGLBcRingData;

static inline GstGLBcRingData *
gst_gl_bc_ring_get_data (GstBcGLBufferRing * ring)
{
  return (GstGLBcRingData *) gst_bc_gl_buffer_ring_get_user_data (ring);
}

/* gstglbcring.c */

/* A ring of @n_slots slots of @size bytes for frames of @info, and a
 * texture per slot. Any thread. */
G_GNUC_INTERNAL
GstBcGLBufferRing * gst_gl_bc_ring_new (GstGLContext * context,
                                        const GstBcInfo * info, gsize size,
                                        guint n_slots, GError ** error);

/* Whether tiles reported complete are uploaded at once. Any thread. */
G_GNUC_INTERNAL
void                gst_gl_bc_ring_set_stepped (GstBcGLBufferRing * ring,
                                                gboolean stepped);

/* Waits until the GPU is done with @slot, then starts its next fill. Any
 * thread: the pool's, as it hands the slot's buffer out. */
G_GNUC_INTERNAL
void                gst_gl_bc_ring_start_fill (GstBcGLBufferRing * ring,
                                               guint slot);

/* GL thread. Uploads block rows [@first, @first + @n) of @slot into its
 * texture. */
G_GNUC_INTERNAL
void                gst_gl_bc_ring_upload_rows (GstBcGLBufferRing * ring,
                                                guint slot, guint first,
                                                guint n);

/* gstglbcstep.c */

/* The GstBcTileMeta callback of the pool's buffers: on the producer's
 * thread, queues the upload of a complete tile to the GL thread without
 * waiting for it. */
G_GNUC_INTERNAL
void                gst_gl_bc_step_tile_complete (GstBuffer * buffer,
                                                  GstBcTileMeta * meta,
                                                  const GstBcTile * tile,
                                                  gpointer user_data);

/* gstglbcmemory.c */

/* A memory of @slot of @ring (a reference to the ring), @size bytes */
G_GNUC_INTERNAL
GstMemory *         gst_gl_bc_memory_new (GstBcGLBufferRing * ring,
                                          guint slot, gsize size);

G_END_DECLS

#endif /* __GST_GL_BC_POOL_PRIVATE_H__ */
