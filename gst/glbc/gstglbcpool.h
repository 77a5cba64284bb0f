/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_GL_BC_POOL_H__
#define __GST_GL_BC_POOL_H__

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <gst/bc/bcformat.h>
#include <gst/bcgl/bcglring.h>

#include "gstglbccontext.h"

G_BEGIN_DECLS

/* The buffer pool glbcupload offers upstream, and what glbcupload does with
 * its buffers. The pool's ring is a GstBcGLBufferRing (libgstbcgl: one GL
 * buffer object created with glBufferStorage and mapped once, persistent
 * and coherent, cut into slots of one frame each), and glbc keeps with it
 * a compressed texture per slot and what each slot's fill has uploaded
 * (gstglbcpoolprivate.h). The gst_gl_bc_ring_* functions take the ring of
 * a GstGLBcPool only. The memories of the pool's buffers hold a reference
 * to the ring. */

/* The ring and slot of a buffer made of one memory of a GstGLBcPool's
 * ring, else NULL (not reffed: the buffer holds it). Any thread. */
G_GNUC_INTERNAL
GstBcGLBufferRing * gst_gl_bc_ring_from_buffer (GstBuffer * buffer,
                                                guint * slot);

/* The frames the ring holds. Any thread. */
G_GNUC_INTERNAL
const GstBcInfo *   gst_gl_bc_ring_get_info (GstBcGLBufferRing * ring);

/* GL thread only from here on */

typedef struct
{
  guint uploads;                /* glCompressedTexSubImage2D calls made now */
  guint stepped;                /* tiles of this fill uploaded before */
  gboolean all_stepped;         /* nothing was left to upload now */
  gboolean waited;              /* handing the slot out waited for the GPU */
  guint gl_errors;              /* GL errors of the stepped tile uploads */
} GstGLBcUploadResult;

/* Uploads the block rows of @slot not uploaded yet in its current fill. */
G_GNUC_INTERNAL
gboolean      gst_gl_bc_ring_upload_remaining (GstBcGLBufferRing * ring,
                                               guint slot,
                                               GstGLBcUploadResult * result);

/* The compressed texture of @slot */
G_GNUC_INTERNAL
GLuint        gst_gl_bc_ring_get_texture (GstBcGLBufferRing * ring,
                                          guint slot);

/* Fences @slot after its last use by the GPU. */
G_GNUC_INTERNAL
void          gst_gl_bc_ring_fence (GstBcGLBufferRing * ring, guint slot);

#define GST_TYPE_GL_BC_POOL (gst_gl_bc_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstGLBcPool, gst_gl_bc_pool, GST, GL_BC_POOL,
    GstBufferPool)

G_GNUC_INTERNAL
GstBufferPool * gst_gl_bc_pool_new (GstGLContext * context);

G_GNUC_INTERNAL
void          gst_gl_bc_pool_set_stepped (GstGLBcPool * pool,
                                          gboolean stepped);

/* (transfer full) (nullable): the ring of an active pool */
G_GNUC_INTERNAL
GstBcGLBufferRing * gst_gl_bc_pool_get_ring (GstGLBcPool * pool);

G_END_DECLS

#endif /* __GST_GL_BC_POOL_H__ */
