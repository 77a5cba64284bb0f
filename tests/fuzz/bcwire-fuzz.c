/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* libFuzzer target for the bcwire parsers: everything a peer can send on
 * the control and data connections and in UDP datagrams. The first byte
 * picks the parser; the rest is the input, in a buffer of exactly its size
 * so that the sanitizers see any read past the end. Built and run by
 * run.sh. */

#include <gst/gst.h>
#include <gst/bc/bcwire.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

/* The UDP session the fuzzed datagrams are checked against: 7 rows of 64
 * bytes in 3 tiles (192, 128, 128 bytes), 16 payload bytes per datagram,
 * generation 7. */
static GstBcWireConfig packet_config;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  GstBcTiling tiling;

  gst_init (NULL, NULL);
  if (!gst_bc_tiling_init (&tiling, 7, 64, 3)
      || !gst_bc_wire_config_set_tiling (&packet_config, &tiling, NULL)
      || !gst_bc_wire_config_set_caps (&packet_config, "video/x-bc", NULL))
    abort ();
  packet_config.token = 1;
  packet_config.generation = 7;
  packet_config.protocol = GST_BC_WIRE_PROTOCOL_UDP;
  packet_config.chunk_size = 65536;
  packet_config.packet_size = 16;
  if (!gst_bc_wire_config_validate (&packet_config, NULL))
    abort ();
  /* the receiver knows its own statistics field names */
  g_quark_from_static_string ("stats");
  g_quark_from_static_string ("frames-received");
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *error = NULL;
  guint8 *buf;
  gsize len;

  if (size < 1)
    return 0;
  len = size - 1;
  buf = malloc (len ? len : 1);
  memcpy (buf, data + 1, len);

  switch (data[0] % 11) {
    case 0:{
      GstBcWireHeader h;
      gst_bc_wire_header_parse (buf, len, &h, &error);
      break;
    }
    case 1:{
      GstBcWireHello m;
      gst_bc_wire_hello_parse (buf, len, &m, &error);
      break;
    }
    case 2:{
      GstBcWireConfig *m = g_new0 (GstBcWireConfig, 1);
      if (gst_bc_wire_config_parse (buf, len, m, &error))
        /* a parsed CONFIG must also validate */
        if (!gst_bc_wire_config_validate (m, NULL))
          abort ();
      g_free (m);
      break;
    }
    case 3:{
      GstBcWireUnitHello m;
      gst_bc_wire_unit_hello_parse (buf, len, &m, &error);
      break;
    }
    case 4:{
      GstBcWireRefuse *m = g_new0 (GstBcWireRefuse, 1);
      gst_bc_wire_refuse_parse (buf, len, m, &error);
      g_free (m);
      break;
    }
    case 5:
      gst_bc_wire_eos_parse (buf, len, &error);
      break;
    case 6:{
      guint64 t;
      gst_bc_wire_keepalive_parse (buf, len, &t, &error);
      break;
    }
    case 7:{
      GstStructure *s = NULL;
      if (gst_bc_wire_stats_parse (buf, len, &s, &error))
        gst_structure_free (s);
      break;
    }
    case 8:{
      GstBcWirePacketHeader h;
      GstBcWireParseResult res;

      /* a received datagram: header, then the check against the session */
      res = gst_bc_wire_packet_header_parse (buf, len, &h, &error);
      if (res == GST_BC_WIRE_PARSE_NEED_MORE
          && len >= GST_BC_WIRE_PACKET_HEADER_SIZE)
        abort ();
      if (res == GST_BC_WIRE_PARSE_OK) {
        gboolean ok;

        if (h.unit >= GST_BC_WIRE_MAX_UNITS)
          abort ();
        ok = gst_bc_wire_packet_check (&h, &packet_config, &error);
        if (ok != gst_bc_wire_packet_check (&h, &packet_config, NULL))
          abort ();
        /* an accepted payload lies inside its tile */
        if (ok && (h.offset >= packet_config.tiles[h.unit].size
                || h.offset % packet_config.packet_size != 0))
          abort ();
      }
      break;
    }
    case 10:{
      GstBcWireAck ack;

      if (gst_bc_wire_ack_parse (buf, len, &ack, &error) &&
          (ack.window == 0 || (!ack.has_frame && ack.frame != 0)))
        abort ();
      break;
    }
    default:{
      GstBcWireTileHeader h;
      gst_bc_wire_tile_header_parse (buf, len, 1036800, &h, &error);
      break;
    }
  }
  g_clear_error (&error);
  free (buf);
  return 0;
}
