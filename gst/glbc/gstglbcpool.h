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

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_gl_bc_upload_debug);

/* Whether the GL context can sample a format, and as what. */
typedef struct
{
  GLenum internal_format;       /* 0 when the context cannot sample it */
  const gchar *missing;         /* what the context lacks, or NULL */
} GstGLBcFormatSupport;

G_GNUC_INTERNAL
void          gst_gl_bc_format_support (GstGLContext * context,
                                        GstBcFormat format,
                                        GstGLBcFormatSupport * support);

/* What the context lacks for persistent coherent buffers and immutable
 * textures, or NULL. */
G_GNUC_INTERNAL
const gchar * gst_gl_bc_context_missing (GstGLContext * context);

/* A ring: one GL buffer object created with glBufferStorage and mapped
 * once, persistent and coherent, cut into slots of one frame each, and a
 * compressed texture per slot. Reference counted; the memories of a
 * GstGLBcPool's buffers hold a reference. */
typedef struct _GstGLBcRing GstGLBcRing;

G_GNUC_INTERNAL
GstGLBcRing * gst_gl_bc_ring_ref (GstGLBcRing * ring);

G_GNUC_INTERNAL
void          gst_gl_bc_ring_unref (GstGLBcRing * ring);

/* The ring and slot of a buffer made of one ring memory, else NULL. */
G_GNUC_INTERNAL
GstGLBcRing * gst_gl_bc_ring_from_buffer (GstBuffer * buffer, guint * slot);

G_GNUC_INTERNAL
const GstBcInfo * gst_gl_bc_ring_get_info (GstGLBcRing * ring);

G_GNUC_INTERNAL
GstGLContext * gst_gl_bc_ring_get_context (GstGLBcRing * ring);

/* GL thread only from here on */

typedef struct
{
  guint uploads;                /* glCompressedTexSubImage2D calls made now */
  guint stepped;                /* tiles of this filling uploaded earlier */
  gboolean all_stepped;         /* nothing was left to upload now */
  gboolean waited;              /* handing the slot out waited for the GPU */
  guint gl_errors;              /* GL errors of the early tile uploads */
} GstGLBcUploadResult;

/* Uploads the block rows of @slot not uploaded yet in its current filling. */
G_GNUC_INTERNAL
gboolean      gst_gl_bc_ring_upload_remaining (GstGLBcRing * ring, guint slot,
                                               GstGLBcUploadResult * result);

G_GNUC_INTERNAL
GLuint        gst_gl_bc_ring_get_texture (GstGLBcRing * ring, guint slot);

/* Fences @slot after its last use by the GPU. */
G_GNUC_INTERNAL
void          gst_gl_bc_ring_fence (GstGLBcRing * ring, guint slot);

/* Logs and counts glGetError() reports, with the debug category at DEBUG. */
G_GNUC_INTERNAL
guint         gst_gl_bc_check_gl_error (GstGLContext * context,
                                        GstObject * obj, const gchar * what);

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
GstGLBcRing * gst_gl_bc_pool_get_ring (GstGLBcPool * pool);

G_END_DECLS

#endif /* __GST_GL_BC_POOL_H__ */
