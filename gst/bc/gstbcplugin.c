/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/bc/bc.h>

#include "gstbcelements.h"
#include "gstbcenc.h"

/**
 * bc_element_init:
 * @plugin: the plugin being loaded
 *
 * Shared initialisation of every element of the plugin; safe to call more
 * than once.
 */
void
bc_element_init (GstPlugin * plugin)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gst_bc_init ();
    gst_type_mark_as_plugin_api (GST_TYPE_BC_ENC, 0);
    g_once_init_leave (&done, 1);
  }
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  /* each element's registration runs bc_element_init () */
  ret |= GST_ELEMENT_REGISTER (bc1enc, plugin);
  ret |= GST_ELEMENT_REGISTER (bc3enc, plugin);
  ret |= GST_ELEMENT_REGISTER (bc4enc, plugin);
  ret |= GST_ELEMENT_REGISTER (bc5enc, plugin);
  ret |= GST_ELEMENT_REGISTER (bc7enc, plugin);
  ret |= GST_ELEMENT_REGISTER (bc6henc, plugin);
  ret |= GST_ELEMENT_REGISTER (bcdec, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR,
    GST_VERSION_MINOR,
    bc,
    "Block-compressed (BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H) video encoders "
    "and decoder",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
