/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/*
 * The buffer pool glbcupload offers upstream: a ring of frame slots in one
 * GL buffer object created with glBufferStorage() and mapped once with
 * GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT | GL_MAP_WRITE_BIT
 * (libgstbcgl's GstBcGLBufferRing), so what the producer writes into a
 * buffer is GPU-visible memory, never copied on the CPU again. Each slot
 * has its own immutable compressed texture: while glbcupload draws frame N
 * from slot A, tiles of frame N + 1 can already be uploaded into slot B's
 * texture.
 *
 * Every buffer carries a GstBcTileMeta. When its producer reports a tile
 * complete (on the producer's thread), the block rows of that tile are
 * queued to the GL thread with gst_gl_window_send_message_async() and
 * uploaded there with glCompressedTexSubImage2D() from the mapped buffer
 * (bound as GL_PIXEL_UNPACK_BUFFER), while the other tiles still arrive.
 * The producer's thread does not wait for the GL thread.
 *
 * A filling ("generation") of a slot starts when the pool hands the buffer
 * out; each block row records the generation it was last uploaded in, so
 * glbcupload uploads only the rows still missing when the frame is pushed,
 * and a late upload job of an older filling does nothing.
 *
 * After drawing from a slot glbcupload puts a fence (GLsync) on it; the
 * pool hands the slot out again only once the GPU has passed that fence,
 * so a producer never overwrites bytes the GPU may still read.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcpool.h"

#include <gst/bc/bctilemeta.h>
#include <string.h>

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

/* slots start on page boundaries */
#define SLOT_ALIGN 4096
/* the most slots a ring has */
#define MAX_SLOTS 32
/* slots when the pool's user leaves the count open */
#define DEFAULT_SLOTS 4
/* how long handing out a slot waits for the GPU before giving up */
#define FENCE_TIMEOUT_NS (5 * G_GUINT64_CONSTANT (1000000000))

typedef void (GSTGLAPI * TexStorage2DFunc) (GLenum target, GLsizei levels,
    GLenum internalformat, GLsizei width, GLsizei height);

/* ---------------------------------------------------------------------- */
/* What the context can do                                                 */
/* ---------------------------------------------------------------------- */

static gboolean
context_is_gles (GstGLContext * context)
{
  return (gst_gl_context_get_gl_api (context) & (GST_GL_API_OPENGL |
          GST_GL_API_OPENGL3)) == 0;
}

static gboolean
have_desktop (GstGLContext * context, gint maj, gint min, const gchar * ext)
{
  return gst_gl_context_check_gl_version (context,
      GST_GL_API_OPENGL | GST_GL_API_OPENGL3, maj, min)
      || (ext && gst_gl_context_check_feature (context, ext));
}

const gchar *
gst_gl_bc_context_missing (GstGLContext * context)
{
  const GstGLFuncs *gl = context->gl_vtable;
  gboolean gles = context_is_gles (context);
  const gchar *missing;

  if (gles) {
    if (!gst_gl_context_check_gl_version (context, GST_GL_API_GLES2, 3, 0))
      return "OpenGL ES 3.0";
  } else if (!gst_gl_context_check_gl_version (context,
          GST_GL_API_OPENGL | GST_GL_API_OPENGL3, 3, 3)) {
    return "OpenGL 3.3";
  }
  missing = gst_bc_gl_buffer_ring_context_missing (context);
  if (missing)
    return missing;
  if (!gl->CompressedTexSubImage2D || !gl->GenVertexArrays)
    return gles ? "OpenGL ES 3.0" : "OpenGL 3.3";
  if (!gles && !have_desktop (context, 4, 2, "GL_ARB_texture_storage"))
    return "GL_ARB_texture_storage (glTexStorage2D, OpenGL 4.2)";
  if (!gst_gl_context_get_proc_address (context, "glTexStorage2D"))
    return "glTexStorage2D";
  return NULL;
}

