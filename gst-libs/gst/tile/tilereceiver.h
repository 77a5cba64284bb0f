/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_RECEIVER_H__
#define __GST_TILE_RECEIVER_H__

#include <gst/tile/tile-prelude.h>
#include <gst/tile/tilewire.h>

G_BEGIN_DECLS

/**
 * GstTileReceiver:
 *
 * The receiving end of a tilesink session (what tilesrc runs): the control
 * connection and its handshake, one unit (socket and thread) per tile that
 * receives straight into the frame's buffer, the frame slots, UDP frame
 * completion by timer, loss concealment, acknowledgements and statistics.
 * Opaque; every function is thread-safe.
 */
typedef struct _GstTileReceiver GstTileReceiver;

/**
 * GstTileReceiverTimeBase:
 * @GST_TILE_RECEIVER_TIME_NONE: no playout latency: a frame is stamped
 *   when it is complete
 * @GST_TILE_RECEIVER_TIME_SENDER: the frames' capture times, on the
 *   sender's pipeline clock, read against the receiver's clock that
 *   follows it (gst_tile_receiver_get_clock())
 * @GST_TILE_RECEIVER_TIME_CLOCK: the frames' capture times read against
 *   the clock of the settings, one the sender's pipeline runs on too (a
 *   PTP clock, say)
 * @GST_TILE_RECEIVER_TIME_REALTIME: the frames' `CLOCK_REALTIME` times
 *   read against this host's: hosts whose clocks agree (NTP, say)
 *
 * The time base of a receiver's playout.
 */
typedef enum
{
  GST_TILE_RECEIVER_TIME_NONE,
  GST_TILE_RECEIVER_TIME_SENDER,
  GST_TILE_RECEIVER_TIME_CLOCK,
  GST_TILE_RECEIVER_TIME_REALTIME,
} GstTileReceiverTimeBase;

/**
 * GstTileReceiverSettings:
 * @host: the sender's host name or address
 * @port: its control port
 * @timeout_ms: for connections, handshake answers, and the longest silence
 *   of the control connection
 * @receive_buffer_size: socket receive buffer to ask for per unit (0 = the
 *   kernel's default)
 * @gro: protocol=udp: use UDP generic receive offload when the kernel has it
 * @gro_required: protocol=udp: fail when the kernel lacks it
 * @passphrase: (nullable): %NULL or empty for none; else the sender must
 *   have the same one (each side proves it to the other), and every tile
 *   part and datagram is encrypted and authenticated; copied
 * @multicast_iface: (nullable): protocol=udp with a sender that sends to a
 *   multicast group: the interface to join it on, by name; %NULL for the
 *   route's; copied
 * @time_base: what the frames' capture times are read against (see
 *   #GstTileReceiverTimeBase)
 * @clock: (nullable): with %GST_TILE_RECEIVER_TIME_CLOCK, the clock;
 *   referenced
 * @latency_ms: the playout latency, in ms: a frame is presented that long
 *   after its capture; -1 chooses it from the frames' delays (see
 *   gst_tile_receiver_get_latency()). Not used with %GST_TILE_RECEIVER_TIME_NONE.
 * @drop_late: frames complete after their presentation time are marked
 *   for dropping (@late and @drop in #GstTileReceiverFrame)
 * @retransmit: protocol=udp: ask the sender for the datagrams that did not
 *   arrive (NACKs) and hold a frame with gaps a round trip longer for
 *   them (tilesrc's `retransmit`, on by default there; off in zeroed
 *   settings)
 * @redundant: @host lists several paths: protocol=udp, ask for every
 *   datagram over each path up and keep the first copy (instead of
 *   balanced tiles)
 *
 * What stays fixed while a receiver runs.
 */
typedef struct
{
  const gchar *host;
  guint port;
  guint timeout_ms;
  gint receive_buffer_size;
  gboolean gro;
  gboolean gro_required;
  const gchar *passphrase;
  const gchar *multicast_iface;
  GstTileReceiverTimeBase time_base;
  GstClock *clock;
  gint latency_ms;
  gboolean drop_late;
  gboolean retransmit;
  gboolean redundant;
} GstTileReceiverSettings;

/**
 * GstTileReceiverCallbacks:
 * @acquire_buffer: a buffer for the next frame (from the downstream pool);
 *   NULL when there is none. Called from unit threads.
 * @clock_time: the pipeline clock's time now, or GST_CLOCK_TIME_NONE
 * @check_config: whether the elements can use the sender's CONFIG (its caps
 *   describe its frame size); FALSE with @error set when not
 * @post_stats: statistics to post every stats interval (transfer full)
 * @buffer_warning: the kernel granted a smaller receive buffer than asked
 *   (@granted is what Linux reports: twice the usable size)
 * @clock_replaced: gst_tile_receiver_get_clock() gives another clock now
 *   (@old, the one it gave before): the sender's time would have stepped
 *   back (another sender, or its clock jumped back), which a GstClock
 *   cannot do; the element tells its pipeline (clock-lost, clock-provide)
 *
 * What only the element can do. Called without the receiver's lock held.
 */
