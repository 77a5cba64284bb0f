/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* JSON out of GLib values and GstStructures, for the netns checkers
 * (tile-netns-check.c, tile-time-check.c): strings escaped, numbers,
 * booleans, enums by nick, nested structures, arrays and lists. */

#ifndef __NETNS_JSON_H__
#define __NETNS_JSON_H__

#include <gst/gst.h>
#include <math.h>

static inline void
json_string (GString * out, const gchar * s)
{
  g_string_append_c (out, '"');
  for (; s && *s; s++) {
    guchar c = *s;

    if (c == '"' || c == '\\')
      g_string_append_printf (out, "\\%c", c);
    else if (c < 0x20)
      g_string_append_printf (out, "\\u%04x", c);
    else
      g_string_append_c (out, c);
  }
  g_string_append_c (out, '"');
}

static inline void json_structure (GString * out, const GstStructure * s);

static inline void
json_value (GString * out, const GValue * v)
{
  GType t = G_VALUE_TYPE (v);

  if (t == G_TYPE_UINT64)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, g_value_get_uint64 (v));
  else if (t == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, g_value_get_int64 (v));
  else if (t == G_TYPE_UINT)
    g_string_append_printf (out, "%u", g_value_get_uint (v));
  else if (t == G_TYPE_INT)
    g_string_append_printf (out, "%d", g_value_get_int (v));
  else if (t == G_TYPE_BOOLEAN)
    g_string_append (out, g_value_get_boolean (v) ? "true" : "false");
  else if (t == G_TYPE_DOUBLE || t == G_TYPE_FLOAT) {
    gdouble d = t == G_TYPE_DOUBLE ? g_value_get_double (v) :
        g_value_get_float (v);

    if (isfinite (d))
      g_string_append_printf (out, "%.6g", d);
    else
      g_string_append (out, "null");
  } else if (t == G_TYPE_STRING)
    json_string (out, g_value_get_string (v));
  else if (t == GST_TYPE_STRUCTURE)
    json_structure (out, gst_value_get_structure (v));
  else if (t == GST_TYPE_ARRAY || t == GST_TYPE_LIST) {
    guint i, n = t == GST_TYPE_ARRAY ? gst_value_array_get_size (v) :
        gst_value_list_get_size (v);

    g_string_append_c (out, '[');
    for (i = 0; i < n; i++) {
      if (i)
        g_string_append_c (out, ',');
      json_value (out, t == GST_TYPE_ARRAY ? gst_value_array_get_value (v, i)
          : gst_value_list_get_value (v, i));
    }
    g_string_append_c (out, ']');
  } else if (G_TYPE_IS_ENUM (t)) {
    GEnumValue *ev = g_enum_get_value (g_type_class_peek (t),
        g_value_get_enum (v));

    json_string (out, ev ? ev->value_nick : "?");
  } else {
    gchar *s = gst_value_serialize (v);

    json_string (out, s ? s : "?");
    g_free (s);
  }
}

static inline gboolean
json_field (GQuark field, const GValue * v, gpointer data)
{
  GString *out = data;

  if (out->str[out->len - 1] != '{')
    g_string_append_c (out, ',');
  json_string (out, g_quark_to_string (field));
  g_string_append_c (out, ':');
  json_value (out, v);
  return TRUE;
}

static inline void
json_structure (GString * out, const GstStructure * s)
{
  g_string_append_c (out, '{');
  if (s)
    gst_structure_foreach (s, json_field, out);
  g_string_append_c (out, '}');
}

#endif /* __NETNS_JSON_H__ */
