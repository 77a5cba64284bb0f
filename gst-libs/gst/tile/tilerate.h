/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_RATE_H__
#define __GST_TILE_RATE_H__

#include <gst/tile/tile-prelude.h>

G_BEGIN_DECLS

/**
 * GST_TILE_RATE_MIN:
 *
 * The least pacing rate rate control goes down to, bits/s.
 */
#define GST_TILE_RATE_MIN G_GUINT64_CONSTANT (1000000)

/**
 * GstTileRateSample:
 * @frame: the frame number
 * @bytes: bytes sent for the frame (datagrams, headers included)
 * @packets_sent: datagrams sent for it
 * @packets_received: datagrams of it that arrived (the receiver's ACK);
 *     0 for a frame of which nothing arrived
 * @packets_spanned: of those, the ones the path delivered within
 *     @receive_ns (after the first arrival, before the last)
 * @send_ns: from its first datagram sent to its last, sender clock
 * @receive_ns: from its first datagram received to its last, receiver
 *     clock (the receiver's ACK)
 * @delay_ns: one-way delay of its first datagram, from the sender's
 *     clock to the receiver's, without the time the frame waited in the
 *     sender before its first datagram left; includes the offset between
 *     the two clocks, so only changes count
 * @has_delay: @delay_ns is valid
 * @interval_ns: the time between the frames the source offers (sent or
 *     not), smoothed; 0 when unknown. With it the rate control knows what
 *     the stream needs (@bytes over @interval_ns)
 * @delivered: the frame's delivery rate in bits/s when the caller knows it
 *     better than @packets_spanned over @receive_ns (datagrams striped over
 *     several paths: the sum of the paths' own); 0 otherwise
 *
 * What is known of one frame once its ACK is in: the input of
 * gst_tile_rate_control_update().
 */
typedef struct
{
  guint64 frame;
  guint64 bytes;
  guint packets_sent;
  guint packets_received;
  guint packets_spanned;
  gint64 send_ns;
  gint64 receive_ns;
  gint64 delay_ns;
  gboolean has_delay;
  gint64 interval_ns;
  guint64 delivered;
} GstTileRateSample;

/**
 * GstTileRateControl:
 *
 * Delay- and loss-based rate control for protocol=udp (see
 * gst_tile_rate_control_update()). Plain data, no locking of its own;
 * initialise with gst_tile_rate_control_init(). The fields are private.
 */
typedef struct
{
  /*< private > */
  guint64 max_rate;
  guint64 rate;
  gint64 last_ns;
  guint64 hold_frame;
  gboolean have_sample;
  guint overuse_streak;
  /* two-window minimum of the one-way delay, maximum of the delivery rate */
  gint64 window_start_ns;
  gint64 delay_min[2];
  gboolean have_delay[2];
  guint64 recv_max[2];
  gdouble loss;
  gint64 queue_ns;
  gdouble recv_avg;
  guint64 congestion_events;
  guint64 need;
  gint64 floor_off_ns;
} GstTileRateControl;

void     gst_tile_rate_control_init (GstTileRateControl * rc,
                                     guint64 max_rate);

void     gst_tile_rate_control_set_max (GstTileRateControl * rc,
                                        guint64 max_rate);

gboolean gst_tile_rate_control_update (GstTileRateControl * rc,
                                       const GstTileRateSample * sample,
                                       guint64 next_frame, gint64 now_ns);

guint64  gst_tile_rate_control_get_rate (const GstTileRateControl * rc);

guint64  gst_tile_rate_control_get_delivered (const GstTileRateControl * rc);

void     gst_tile_rate_control_to_structure (const GstTileRateControl * rc,
                                             GstStructure * s);

/**
 * GST_TILE_RATE_BEHIND_FACTOR:
 *
 * A member of a multicast group whose rate is below the members' median
 * divided by this is behind (gst_tile_rate_group()).
 */
#define GST_TILE_RATE_BEHIND_FACTOR 4

guint64  gst_tile_rate_median        (const guint64 * rates, guint n_rates);

gboolean gst_tile_rate_behind        (guint64 rate, guint64 median);

guint64  gst_tile_rate_group         (const guint64 * rates, guint n_rates);

G_END_DECLS

#endif /* __GST_TILE_RATE_H__ */
