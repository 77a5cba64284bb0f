/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Helpers shared by examples/sender.c and examples/receiver.c. */

#ifndef __TILE_EXAMPLE_H__
#define __TILE_EXAMPLE_H__

#include <gst/gst.h>

/* FALSE, with a message naming @prog, when element @name is not there */
static inline gboolean
example_check_element (const gchar * prog, const gchar * name,
    const gchar * hint)
{
  GstElementFactory *factory = gst_element_factory_find (name);

  if (factory == NULL) {
    g_printerr ("%s: element %s not found: %s\n", prog, name, hint);
    return FALSE;
  }
  gst_object_unref (factory);
  return TRUE;
}

/* a guint64 field, 0 when absent */
static inline guint64
example_get_u64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  if (s == NULL || !gst_structure_get_uint64 (s, field, &v))
    v = 0;
  return v;
}

/* a latency field (ns) in ms, or "-" when not there yet */
static inline gchar *
example_format_ms (const GstStructure * s, const gchar * field)
{
  guint64 ns;

  if (s == NULL || !gst_structure_get_uint64 (s, field, &ns))
    return g_strdup ("-");
  return g_strdup_printf ("%.2f", ns / 1e6);
}

#endif /* __TILE_EXAMPLE_H__ */