void
gst_gl_bc_format_support (GstGLContext * context, GstBcFormat format,
    GstGLBcFormatSupport * support)
{
  gboolean gles = context_is_gles (context);
  const gchar *need = NULL;
  gboolean ok = FALSE;

  support->internal_format = 0;
  switch (format) {
    case GST_BC_FORMAT_BC1:
    case GST_BC_FORMAT_BC3:
    case GST_BC_FORMAT_YCOCG_BC3:
      need = "GL_EXT_texture_compression_s3tc";
      ok = gst_gl_context_check_feature (context, need);
      support->internal_format = format == GST_BC_FORMAT_BC1 ?
          GL_COMPRESSED_RGB_S3TC_DXT1_EXT : GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
      break;
    case GST_BC_FORMAT_BC4:
    case GST_BC_FORMAT_BC5:
      if (gles) {
        need = "GL_EXT_texture_compression_rgtc";
        ok = gst_gl_context_check_feature (context, need);
      } else {
        need = "GL_ARB_texture_compression_rgtc (OpenGL 3.0)";
        ok = have_desktop (context, 3, 0, "GL_ARB_texture_compression_rgtc");
      }
      support->internal_format = format == GST_BC_FORMAT_BC4 ?
          GL_COMPRESSED_RED_RGTC1 : GL_COMPRESSED_RG_RGTC2;
      break;
    case GST_BC_FORMAT_BC7:
      if (gles) {
        need = "GL_EXT_texture_compression_bptc";
        ok = gst_gl_context_check_feature (context, need);
      } else {
        need = "GL_ARB_texture_compression_bptc (OpenGL 4.2)";
        ok = have_desktop (context, 4, 2, "GL_ARB_texture_compression_bptc");
      }
      support->internal_format = GL_COMPRESSED_RGBA_BPTC_UNORM;
      break;
    default:
      need = "a block-compressed format";
      break;
  }
  if (!ok)
    support->internal_format = 0;
  support->missing = ok ? NULL : need;
}

/* Logs, and counts, what glGetError() reports after @what. Only when the
 * debug category is at DEBUG or more: glGetError() can stall a GPU
 * pipeline. */
guint
gst_gl_bc_check_gl_error (GstGLContext * context, GstObject * obj,
    const gchar * what)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint n = 0;
  GLenum err;

  if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) < GST_LEVEL_DEBUG)
    return 0;
  while ((err = gl->GetError ()) != GL_NO_ERROR && n < 16) {
    GST_ERROR_OBJECT (obj, "GL error 0x%x after %s", err, what);
    n++;
  }
  return n;
}

/* ---------------------------------------------------------------------- */
/* The ring                                                                */
/* ---------------------------------------------------------------------- */

typedef struct
{
  GLuint texture;
  gint gen;                     /* atomic: bumped whenever handed out */
  gboolean waited;              /* the last hand-out waited for the GPU */
  /* GL thread only */
  guint32 *row_gen;             /* the generation each block row holds */
  gint stepped_gen;
  guint stepped_count;
  guint stepped_errors;
} GstGLBcSlot;

struct _GstGLBcRing
{
  gint refcount;
  GstGLContext *context;
  GstGLWindow *window;
  GstBcInfo info;
  GLenum internal_format;
  TexStorage2DFunc TexStorage2D;
  GstBcGLBufferRing *buffer;    /* the slots' bytes and fences */
  gsize size;                   /* bytes of a buffer */
  guint n_slots;
  GstGLBcSlot *slots;
  gint stepped;                 /* atomic */
  GError *error;                /* creation */
};

GstGLBcRing *
gst_gl_bc_ring_ref (GstGLBcRing * ring)
{
  g_atomic_int_inc (&ring->refcount);
  return ring;
}

static void
ring_free_gl (GstGLContext * context, GstGLBcRing * ring)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint i;

  for (i = 0; i < ring->n_slots; i++) {
    GstGLBcSlot *s = &ring->slots[i];

    if (s->texture)
      gl->DeleteTextures (1, &s->texture);
    s->texture = 0;
  }
  g_clear_pointer (&ring->buffer, gst_bc_gl_buffer_ring_unref);
}

void
gst_gl_bc_ring_unref (GstGLBcRing * ring)
{
  guint i;

  if (!g_atomic_int_dec_and_test (&ring->refcount))
    return;

  GST_DEBUG ("freeing ring %p (%u slots)", ring, ring->n_slots);
  gst_gl_context_thread_add (ring->context,
      (GstGLContextThreadFunc) ring_free_gl, ring);
  for (i = 0; i < ring->n_slots; i++)
    g_free (ring->slots[i].row_gen);
  g_free (ring->slots);
  g_clear_error (&ring->error);
  gst_clear_object (&ring->window);
  gst_object_unref (ring->context);
  g_free (ring);
}

