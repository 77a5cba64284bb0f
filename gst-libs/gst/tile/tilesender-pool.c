/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The stepped-frame pool, gst_tile_sender_new_pool (): buffers whose
 * tiles the sender sends as their producer completes them (GstBcTileMeta,
 * tiled by the consumer), before the frame is pushed: a stepped frame,
 * sent tile by tile while it is made. A buffer's GstTileSenderStepped
 * follows it from its first completed tile to its push or its return to
 * the pool. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilesender-private.h"

#include <gst/bc/bctilemeta.h>

typedef struct
{
  GstBufferPool parent;

  GstTileSenderLink *link;
  guint32 generation;           /* of the sender's caps it was made for */
  GstBcTiling tiling;
} GstTileSenderPool;

typedef struct
{
  GstBufferPoolClass parent_class;
} GstTileSenderPoolClass;

GType gst_tile_sender_pool_get_type (void);
G_DEFINE_TYPE (GstTileSenderPool, gst_tile_sender_pool, GST_TYPE_BUFFER_POOL);

/* A buffer's state between two uses, under the link's lock. */
typedef struct
{
  GstTileSenderLink *link;
  gboolean begun;               /* its first tile completed */
  gboolean normal;              /* ... but it could not go stepped */
  GstTileSenderPushResult result;       /* of its stepped admission */
  GstTileSenderShared *shared;  /* admitted stepped, not pushed yet */
} GstTileSenderStepped;

static GQuark stepped_quark;

/* Called by gst_tile_sender_new (): before any push. */
void
gst_tile_sender_pool_init_once (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    stepped_quark = g_quark_from_static_string ("GstTileSenderStepped");
    g_once_init_leave (&once, 1);
  }
}

static void
stepped_free (gpointer data)
{
  GstTileSenderStepped *e = data;

  /* (a buffer is freed, not released, only once nothing uses it) */
  g_warn_if_fail (e->shared == NULL);
  gst_tile_sender_link_unref (e->link);
  g_free (e);
}

/* Whether the tiling on @meta is still @tiling (the pool's). */
static gboolean
same_tiling (GstBcTileMeta * meta, const GstBcTiling * tiling)
{
  guint i;

  if (gst_bc_tile_meta_get_n_tiles (meta) != tiling->n_tiles)
    return FALSE;
  for (i = 0; i < tiling->n_tiles; i++) {
    const GstBcTile *t = gst_bc_tile_meta_get_tile (meta, i);

    if (t->offset != tiling->tiles[i].offset ||
        t->size != tiling->tiles[i].size)
      return FALSE;
  }
  return TRUE;
}

/* The producer completed @tile: the first completion admits the frame
 * (gst_tile_sender_begin_stepped ()), each one lets the units of the tile
 * go. The producer's thread. */
static void
tile_done (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
    gpointer user_data)
{
  GstTileSenderStepped *e = user_data;
  GstTileSenderPool *pool = (GstTileSenderPool *) buffer->pool;
  GstTileSender *sender;
  GPtrArray *replaced = NULL;

  g_mutex_lock (&e->link->lock);
  sender = e->link->sender;
  if (sender && !e->begun) {
    e->begun = TRUE;
    /* a producer that set a tiling of its own (tilesrc relaying into
     * tilesink) completes tiles that are not the units': the frame goes
     * whole when pushed */
    e->normal = !pool || !same_tiling (meta, &pool->tiling) ||
        !gst_tile_sender_begin_stepped (sender, buffer, pool->generation,
        &e->result, &e->shared, &replaced);
  }
  if (sender && e->shared)
    gst_tile_sender_tile_ready (sender, e->shared, tile->index);
  g_mutex_unlock (&e->link->lock);
  gst_tile_sender_free_replaced (replaced);
}

static GstFlowReturn
gst_tile_sender_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstTileSenderPool *self = (GstTileSenderPool *) pool;
  GstTileSenderStepped *e;
  GstBcTileMeta *meta;
  GstFlowReturn ret;

  ret = GST_BUFFER_POOL_CLASS (gst_tile_sender_pool_parent_class)->alloc_buffer
      (pool, buffer, params);
  if (ret != GST_FLOW_OK)
    return ret;
  e = g_new0 (GstTileSenderStepped, 1);
  e->link = gst_tile_sender_link_ref (self->link);
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (*buffer), stepped_quark, e,
      stepped_free);
  meta = gst_buffer_add_bc_tile_meta (*buffer, tile_done, e, NULL);
  gst_bc_tile_meta_set_tiling (meta, &self->tiling);
  GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
  GST_META_FLAG_SET (meta, GST_META_FLAG_LOCKED);
  return GST_FLOW_OK;
}

/* Back in the pool: a stepped frame never pushed was given up by its
 * producer unfinished, its tiles not sent yet are abandoned; the tiles
 * start over. */
