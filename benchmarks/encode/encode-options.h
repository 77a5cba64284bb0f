/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the command lines of both encoder benchmarks (bc-encode-bench and
 * bc-encode-gl-bench) share. */

#ifndef __ENCODE_OPTIONS_H__
#define __ENCODE_OPTIONS_H__

#include <gst/gst.h>
#include <gst/bc/bc.h>

/* --quality: fast, normal (the default) or high */
static inline gboolean
parse_quality (const gchar * str, GstBcQuality * quality)
{
  if (str == NULL || g_ascii_strcasecmp (str, "normal") == 0)
    *quality = GST_BC_QUALITY_NORMAL;
  else if (g_ascii_strcasecmp (str, "fast") == 0)
    *quality = GST_BC_QUALITY_FAST;
  else if (g_ascii_strcasecmp (str, "high") == 0)
    *quality = GST_BC_QUALITY_HIGH;
  else
    return FALSE;
  return TRUE;
}

#endif /* __ENCODE_OPTIONS_H__ */