static void
ring_create_gl (GstGLContext * context, GstGLBcRing * ring)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GLenum err;
  guint i;

  /* the CPU writes, the GPU reads */
  ring->buffer = gst_bc_gl_buffer_ring_new (context, GL_PIXEL_UNPACK_BUFFER,
      GL_MAP_WRITE_BIT, ring->size, SLOT_ALIGN, ring->n_slots, &ring->error);
  if (!ring->buffer)
    return;

  for (i = 0; i < ring->n_slots; i++) {
    GstGLBcSlot *s = &ring->slots[i];

    gl->GenTextures (1, &s->texture);
    gl->BindTexture (GL_TEXTURE_2D, s->texture);
    ring->TexStorage2D (GL_TEXTURE_2D, 1, ring->internal_format,
        ring->info.padded_width, ring->info.padded_height);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  gl->BindTexture (GL_TEXTURE_2D, 0);
  err = gl->GetError ();
  if (err != GL_NO_ERROR) {
    g_set_error (&ring->error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "glTexStorage2D of %u %ux%u textures (format 0x%x) failed (GL "
        "error 0x%x)", ring->n_slots, ring->info.padded_width,
        ring->info.padded_height, ring->internal_format, err);
  }
}

static GstGLBcRing *
ring_new (GstGLContext * context, const GstBcInfo * info, gsize size,
    guint n_slots, GError ** error)
{
  GstGLBcRing *ring;
  GstGLBcFormatSupport support;
  const gchar *missing;
  guint i;

  missing = gst_gl_bc_context_missing (context);
  gst_gl_bc_format_support (context, info->format, &support);
  if (missing || support.missing) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "the GL context lacks %s", missing ? missing : support.missing);
    return NULL;
  }

  ring = g_new0 (GstGLBcRing, 1);
  ring->refcount = 1;
  ring->context = gst_object_ref (context);
  ring->window = gst_gl_context_get_window (context);
  ring->info = *info;
  ring->internal_format = support.internal_format;
  ring->TexStorage2D = (TexStorage2DFunc)
      gst_gl_context_get_proc_address (context, "glTexStorage2D");
  ring->size = size;
  ring->n_slots = n_slots;
  ring->slots = g_new0 (GstGLBcSlot, n_slots);
  for (i = 0; i < n_slots; i++) {
    ring->slots[i].row_gen = g_new0 (guint32, info->blocks_y);
    ring->slots[i].stepped_gen = -1;
  }

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) ring_create_gl,
      ring);
  if (ring->error || !ring->window) {
    if (ring->error)
      g_propagate_error (error, g_steal_pointer (&ring->error));
    else
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "the GL context has no window to queue uploads to");
    gst_gl_bc_ring_unref (ring);
    return NULL;
  }
  GST_DEBUG ("ring %p: %u slots of %" G_GSIZE_FORMAT " bytes, buffer object "
      "%u mapped at %p", ring, n_slots, size,
      gst_bc_gl_buffer_ring_get_buffer (ring->buffer),
      gst_bc_gl_buffer_ring_get_data (ring->buffer, 0));
  return ring;
}

const GstBcInfo *
gst_gl_bc_ring_get_info (GstGLBcRing * ring)
{
  return &ring->info;
}

GstGLContext *
gst_gl_bc_ring_get_context (GstGLBcRing * ring)
{
  return ring->context;
}

GLuint
gst_gl_bc_ring_get_texture (GstGLBcRing * ring, guint slot)
{
  g_return_val_if_fail (slot < ring->n_slots, 0);
  return ring->slots[slot].texture;
}

/* Uploads block rows [first, first + n) of @slot into its texture. */
static void
upload_rows (GstGLBcRing * ring, guint slot, guint first, guint n)
{
  const GstGLFuncs *gl = ring->context->gl_vtable;
  GstGLBcSlot *s = &ring->slots[slot];
  gsize offset = gst_bc_gl_buffer_ring_get_offset (ring->buffer, slot) +
      first * ring->info.row_bytes;

  gl->BindBuffer (GL_PIXEL_UNPACK_BUFFER,
      gst_bc_gl_buffer_ring_get_buffer (ring->buffer));
  gl->BindTexture (GL_TEXTURE_2D, s->texture);
  gl->CompressedTexSubImage2D (GL_TEXTURE_2D, 0, 0, first * GST_BC_BLOCK_SIZE,
      ring->info.padded_width, n * GST_BC_BLOCK_SIZE, ring->internal_format,
      (GLsizei) (n * ring->info.row_bytes), (const void *) (guintptr) offset);
  gl->BindTexture (GL_TEXTURE_2D, 0);
  gl->BindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
}