static void
gst_tile_sender_pool_reset_buffer (GstBufferPool * pool, GstBuffer * buffer)
{
  GstTileSenderPool *self = (GstTileSenderPool *) pool;
  GstTileSenderStepped *e = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST
      (buffer), stepped_quark);
  GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (buffer);

  if (e) {
    g_mutex_lock (&e->link->lock);
    if (e->shared) {
      GST_DEBUG_OBJECT (pool, "a frame admitted while it was written was "
          "given up unfinished: abandoning its tiles not written");
      gst_tile_sender_end_stepped (e->link->sender, e->shared, NULL);
      e->shared = NULL;
    }
    e->begun = e->normal = FALSE;
    g_mutex_unlock (&e->link->lock);
  }
  if (meta)
    gst_bc_tile_meta_set_tiling (meta, &self->tiling);
  GST_BUFFER_POOL_CLASS (gst_tile_sender_pool_parent_class)->reset_buffer
      (pool, buffer);
}

/* gst_tile_sender_push () of a buffer of ours: when it went stepped, it is
 * now written whole (the units of the tiles not completed go too) and
 * @result is what its admission did. Returns %FALSE for any other buffer,
 * which is pushed as usual. */
gboolean
gst_tile_sender_pool_take_stepped (GstTileSender * self, GstBuffer * buffer,
    GstTileSenderPushResult * result)
{
  GstTileSenderStepped *e = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST
      (buffer), stepped_quark);
  gboolean taken = FALSE;

  if (!e)
    return FALSE;
  g_mutex_lock (&e->link->lock);
  if (e->begun && !e->normal && e->link->sender == self) {
    *result = e->result;
    if (e->shared)
      gst_tile_sender_end_stepped (self, e->shared, buffer);
    e->shared = NULL;
    taken = TRUE;
  }
  e->begun = e->normal = FALSE;
  g_mutex_unlock (&e->link->lock);
  return taken;
}

static void
gst_tile_sender_pool_finalize (GObject * object)
{
  GstTileSenderPool *self = (GstTileSenderPool *) object;

  gst_tile_sender_link_unref (self->link);
  G_OBJECT_CLASS (gst_tile_sender_pool_parent_class)->finalize (object);
}

static void
gst_tile_sender_pool_class_init (GstTileSenderPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gst_tile_sender_pool_init_once ();
  gobject_class->finalize = gst_tile_sender_pool_finalize;
  pool_class->alloc_buffer = gst_tile_sender_pool_alloc_buffer;
  pool_class->reset_buffer = gst_tile_sender_pool_reset_buffer;
}

static void
gst_tile_sender_pool_init (GstTileSenderPool * self)
{
}

/**
 * gst_tile_sender_new_pool:
 * @sender: a #GstTileSender with caps set (gst_tile_sender_set_caps())
 * @caps: those caps, for the pool's configuration
 *
 * A buffer pool for the producer of the frames (an encoder), to send a
 * frame stepped: tile by tile while it is made. Its buffers have the
 * frame's size and a #GstBcTileMeta whose tiling is the sender's (a tile
 * per unit); offer it in the allocation query with
 * gst_bc_tile_meta_offer() (tiled by the consumer). The producer writes
 * the tiles in order and completes each with gst_bc_tile_meta_complete():
 *
 * - the first completion admits the frame, as gst_tile_sender_push() would
 *   (its #GstReferenceTimestampMeta, when the producer put one on the
 *   buffer before, is the frame's time on the wire);
 * - each unit sends its tile as soon as it is complete;
 * - gst_tile_sender_push() of the buffer then says every tile is written
 *   and returns what the admission did;
 * - a buffer given back to the pool unpushed after a completion (the
 *   producer gave the frame up) has the tiles not written abandoned: TCP
 *   sends an abandon, the receiver drops the frame; UDP sends nothing
 *   more of it.
 *
 * The producer must map the buffer with %GST_MAP_READWRITE while it writes
 * (the sender maps it for reading at the first completion). A buffer
 * pushed without any completion is sent as any other. After a caps change
 * the buffers of an older pool go as any other buffer.
 *
 * Returns: (transfer full) (nullable): a new pool, configured with @caps
 *     and the frame size, not active; %NULL before any caps
 */
GstBufferPool *
gst_tile_sender_new_pool (GstTileSender * sender, GstCaps * caps)
{
  GstTileSenderPool *pool;
  GstStructure *config;
  GstBcTiling tiling;
  gsize frame_size;
  guint32 generation;

  g_return_val_if_fail (sender != NULL, NULL);
  g_return_val_if_fail (GST_IS_CAPS (caps), NULL);

  generation = gst_tile_sender_get_generation (sender, &tiling, &frame_size);
  if (generation == 0 || frame_size > G_MAXUINT)
    return NULL;
  pool = g_object_new (gst_tile_sender_pool_get_type (), NULL);
  gst_object_ref_sink (pool);
  pool->link = gst_tile_sender_link_ref (sender->link);
  pool->generation = generation;
  pool->tiling = tiling;
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL_CAST (pool));
  gst_buffer_pool_config_set_params (config, caps, (guint) frame_size, 0, 0);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL_CAST (pool), config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return GST_BUFFER_POOL_CAST (pool);
}
