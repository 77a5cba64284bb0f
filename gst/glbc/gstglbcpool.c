/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/*
 * The buffer pool glbcupload offers upstream (see gstglbcpool.h): its
 * buffers are the slots of a ring (gstglbcring.c), one memory each
 * (gstglbcmemory.c) and a GstBcTileMeta whose tiles are uploaded as they
 * complete (gstglbcstep.c). The pool makes the ring when it starts, for
 * the frames of its caps; a buffer it hands out starts a new fill of its
 * slot, once the GPU is done with the slot's last frame.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcpoolprivate.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

/* slots when the pool's user leaves the count open */
#define DEFAULT_SLOTS 4

struct _GstGLBcPool
{
  GstBufferPool parent;

  GstGLContext *context;
  GstBcInfo info;
  gsize size;
  guint n_slots;
  gboolean stepped;             /* object lock */
  GstBcGLBufferRing *ring;      /* object lock; set while active */
  gboolean slot_used[GST_GL_BC_RING_MAX_SLOTS];        /* object lock */
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
  if (min > GST_GL_BC_RING_MAX_SLOTS) {
    GST_WARNING_OBJECT (self, "%u buffers asked for, a ring has at most %u",
        min, GST_GL_BC_RING_MAX_SLOTS);
    return FALSE;
  }

  /* a ring never holds more buffers than it has slots */
  n = max != 0 ? max : MAX (min, DEFAULT_SLOTS);
  n = CLAMP (n, MAX (min, 1), GST_GL_BC_RING_MAX_SLOTS);
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
  GstBcGLBufferRing *ring;
  GError *err = NULL;

  ring = gst_gl_bc_ring_new (self->context, &self->info, self->size,
      self->n_slots, &err);
  if (!ring) {
    GST_ERROR_OBJECT (self, "cannot make a ring of %u slots: %s",
        self->n_slots, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  gst_gl_bc_ring_set_stepped (ring, self->stepped);
  self->ring = ring;
  memset (self->slot_used, 0, sizeof (self->slot_used));
  GST_OBJECT_UNLOCK (self);

  if (!GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->start (bpool)) {
    GST_OBJECT_LOCK (self);
    self->ring = NULL;
    GST_OBJECT_UNLOCK (self);
    gst_bc_gl_buffer_ring_unref (ring);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_gl_bc_pool_stop (GstBufferPool * bpool)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  gboolean ret;
  GstBcGLBufferRing *ring;

  ret = GST_BUFFER_POOL_CLASS (gst_gl_bc_pool_parent_class)->stop (bpool);
  GST_OBJECT_LOCK (self);
  ring = self->ring;
  self->ring = NULL;
  GST_OBJECT_UNLOCK (self);
  if (ring)
    gst_bc_gl_buffer_ring_unref (ring);
  return ret;
}

static GstFlowReturn
gst_gl_bc_pool_alloc_buffer (GstBufferPool * bpool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstGLBcPool *self = GST_GL_BC_POOL (bpool);
  GstBcGLBufferRing *ring;
  GstMemory *mem;
  GstBuffer *buf;
  guint i, n_slots;

  GST_OBJECT_LOCK (self);
  ring = self->ring;
  n_slots = ring ? gst_bc_gl_buffer_ring_get_n_slots (ring) : 0;
  for (i = 0; i < n_slots; i++)
    if (!self->slot_used[i])
      break;
  if (i == n_slots) {
    GST_OBJECT_UNLOCK (self);
    GST_ERROR_OBJECT (self, "no free slot");
    return GST_FLOW_ERROR;
  }
  self->slot_used[i] = TRUE;
  mem = gst_gl_bc_memory_new (ring, i, self->size);
  GST_OBJECT_UNLOCK (self);

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (buf), slot_quark,
      GUINT_TO_POINTER (i + 1), NULL);
  gst_buffer_add_bc_tile_meta (buf, gst_gl_bc_step_tile_complete, NULL,
      NULL);
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
  if (slot > 0 && slot <= GST_GL_BC_RING_MAX_SLOTS)
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
  GstBcGLBufferRing *ring;
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
  gst_gl_bc_ring_start_fill (ring, slot);
  return GST_FLOW_OK;
}

static void
gst_gl_bc_pool_finalize (GObject * object)
{
  GstGLBcPool *self = GST_GL_BC_POOL (object);

  /* normally gone with the last stop */
  g_clear_pointer (&self->ring, gst_bc_gl_buffer_ring_unref);
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
    gst_gl_bc_ring_set_stepped (pool->ring, stepped);
  GST_OBJECT_UNLOCK (pool);
}

GstBcGLBufferRing *
gst_gl_bc_pool_get_ring (GstGLBcPool * pool)
{
  GstBcGLBufferRing *ring = NULL;

  GST_OBJECT_LOCK (pool);
  if (pool->ring)
    ring = gst_bc_gl_buffer_ring_ref (pool->ring);
  GST_OBJECT_UNLOCK (pool);
  return ring;
}