gboolean
gst_gl_bc_ring_upload_remaining (GstGLBcRing * ring, guint slot,
    GstGLBcUploadResult * result)
{
  GstGLBcSlot *s;
  guint32 gen;
  guint r = 0, rows;

  g_return_val_if_fail (slot < ring->n_slots, FALSE);
  s = &ring->slots[slot];
  gen = (guint32) g_atomic_int_get (&s->gen);
  rows = ring->info.blocks_y;

  memset (result, 0, sizeof (*result));
  if (s->stepped_gen == (gint) gen) {
    result->stepped = s->stepped_count;
    result->gl_errors = s->stepped_errors;
  }
  result->waited = s->waited;

  while (r < rows) {
    guint first;

    if (s->row_gen[r] == gen) {
      r++;
      continue;
    }
    first = r;
    while (r < rows && s->row_gen[r] != gen)
      s->row_gen[r++] = gen;
    upload_rows (ring, slot, first, r - first);
    result->uploads++;
  }
  result->all_stepped = result->uploads == 0 && result->stepped > 0;
  return TRUE;
}

void
gst_gl_bc_ring_fence (GstGLBcRing * ring, guint slot)
{
  g_return_if_fail (slot < ring->n_slots);

  gst_bc_gl_buffer_ring_fence (ring->buffer, slot);
  /* the GPU is usually done with the others by now: handing them out then
   * needs no trip to the GL thread */
  gst_bc_gl_buffer_ring_reap (ring->buffer, slot);
}

typedef struct
{
  GstGLBcRing *ring;
  guint slot;
  gboolean waited;
} WaitData;

static void
wait_fence_gl (GstGLContext * context, WaitData * d)
{
  GstBcGLFenceResult r;

  r = gst_bc_gl_buffer_ring_wait (d->ring->buffer, d->slot, FENCE_TIMEOUT_NS,
      &d->waited);
  if (r != GST_BC_GL_FENCE_SIGNALED) {
    GST_WARNING ("slot %u: the GPU did not finish with it (%s), reusing it "
        "anyway", d->slot, r == GST_BC_GL_FENCE_TIMEOUT ? "timed out" :
        "glClientWaitSync failed");
    gst_bc_gl_buffer_ring_clear_fence (d->ring->buffer, d->slot);
  }
}

/* Waits until the GPU is done with @slot, then starts its next filling. */
static void
ring_slot_acquired (GstGLBcRing * ring, guint slot)
{
  GstGLBcSlot *s = &ring->slots[slot];
  WaitData d = { ring, slot, FALSE };

  if (gst_bc_gl_buffer_ring_is_fenced (ring->buffer, slot))
    gst_gl_context_thread_add (ring->context,
        (GstGLContextThreadFunc) wait_fence_gl, &d);
  s->waited = d.waited;
  g_atomic_int_inc (&s->gen);
}

/* ---------------------------------------------------------------------- */
/* Stepped upload: tiles reported complete by the producer                 */
/* ---------------------------------------------------------------------- */

typedef struct
{
  GstGLBcRing *ring;
  guint slot;
  guint32 gen;
  guint first_row;
  guint n_rows;
} TileJob;

static void
tile_job_run (TileJob * job)
{
  GstGLBcRing *ring = job->ring;
  GstGLBcSlot *s = &ring->slots[job->slot];
  guint i;

  if ((guint32) g_atomic_int_get (&s->gen) != job->gen)
    return;                     /* the frame is gone already */
  for (i = 0; i < job->n_rows; i++)
    if (s->row_gen[job->first_row + i] == job->gen)
      return;                   /* uploaded with the frame already */
  for (i = 0; i < job->n_rows; i++)
    s->row_gen[job->first_row + i] = job->gen;

  upload_rows (ring, job->slot, job->first_row, job->n_rows);
  if (s->stepped_gen != (gint) job->gen) {
    s->stepped_gen = (gint) job->gen;
    s->stepped_count = 0;
    s->stepped_errors = 0;
  }
  s->stepped_count++;
  s->stepped_errors += gst_gl_bc_check_gl_error (ring->context, NULL,
      "a stepped tile upload");
  GST_LOG ("slot %u generation %u: rows %u..%u uploaded early", job->slot,
      job->gen, job->first_row, job->first_row + job->n_rows - 1);
}

