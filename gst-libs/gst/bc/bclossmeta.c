/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbclossmeta
 * @title: GstBcLossMeta
 * @short_description: byte ranges of a frame that did not arrive
 *
 * A receiver that assembles frames from datagrams (tilesrc with
 * protocol=udp) may push a frame of which some datagrams were lost. It then
 * attaches a #GstBcLossMeta listing the byte ranges, within the frame, that
 * did not arrive:
 *
 * |[<!-- language="C" -->
 * GstBcLossMeta *loss = gst_buffer_add_bc_loss_meta (buffer);
 *
 * gst_bc_loss_meta_add_range (loss, 4096, 1400);
 * GST_BUFFER_FLAG_SET (buffer, GST_BUFFER_FLAG_CORRUPTED);
 * ]|
 *
 * A frame carrying it also has %GST_BUFFER_FLAG_CORRUPTED; the ranges keep
 * the newest data the receiver had (bytes of an older frame), not zeros.
 * Ranges are added in increasing offset order and contiguous ones are
 * merged. The meta is copied with the buffer; a copy of a region of the
 * buffer keeps the parts of the ranges inside the region, relative to its
 * start.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bclossmeta.h"

#include <gst/video/video.h>

#include <string.h>

static gboolean
gst_bc_loss_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstBcLossMeta *m = (GstBcLossMeta *) meta;

  m->n_ranges = 0;
  m->ranges = NULL;
  m->lost_bytes = 0;
  m->allocated = 0;
  return TRUE;
}

static void
gst_bc_loss_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstBcLossMeta *m = (GstBcLossMeta *) meta;

  g_free (m->ranges);
  m->ranges = NULL;
  m->n_ranges = 0;
  m->allocated = 0;
  m->lost_bytes = 0;
}

static gboolean
gst_bc_loss_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  GstBcLossMeta *src = (GstBcLossMeta *) meta;
  GstMetaTransformCopy *copy = data;
  GstBcLossMeta *dmeta;
  guint64 start = 0, end = G_MAXUINT64;
  guint i;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;

  /* a copy of part of the buffer keeps the ranges inside that part,
   * relative to its start */
  if (copy->region) {
    start = copy->offset;
    end = copy->offset + copy->size;
  }

  dmeta = gst_buffer_get_bc_loss_meta (dest);
  if (dmeta == NULL)
    dmeta = gst_buffer_add_bc_loss_meta (dest);
  if (dmeta == NULL)
    return FALSE;
  for (i = 0; i < src->n_ranges; i++) {
    guint64 r_start = src->ranges[i].offset;
    guint64 r_end = r_start + src->ranges[i].size;

    r_start = MAX (r_start, start);
    r_end = MIN (r_end, end);
    if (r_start < r_end)
      gst_bc_loss_meta_add_range (dmeta, r_start - start, r_end - r_start);
  }
  return TRUE;
}

GType
gst_bc_loss_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType tmp = gst_meta_api_type_register ("GstBcLossMetaAPI", tags);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/**
 * gst_bc_loss_meta_get_info:
 *
 * Returns: the #GstMetaInfo of #GstBcLossMeta. Its transform function
 * copies the ranges when the buffer is copied.
 */
const GstMetaInfo *
gst_bc_loss_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *tmp = gst_meta_register (GST_BC_LOSS_META_API_TYPE,
        "GstBcLossMeta", sizeof (GstBcLossMeta), gst_bc_loss_meta_init,
        gst_bc_loss_meta_free, gst_bc_loss_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) tmp);
  }
  return info;
}

/**
 * gst_buffer_add_bc_loss_meta:
 * @buffer: a writable buffer
 *
 * Attaches an empty #GstBcLossMeta. The caller also sets
 * %GST_BUFFER_FLAG_CORRUPTED on @buffer.
 *
 * Returns: (transfer none): the new meta, with no ranges.
 */
GstBcLossMeta *
gst_buffer_add_bc_loss_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (gst_buffer_is_writable (buffer), NULL);

  return (GstBcLossMeta *) gst_buffer_add_meta (buffer,
      GST_BC_LOSS_META_INFO, NULL);
}

/**
 * gst_buffer_get_bc_loss_meta:
 * @buffer: a buffer
 *
 * Returns: (transfer none) (nullable): the #GstBcLossMeta of @buffer.
 */
GstBcLossMeta *
gst_buffer_get_bc_loss_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  return (GstBcLossMeta *) gst_buffer_get_meta (buffer,
      GST_BC_LOSS_META_API_TYPE);
}

/**
 * gst_bc_loss_meta_add_range:
 * @meta: a #GstBcLossMeta
 * @offset: byte offset in the frame of the bytes that did not arrive
 * @size: how many bytes; 0 adds nothing
 *
 * Appends a lost range and adds @size to @lost_bytes. A range that starts
 * where the last one ends extends it instead. Callers add ranges in
 * increasing offset order; other ranges are appended as they come.
 */
void
gst_bc_loss_meta_add_range (GstBcLossMeta * meta, guint64 offset, guint64 size)
{
  GstBcLossRange *last;

  g_return_if_fail (meta != NULL);
  g_return_if_fail (size <= G_MAXUINT64 - offset);

  if (size == 0)
    return;

  if (meta->n_ranges > 0) {
    last = &meta->ranges[meta->n_ranges - 1];
    if (last->offset + last->size == offset) {
      last->size += size;
      meta->lost_bytes += size;
      return;
    }
  }
  if (meta->n_ranges == meta->allocated) {
    g_return_if_fail (meta->allocated < G_MAXUINT / 2);
    meta->allocated = meta->allocated ? meta->allocated * 2 : 8;
    meta->ranges = g_renew (GstBcLossRange, meta->ranges, meta->allocated);
  }
  meta->ranges[meta->n_ranges].offset = offset;
  meta->ranges[meta->n_ranges].size = size;
  meta->n_ranges++;
  meta->lost_bytes += size;
}

/**
 * gst_bc_loss_meta_get_range:
 * @meta: a #GstBcLossMeta
 * @index: a range, below @n_ranges
 * @offset: (out): its byte offset in the frame
 * @size: (out): its size in bytes
 *
 * One lost range, for bindings that cannot read the @ranges array of the
 * structure (PyGObject): `ok, offset, size = meta.get_range (i)`.
 *
 * Returns: %FALSE when @index is not below @n_ranges
 */
gboolean
gst_bc_loss_meta_get_range (const GstBcLossMeta * meta, guint index,
    guint64 * offset, guint64 * size)
{
  g_return_val_if_fail (meta != NULL, FALSE);

  if (index >= meta->n_ranges)
    return FALSE;
  if (offset)
    *offset = meta->ranges[index].offset;
  if (size)
    *size = meta->ranges[index].size;
  return TRUE;
}
