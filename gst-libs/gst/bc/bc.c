/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bc.h"

/**
 * gst_bc_init:
 *
 * Registers the library's types. Call it once, after gst_init(); calling it
 * again does nothing.
 */
void
gst_bc_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gst_type_mark_as_plugin_api (GST_TYPE_BC_FORMAT, 0);
    gst_type_mark_as_plugin_api (GST_TYPE_BC_QUALITY, 0);
    g_once_init_leave (&done, 1);
  }
}