static void
tile_job_free (TileJob * job)
{
  gst_gl_bc_ring_unref (job->ring);
  g_free (job);
}

/* On the producer's thread: queue the upload, do not wait for it. */
static void
on_tile_complete (GstBuffer * buffer, GstBcTileMeta * meta,
    const GstBcTile * tile, gpointer user_data)
{
  GstGLBcRing *ring;
  TileJob *job;
  guint slot;

  ring = gst_gl_bc_ring_from_buffer (buffer, &slot);
  if (!ring || !g_atomic_int_get (&ring->stepped))
    return;
  if (tile->n_rows == 0 || tile->first_row >= ring->info.blocks_y ||
      tile->n_rows > ring->info.blocks_y - tile->first_row ||
      tile->offset != tile->first_row * ring->info.row_bytes ||
      tile->size != tile->n_rows * ring->info.row_bytes) {
    GST_WARNING ("tile %u (rows %u+%u, bytes %" G_GSIZE_FORMAT "+%"
        G_GSIZE_FORMAT ") is not whole block rows of a %ux%u %s frame",
        tile->index, tile->first_row, tile->n_rows, tile->offset, tile->size,
        ring->info.width, ring->info.height,
        gst_bc_format_to_string (ring->info.format));
    return;
  }

  job = g_new (TileJob, 1);
  job->ring = gst_gl_bc_ring_ref (ring);
  job->slot = slot;
  job->gen = (guint32) g_atomic_int_get (&ring->slots[slot].gen);
  job->first_row = tile->first_row;
  job->n_rows = tile->n_rows;
  gst_gl_window_send_message_async (ring->window, (GstGLWindowCB) tile_job_run,
      job, (GDestroyNotify) tile_job_free);
}

/* ---------------------------------------------------------------------- */
/* Memory: one slot of a ring                                              */
/* ---------------------------------------------------------------------- */

#define GST_GL_BC_MEMORY_TYPE "GLBcRingMemory"

typedef struct
{
  GstMemory mem;
  GstGLBcRing *ring;
  guint slot;
} GstGLBcMemory;

typedef struct
{
  GstAllocator parent;
} GstGLBcAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstGLBcAllocatorClass;

static GType gst_gl_bc_allocator_get_type (void);
G_DEFINE_TYPE (GstGLBcAllocator, gst_gl_bc_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
gst_gl_bc_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  return NULL;                  /* memories are made by the pool only */
}

static void
gst_gl_bc_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstGLBcMemory *m = (GstGLBcMemory *) mem;

  gst_gl_bc_ring_unref (m->ring);
  g_free (m);
}

static gpointer
gl_bc_mem_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstGLBcMemory *m = (GstGLBcMemory *) mem;

  return gst_bc_gl_buffer_ring_get_data (m->ring->buffer, m->slot);
}

static void
gl_bc_mem_unmap (GstMemory * mem)
{
}

static GstGLBcMemory *
gl_bc_mem_new (GstAllocator * allocator, GstMemoryFlags flags,
    GstMemory * parent, GstGLBcRing * ring, guint slot, gsize offset,
    gsize size)
{
  GstGLBcMemory *m = g_new0 (GstGLBcMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (m), flags, allocator, parent, ring->size,
      0, offset, size);
  m->ring = gst_gl_bc_ring_ref (ring);
  m->slot = slot;
  return m;
}

static GstMemory *
gl_bc_mem_share (GstMemory * mem, gssize offset, gssize size)
{
  GstGLBcMemory *m = (GstGLBcMemory *) mem;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  return GST_MEMORY_CAST (gl_bc_mem_new (mem->allocator,
          GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
          parent, m->ring, m->slot, mem->offset + offset, size));
}

