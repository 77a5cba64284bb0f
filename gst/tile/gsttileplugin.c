/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/bc/bc.h>
#include <gst/bc/bctiling.h>
#include <gst/video/video.h>

#include "gsttileelements.h"
#include <gst/tile/tilestats.h>
#include <gst/tile/tilewire.h>

GType
gst_tile_offload_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_TILE_OFFLOAD_AUTO, "Use UDP GSO/GRO when the kernel has it", "auto"},
    {GST_TILE_OFFLOAD_ON, "Require UDP GSO/GRO", "on"},
    {GST_TILE_OFFLOAD_OFF, "No UDP segmentation or receive offload", "off"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstTileOffload",
            values));
  return type;
}

GType
gst_tile_leaky_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_TILE_LEAKY_UPSTREAM, "Drop the new frame", "upstream"},
    {GST_TILE_LEAKY_DOWNSTREAM, "Drop the oldest frame not started yet "
          "instead, if there is one", "downstream"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstTileLeaky", values));
  return type;
}

GType
gst_tile_clock_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_TILE_CLOCK_SENDER, "The sender's pipeline clock", "sender"},
    {GST_TILE_CLOCK_PTP, "A PTP clock (IEEE 1588) of ptp-domain", "ptp"},
    {GST_TILE_CLOCK_SYSTEM, "This host's realtime clock (NTP)", "system"},
    {GST_TILE_CLOCK_NONE, "No clock", "none"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstTileClock",
            values));
  return type;
}

GType
gst_tile_flush_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_TILE_FLUSH_STEPPED, "Report each tile as soon as it has arrived",
        "stepped"},
    {GST_TILE_FLUSH_FRAME, "Report nothing before the frame is pushed",
        "frame"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstTileFlush", values));
  return type;
}

/* The rows a frame is cut along: block rows for video/x-bc, pixel rows of
 * the frame's bytes for video/x-raw (frame size / height bytes each, or the
 * whole frame as one row when the size is not a multiple of the height). */
gboolean
gst_tile_tiling_for_caps (GstCaps * caps, guint n_units, GstBcTiling * tiling,
    gsize * frame_size)
{
  GstStructure *s;

  if (!caps || !gst_caps_is_fixed (caps))
    return FALSE;
  s = gst_caps_get_structure (caps, 0);
  if (gst_structure_has_name (s, "video/x-bc")) {
    GstBcInfo info;

    if (!gst_bc_info_from_caps (&info, caps))
      return FALSE;
    if (!gst_bc_tiling_init_for_info (tiling, &info, n_units))
      return FALSE;
  } else if (gst_structure_has_name (s, "video/x-raw")) {
    GstVideoInfo info;
    guint rows;

    if (!gst_video_info_from_caps (&info, caps) || info.size == 0)
      return FALSE;
    rows = GST_VIDEO_INFO_HEIGHT (&info);
    if (rows == 0 || info.size % rows != 0)
      rows = 1;
    if (!gst_bc_tiling_init (tiling, rows, info.size / rows, n_units))
      return FALSE;
  } else {
    return FALSE;
  }
  *frame_size = (gsize) tiling->n_rows * tiling->row_bytes;
  return *frame_size > 0 && *frame_size <= GST_TILE_WIRE_MAX_FRAME_SIZE;
}

/* The time of @element's pipeline clock now, GST_CLOCK_TIME_NONE without
 * one: what a receiver's frames are stamped with (tilesrc), what the
 * receivers' clocks follow (tilesink). */
GstClockTime
gst_tile_element_clock_time (gpointer element)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (element));
  GstClockTime t = GST_CLOCK_TIME_NONE;

  if (clock) {
    t = gst_clock_get_time (clock);
    gst_object_unref (clock);
  }
  return t;
}

/* The sessions' statistics, as an element message (transfer full). */
void
gst_tile_post_stats (gpointer element, GstStructure * stats)
{
  gst_element_post_message (GST_ELEMENT (element),
      gst_message_new_element (GST_OBJECT (element), stats));
}

/* The kernel granted a smaller socket buffer than asked (@granted as Linux
 * reports it: twice the usable size). */
void
gst_tile_post_buffer_warning (GstElement * element, gboolean send,
    gint granted, gint asked)
{
  GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
      ("Socket %s buffer is %d bytes, %d were asked for",
          send ? "send" : "receive", granted / 2, asked),
      ("Raise the limit with 'sysctl -w net.core.%cmem_max=%d' (or run as "
          "root) for full throughput", send ? 'w' : 'r', asked));
}

void
tile_element_init (GstPlugin * plugin)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gst_bc_init ();
    gst_tile_register_stats_names ();
    gst_type_mark_as_plugin_api (GST_TYPE_TILE_FLUSH, 0);
    gst_type_mark_as_plugin_api (GST_TYPE_TILE_CLOCK, 0);
    gst_type_mark_as_plugin_api (GST_TYPE_TILE_OFFLOAD, 0);
    gst_type_mark_as_plugin_api (GST_TYPE_TILE_LEAKY, 0);
    g_once_init_leave (&done, 1);
  }
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (tilesink, plugin);
  ret |= GST_ELEMENT_REGISTER (tilesrc, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR,
    GST_VERSION_MINOR,
    tile,
    "Tiled, multi-connection, low-latency frame delivery (tilesink, tilesrc)",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
