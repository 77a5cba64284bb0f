/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_ELEMENTS_H__
#define __GST_TILE_ELEMENTS_H__

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

G_BEGIN_DECLS

/* gsttileuri.c: tile:// URIs */
G_GNUC_INTERNAL gboolean gst_tile_uri_apply (GstElement * element,
    const gchar * uri, GError ** error);
G_GNUC_INTERNAL gchar *gst_tile_uri_build (const gchar * host, guint port);
G_GNUC_INTERNAL const gchar *const *gst_tile_uri_protocols (void);
G_GNUC_INTERNAL void gst_tile_uri_handler_init (gpointer g_iface,
    gpointer iface_data);

GST_ELEMENT_REGISTER_DECLARE (tilesink);
GST_ELEMENT_REGISTER_DECLARE (tilesrc);

/**
 * GstTileClock:
 * @GST_TILE_CLOCK_SENDER: provide the sender's pipeline clock, followed
 *     over the control connection (the default)
 * @GST_TILE_CLOCK_PTP: provide a PTP clock (IEEE 1588) of `ptp-domain`,
 *     for hosts that run PTP
 * @GST_TILE_CLOCK_SYSTEM: provide this host's realtime clock, trusting the
 *     hosts' clocks to agree (NTP)
 * @GST_TILE_CLOCK_NONE: provide no clock
 *
 * The clock tilesrc provides to its pipeline.
 */
typedef enum
{
  GST_TILE_CLOCK_SENDER = 0,
  GST_TILE_CLOCK_PTP = 1,
  GST_TILE_CLOCK_SYSTEM = 2,
  GST_TILE_CLOCK_NONE = 3,
} GstTileClock;

#define GST_TYPE_TILE_CLOCK (gst_tile_clock_get_type ())
G_GNUC_INTERNAL GType gst_tile_clock_get_type (void);

/**
 * GstTileFlush:
 * @GST_TILE_FLUSH_STEPPED: report every tile as soon as it has arrived
 * @GST_TILE_FLUSH_FRAME: report nothing before the whole frame is pushed
 *
 * When tilesrc tells a downstream buffer pool (through #GstBcTileMeta) that
 * part of a frame is ready.
 */
typedef enum
{
  GST_TILE_FLUSH_STEPPED = 0,
  GST_TILE_FLUSH_FRAME = 1,
} GstTileFlush;

#define GST_TYPE_TILE_FLUSH (gst_tile_flush_get_type ())
G_GNUC_INTERNAL GType gst_tile_flush_get_type (void);

/**
 * GstTileOffload:
 * @GST_TILE_OFFLOAD_AUTO: use UDP GSO (tilesink's gso) / GRO (tilesrc's
 *     gro) when the kernel has it
 * @GST_TILE_OFFLOAD_ON: require it: fail when the kernel lacks it
 * @GST_TILE_OFFLOAD_OFF: one system call per datagram batch entry, no
 *     offload
 *
 * The kernel's UDP segmentation (sender) or receive (receiver) offload for
 * protocol=udp.
 */
typedef enum
{
  GST_TILE_OFFLOAD_AUTO = 0,
  GST_TILE_OFFLOAD_ON = 1,
  GST_TILE_OFFLOAD_OFF = 2,
} GstTileOffload;

#define GST_TYPE_TILE_OFFLOAD (gst_tile_offload_get_type ())
G_GNUC_INTERNAL GType gst_tile_offload_get_type (void);

/**
 * GstTileLeaky:
 * @GST_TILE_LEAKY_UPSTREAM: a frame that comes while max-in-flight frames
 *     are on their way is dropped
 * @GST_TILE_LEAKY_DOWNSTREAM: it replaces the oldest of them that has not
 *     started to go out (which is dropped instead), if there is one
 *
 * What tilesink drops when frames come faster than they can be sent, in
 * the words of queue's leaky property.
 */
typedef enum
{
  GST_TILE_LEAKY_UPSTREAM = 0,
  GST_TILE_LEAKY_DOWNSTREAM = 1,
} GstTileLeaky;

#define GST_TYPE_TILE_LEAKY (gst_tile_leaky_get_type ())
G_GNUC_INTERNAL GType gst_tile_leaky_get_type (void);

/* gsttileplugin.c: the types above, and what both elements do */
G_GNUC_INTERNAL void tile_element_init (GstPlugin * plugin);

G_GNUC_INTERNAL void gst_tile_post_stats (gpointer element,
    GstStructure * stats);

G_GNUC_INTERNAL GstClockTime gst_tile_element_clock_time (gpointer element);

G_GNUC_INTERNAL void gst_tile_post_buffer_warning (GstElement * element,
    gboolean send, gint granted, gint asked);

G_GNUC_INTERNAL gboolean gst_tile_tiling_for_caps (GstCaps * caps,
    guint n_units, GstBcTiling * tiling, gsize * frame_size);

G_END_DECLS

#endif /* __GST_TILE_ELEMENTS_H__ */