static void
gst_gl_bc_allocator_class_init (GstGLBcAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_gl_bc_allocator_alloc;
  allocator_class->free = gst_gl_bc_allocator_free;
}

static void
gst_gl_bc_allocator_init (GstGLBcAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_GL_BC_MEMORY_TYPE;
  alloc->mem_map = gl_bc_mem_map;
  alloc->mem_unmap = gl_bc_mem_unmap;
  alloc->mem_share = gl_bc_mem_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

static GstAllocator *
gl_bc_allocator_get (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (gst_gl_bc_allocator_get_type (), NULL);

    gst_object_ref_sink (a);
    /* lives as long as the process, like GStreamer's own allocators */
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

GstGLBcRing *
gst_gl_bc_ring_from_buffer (GstBuffer * buffer, guint * slot)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!mem->allocator || mem->allocator != gl_bc_allocator_get ())
    return NULL;
  if (slot)
    *slot = ((GstGLBcMemory *) mem)->slot;
  return ((GstGLBcMemory *) mem)->ring;
}

/* ---------------------------------------------------------------------- */
/* The pool                                                                */
/* ---------------------------------------------------------------------- */

struct _GstGLBcPool
{
  GstBufferPool parent;

  GstGLContext *context;
  GstBcInfo info;
  gsize size;
  guint n_slots;
  gboolean stepped;             /* object lock */
  GstGLBcRing *ring;            /* object lock; set while active */
  gboolean slot_used[MAX_SLOTS];        /* object lock */
};

G_DEFINE_TYPE (GstGLBcPool, gst_gl_bc_pool, GST_TYPE_BUFFER_POOL);

static GQuark slot_quark;

static const gchar **
gst_gl_bc_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { NULL };
  return options;
}

static gboolean
gst_gl_bc_pool_set_config (GstBufferPool * bpool, GstStructure * config)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  GstGLBcFormatSupport support;
  GstCaps *caps;
  GstBcInfo info;
  guint size, min, max, n;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_bc_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (self, "not video/x-bc caps: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  gst_gl_bc_format_support (self->context, info.format, &support);
  if (support.missing) {
    GST_WARNING_OBJECT (self, "cannot upload %s: the GL context lacks %s",
        gst_bc_format_to_string (info.format), support.missing);
    return FALSE;
  }
  if (min > MAX_SLOTS) {
    GST_WARNING_OBJECT (self, "%u buffers asked for, a ring has at most %u",
        min, MAX_SLOTS);
    return FALSE;
  }

  /* a ring never holds more buffers than it has slots */
  n = max != 0 ? max : MAX (min, DEFAULT_SLOTS);
  n = CLAMP (n, MAX (min, 1), MAX_SLOTS);
  size = MAX (size, info.size);
  gst_buffer_pool_config_set_params (config, caps, size, min, n);

  self->info = info;
  self->size = size;
  self->n_slots = n;
  GST_DEBUG_OBJECT (self, "%u slots of %u bytes for %" GST_PTR_FORMAT, n,
      size, caps);

  return GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->set_config
      (bpool, config);
}

