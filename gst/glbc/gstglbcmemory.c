/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The memory of glbcupload's pool: one slot of a ring, its bytes the
 * slot's persistent coherent mapping, so what the producer writes into a
 * buffer of the pool is GPU-visible memory, never copied on the CPU
 * again. Each memory holds a reference to the ring. Its allocator makes
 * no memory of its own (the pool makes them) and marks them as the ring's:
 * gst_gl_bc_ring_from_buffer () knows them by it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcpoolprivate.h"

#define GST_GL_BC_MEMORY_TYPE "GLBcRingMemory"

typedef struct
{
  GstMemory mem;
  GstBcGLBufferRing *ring;
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

  gst_bc_gl_buffer_ring_unref (m->ring);
  g_free (m);
}

static gpointer
gl_bc_mem_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstGLBcMemory *m = (GstGLBcMemory *) mem;

  return gst_bc_gl_buffer_ring_get_data (m->ring, m->slot);
}

static void
gl_bc_mem_unmap (GstMemory * mem)
{
}

static GstGLBcMemory *
gl_bc_mem_new (GstAllocator * allocator, GstMemoryFlags flags,
    GstMemory * parent, GstBcGLBufferRing * ring, guint slot, gsize offset,
    gsize size)
{
  GstGLBcMemory *m = g_new0 (GstGLBcMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (m), flags, allocator, parent,
      gst_bc_gl_buffer_ring_get_slot_size (ring), 0, offset, size);
  m->ring = gst_bc_gl_buffer_ring_ref (ring);
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

GstMemory *
gst_gl_bc_memory_new (GstBcGLBufferRing * ring, guint slot, gsize size)
{
  return GST_MEMORY_CAST (gl_bc_mem_new (gl_bc_allocator_get (), 0, NULL,
          ring, slot, 0, size));
}

GstBcGLBufferRing *
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