typedef struct
{
  GstBuffer *(*acquire_buffer) (gpointer user_data);
  GstClockTime (*clock_time) (gpointer user_data);
  gboolean (*check_config) (gpointer user_data,
      const GstTileWireConfig * config, GError ** error);
  void (*post_stats) (gpointer user_data, GstStructure * stats);
  void (*buffer_warning) (gpointer user_data, gint granted, gint asked);
  void (*clock_replaced) (gpointer user_data, GstClock * old);
} GstTileReceiverCallbacks;

/**
 * GstTileReceiverResult:
 * @GST_TILE_RECEIVER_FRAME: a frame is ready
 * @GST_TILE_RECEIVER_NEW_CAPS: the sender's caps changed: negotiate them,
 *   then call gst_tile_receiver_start_generation()
 * @GST_TILE_RECEIVER_EOS: the sender sent EOS and every frame is out
 * @GST_TILE_RECEIVER_FLUSHING: gst_tile_receiver_set_flushing() interrupted
 * @GST_TILE_RECEIVER_ERROR: the session failed
 *
 * What gst_tile_receiver_pull() returns.
 */
typedef enum
{
  GST_TILE_RECEIVER_FRAME,
  GST_TILE_RECEIVER_NEW_CAPS,
  GST_TILE_RECEIVER_EOS,
  GST_TILE_RECEIVER_FLUSHING,
  GST_TILE_RECEIVER_ERROR,
} GstTileReceiverResult;

/**
 * GstTileReceiverFrame:
 * @buffer: the frame (transfer full). Over UDP a frame with gaps is flagged
 *   GST_BUFFER_FLAG_CORRUPTED, lists them in a #GstBcLossMeta, and holds the
 *   previous frame's bytes there.
 * @frame: the sender's frame number
 * @complete_time: clock time (see @clock_time) when its last byte was in
 * @sender_time: the sender's wall-clock time (ns since the Unix epoch) when
 *   it got the frame, or GST_CLOCK_TIME_NONE
 * @capture_time: with a time base (#GstTileReceiverTimeBase), the frame's
 *   capture time on the time base's clock, @reference_time when it could
 *   not be believed (counted in `frames-retimed`); else
 *   GST_CLOCK_TIME_NONE
 * @reference_time: with a time base, that clock's time when the frame was
 *   taken out; else GST_CLOCK_TIME_NONE
 * @late: with a time base, the frame came after its presentation time
 *   (@capture_time + gst_tile_receiver_get_latency())
 * @drop: it is late and the settings drop late frames (counted in
 *   `frames-dropped-late`): the element drops it
 * @latency_changed: the automatic latency changed with this frame
 *   (gst_tile_receiver_get_latency()): the element tells its pipeline
 * @udp: the frame came over UDP (see gst_tile_receiver_keep_last())
 */
typedef struct
{
  GstBuffer *buffer;
  guint64 frame;
  GstClockTime complete_time;
  GstClockTime sender_time;
  GstClockTime capture_time;
  GstClockTime reference_time;
  gboolean late;
  gboolean drop;
  gboolean latency_changed;
  gboolean udp;
} GstTileReceiverFrame;

GST_TILE_API
GstTileReceiver *gst_tile_receiver_new (const GstTileReceiverCallbacks *
    callbacks, gpointer user_data, GstObject * log_object);

GST_TILE_API
void gst_tile_receiver_free (GstTileReceiver * self);

GST_TILE_API
void gst_tile_receiver_start (GstTileReceiver * self,
    const GstTileReceiverSettings * settings);

GST_TILE_API
void gst_tile_receiver_stop (GstTileReceiver * self);

GST_TILE_API
void gst_tile_receiver_set_flushing (GstTileReceiver * self, gboolean flushing);

GST_TILE_API
GstTileReceiverResult gst_tile_receiver_pull (GstTileReceiver * self,
    GstTileReceiverFrame * frame, gchar ** caps, GError ** error);

GST_TILE_API
void gst_tile_receiver_start_generation (GstTileReceiver * self,
    GstClockTime frame_duration);

GST_TILE_API
void gst_tile_receiver_keep_last (GstTileReceiver * self, GstBuffer * buffer);

GST_TILE_API
GstStructure *gst_tile_receiver_get_stats (GstTileReceiver * self);

GST_TILE_API
void gst_tile_receiver_set_stepped (GstTileReceiver * self, gboolean stepped);

GST_TILE_API
GstClock *gst_tile_receiver_get_clock (GstTileReceiver * self);

GST_TILE_API
GstClockTime gst_tile_receiver_get_latency (GstTileReceiver * self);

GST_TILE_API
void gst_tile_receiver_set_reconnect (GstTileReceiver * self,
    gboolean reconnect);

GST_TILE_API
void gst_tile_receiver_set_stats_interval (GstTileReceiver * self,
    guint interval_ms);

GST_TILE_API
void gst_tile_receiver_set_timer_factor (GstTileReceiver * self,
    gdouble factor);

GST_TILE_API
void gst_tile_receiver_set_region (GstTileReceiver * self,
    const GstTileWireRegion * region);

G_END_DECLS

#endif /* __GST_TILE_RECEIVER_H__ */