static gboolean
gst_gl_bc_pool_start (GstBufferPool * bpool)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  GstGLBcRing *ring;
  GError *err = NULL;

  ring = ring_new (self->context, &self->info, self->size, self->n_slots, &err);
  if (!ring) {
    GST_ERROR_OBJECT (self, "cannot make a ring of %u slots: %s",
        self->n_slots, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  ring->stepped = self->stepped;
  self->ring = ring;
  memset (self->slot_used, 0, sizeof (self->slot_used));
  GST_OBJECT_UNLOCK (self);

  if (!GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->start (bpool)) {
    GST_OBJECT_LOCK (self);
    self->ring = NULL;
    GST_OBJECT_UNLOCK (self);
    gst_gl_bc_ring_unref (ring);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_gl_bc_pool_stop (GstBufferPool * bpool)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  gboolean ret;
  GstGLBcRing *ring;

  ret = GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->stop (bpool);
  GST_OBJECT_LOCK (self);
  ring = self->ring;
  self->ring = NULL;
  GST_OBJECT_UNLOCK (self);
  if (ring)
    gst_gl_bc_ring_unref (ring);
  return ret;
}

static GstFlowReturn
gst_gl_bc_pool_alloc_buffer (GstBufferPool * bpool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  GstGLBcMemory *mem;
  GstGLBcRing *ring;
  GstBuffer *buf;
  guint i;

  GST_OBJECT_LOCK (self);
  ring = self->ring;
  for (i = 0; ring && i < ring->n_slots; i++)
    if (!self->slot_used[i])
      break;
  if (!ring || i == ring->n_slots) {
    GST_OBJECT_UNLOCK (self);
    GST_ERROR_OBJECT (self, "no free slot");
    return GST_FLOW_ERROR;
  }
  self->slot_used[i] = TRUE;
  mem = gl_bc_mem_new (gl_bc_allocator_get (), 0, NULL, ring, i, 0, self->size);
  GST_OBJECT_UNLOCK (self);

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, GST_MEMORY_CAST (mem));
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (buf), slot_quark,
      GUINT_TO_POINTER (i + 1), NULL);
  gst_buffer_add_bc_tile_meta (buf, on_tile_complete, NULL, NULL);
  GST_LOG_OBJECT (self, "buffer %p in slot %u", buf, i);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
gst_gl_bc_pool_free_buffer (GstBufferPool * bpool, GstBuffer * buffer)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  guint slot = GPOINTER_TO_UINT (gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST
          (buffer), slot_quark));

  GST_OBJECT_LOCK (self);
  if (slot > 0 && slot <= MAX_SLOTS)
    self->slot_used[slot - 1] = FALSE;
  GST_OBJECT_UNLOCK (self);
  GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->free_buffer (bpool,
      buffer);
}

static GstFlowReturn
gst_gl_bc_pool_acquire_buffer (GstBufferPool * bpool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstFlowReturn ret;
  GstGLBcRing *ring;
  guint slot;

  ret = GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->acquire_buffer
      (bpool, buffer, params);
  if (ret != GST_FLOW_OK)
    return ret;
  ring = gst_gl_bc_ring_from_buffer (*buffer, &slot);
  if (!ring) {
    GST_ERROR_OBJECT (bpool, "buffer %p lost its slot memory", *buffer);
    gst_buffer_unref (*buffer);
    *buffer = NULL;
    return GST_FLOW_ERROR;
  }
  ring_slot_acquired (ring, slot);
  return GST_FLOW_OK;
}

static void
gst_gl_bc_pool_finalize (GObject * object)
{
  GstGLBcPool *self = GST_GL_BC_POOL (object);

  /* normally gone with the last stop */
  if (self->ring)
    gst_gl_bc_ring_unref (self->ring);
  self->ring = NULL;
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_gl_bc_pool_parent_class)->finalize (object);
}

static void
gst_gl_bc_pool_class_init (GstGLBcPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_gl_bc_pool_finalize;
  pool_class->get_options = gst_gl_bc_pool_get_options;
  pool_class->set_config = gst_gl_bc_pool_set_config;
  pool_class->start = gst_gl_bc_pool_start;
  pool_class->stop = gst_gl_bc_pool_stop;
  pool_class->alloc_buffer = gst_gl_bc_pool_alloc_buffer;
  pool_class->free_buffer = gst_gl_bc_pool_free_buffer;
  pool_class->acquire_buffer = gst_gl_bc_pool_acquire_buffer;

  slot_quark = g_quark_from_static_string ("GstGLBcPoolSlot");
}

static void
gst_gl_bc_pool_init (GstGLBcPool * self)
{
  self->stepped = TRUE;
}

GstBufferPool *
gst_gl_bc_pool_new (GstGLContext * context)
{
  GstGLBcPool *self;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_GL_BC_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_BUFFER_POOL_CAST (self);
}

void
gst_gl_bc_pool_set_stepped (GstGLBcPool * pool, gboolean stepped)
{
  GST_OBJECT_LOCK (pool);
  pool->stepped = stepped;
  if (pool->ring)
    g_atomic_int_set (&pool->ring->stepped, stepped);
  GST_OBJECT_UNLOCK (pool);
}

GstGLBcRing *
gst_gl_bc_pool_get_ring (GstGLBcPool * pool)
{
  GstGLBcRing *ring = NULL;

  GST_OBJECT_LOCK (pool);
  if (pool->ring)
    ring = gst_gl_bc_ring_ref (pool->ring);
  GST_OBJECT_UNLOCK (pool);
  return ring;
}
