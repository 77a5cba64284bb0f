/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tile:// URIs for tilesrc and tilesink (GstURIHandler):
 *
 *   tile://HOST[:PORT][?PROPERTY=VALUE[&PROPERTY=VALUE...]]
 *
 * HOST is tilesrc's `host` (the sender) or tilesink's `address` (where it
 * listens); an IPv6 address goes in brackets, tile://[::1]:7000. PORT is
 * `port` (7000 when left out). Every query parameter sets the element
 * property of that name from its string form, as gst-launch-1.0 would
 * (`protocol=udp`, `reconnect=true`, `units=8`); an unknown or read-only
 * property, or a value that does not parse, makes the URI invalid. */

#include <gst/bc/bctiling.h>

#include "gsttileelements.h"

#include <string.h>

#define TILE_URI_DEFAULT_PORT 7000

/* Whether @value is one for @element's property @name (FALSE with @error
 * when not); with @apply it is also set. */
static gboolean
set_from_string (GObject * element, const gchar * name, const gchar * value,
    gboolean apply, GError ** error)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), name);
  GValue v = G_VALUE_INIT;

  if (!pspec || !(pspec->flags & G_PARAM_WRITABLE) ||
      (pspec->flags & G_PARAM_CONSTRUCT_ONLY)) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "%s has no property '%s' to set from a URI", G_OBJECT_TYPE_NAME
        (element), name);
    return FALSE;
  }
  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (pspec));
  if (!gst_value_deserialize (&v, value ? value : "")
      || g_param_value_validate (pspec, &v)) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "'%s' is not a value for %s's property '%s' (%s)", value ? value : "",
        G_OBJECT_TYPE_NAME (element), name,
        g_type_name (G_PARAM_SPEC_VALUE_TYPE (pspec)));
    g_value_unset (&v);
    return FALSE;
  }
  if (apply)
    g_object_set_property (element, name, &v);
  g_value_unset (&v);
  return TRUE;
}

/* The port of a URI whose scheme GstUri accepted: GstUri takes port 0 for
 * no port, and tilesink's port 0 (a free one) must stay 0. */
static guint
uri_port (const gchar * uri)
{
  const gchar *auth = strstr (uri, "://") + 3;
  gsize len = strcspn (auth, "/?#");
  const gchar *end = auth + len, *colon = end;

  while (colon > auth && g_ascii_isdigit (colon[-1]))
    colon--;
  if (colon == end || colon == auth || colon[-1] != ':' ||
      (colon - 1 > auth && memchr (auth, '[', len) &&
          colon[-2] != ']') || end - colon > 5)
    return TILE_URI_DEFAULT_PORT;
  return (guint) g_ascii_strtoull (colon, NULL, 10);
}

/**
 * gst_tile_uri_apply:
 * @element: tilesrc or tilesink, in NULL or READY
 * @uri: a tile:// URI
 * @error: a #GST_URI_ERROR when @uri does not apply
 *
 * Checks all of @uri first, then sets the host, the port and every query
 * parameter: either all of it applies, or none. The host and port (and
 * tilesink's deprecated `address`) go in the URI's authority only.
 */
gboolean
gst_tile_uri_apply (GstElement * element, const gchar * uri, GError ** error)
{
  GstUri *u;
  GHashTable *query;
  GHashTableIter it;
  gpointer key, value;
  const gchar *host;
  guint port;
  gboolean ok = TRUE;

  if (GST_STATE (element) > GST_STATE_READY) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        "Changing the URI of %s is only possible in NULL or READY",
        GST_ELEMENT_NAME (element));
    return FALSE;
  }
  u = uri ? gst_uri_from_string (uri) : NULL;
  if (!u || g_strcmp0 (gst_uri_get_scheme (u), "tile") != 0
      || !gst_uri_get_host (u) || !*gst_uri_get_host (u)
      || uri_port (uri) > 65535) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "'%s' is not a tile://HOST[:PORT][?PROPERTY=VALUE&...] URI",
        uri ? uri : "(null)");
    if (u)
      gst_uri_unref (u);
    return FALSE;
  }
  host = gst_uri_get_host (u);
  port = uri_port (uri);
  query = gst_uri_get_query_table (u);

  /* every parameter must apply before anything is set: checked first */
  if (query) {
    g_hash_table_iter_init (&it, query);
    while (ok && g_hash_table_iter_next (&it, &key, &value)) {
      if (!g_strcmp0 (key, "host") || !g_strcmp0 (key, "address")
          || !g_strcmp0 (key, "port")) {
        g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
            "'%s' goes in the URI's host and port, not in its query",
            (const gchar *) key);
        ok = FALSE;
      } else {
        ok = set_from_string (G_OBJECT (element), key, value, FALSE, error);
      }
    }
  }
  if (ok) {
    g_object_set (element, "host", host, "port", port, NULL);
    if (query) {
      g_hash_table_iter_init (&it, query);
      while (g_hash_table_iter_next (&it, &key, &value))
        set_from_string (G_OBJECT (element), key, value, TRUE, NULL);
    }
  }
  if (query)
    g_hash_table_unref (query);
  gst_uri_unref (u);
  return ok;
}

/**
 * gst_tile_uri_build:
 * @host: a host name or address (IPv6 addresses get brackets)
 * @port: the port
 *
 * Returns: (transfer full): tile://HOST:PORT
 */
gchar *
gst_tile_uri_build (const gchar * host, guint port)
{
  gboolean v6 = host && strchr (host, ':') != NULL;

  return g_strdup_printf ("tile://%s%s%s:%u", v6 ? "[" : "",
      host ? host : "", v6 ? "]" : "", port);
}

const gchar *const *
gst_tile_uri_protocols (void)
{
  static const gchar *protocols[] = { "tile", NULL };

  return protocols;
}

/* GstURIHandler of both elements: tile://HOST[:PORT][?PROPERTY=VALUE&...],
 * HOST and PORT their `host` and `port` */

static GstURIType
uri_get_type (GType type)
{
  return g_type_is_a (type, GST_TYPE_BASE_SINK) ? GST_URI_SINK : GST_URI_SRC;
}

static const gchar *const *
uri_get_protocols (GType type)
{
  return gst_tile_uri_protocols ();
}

static gchar *
uri_get_uri (GstURIHandler * handler)
{
  gchar *host = NULL, *uri;
  guint port = 0;

  g_object_get (handler, "host", &host, "port", &port, NULL);
  uri = gst_tile_uri_build (host, port);
  g_free (host);
  return uri;
}

static gboolean
uri_set_uri (GstURIHandler * handler, const gchar * uri, GError ** error)
{
  return gst_tile_uri_apply (GST_ELEMENT (handler), uri, error);
}

void
gst_tile_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = g_iface;

  iface->get_type = uri_get_type;
  iface->get_protocols = uri_get_protocols;
  iface->get_uri = uri_get_uri;
  iface->set_uri = uri_set_uri;
}
