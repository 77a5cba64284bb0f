/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared by the element tests: checks that docs/elements.md describes an
 * element and every property it adds. */

#ifndef __BC_DOCS_CHECK_H__
#define __BC_DOCS_CHECK_H__

#include <gst/check/gstcheck.h>
#include <string.h>

/* docs/elements.md must describe every property the element adds */
static inline void
check_documented (const gchar * factory_name)
{
  GstElementFactory *factory = gst_element_factory_find (factory_name);
  GstElement *element;
  GParamSpec **props;
  gchar *doc = NULL, *needle, *path;
  guint i, n_props, n_own = 0;

  path = g_build_filename (GST_BC_SOURCE_ROOT, "docs", "elements.md", NULL);

  fail_unless (factory != NULL);
  fail_unless (g_file_get_contents (path, &doc, NULL, NULL), "cannot read %s",
      path);
  needle = g_strdup_printf ("## %s", factory_name);
  fail_unless (strstr (doc, needle) != NULL, "no section for %s", factory_name);
  g_free (needle);
  fail_unless (strstr (doc, gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_LONGNAME)) != NULL, "long name of %s "
      "not in the docs", factory_name);

  element = gst_element_factory_create (factory, NULL);
  props = g_object_class_list_properties (G_OBJECT_GET_CLASS (element),
      &n_props);
  for (i = 0; i < n_props; i++) {
    const gchar *type_name = g_type_name (props[i]->owner_type);

    /* ours, not GstObject's or the codec base classes' */
    if (!g_str_has_prefix (type_name, "GstBc")
        && !g_str_has_prefix (type_name, "GstTile")
        && !g_str_has_prefix (type_name, "GstGLBc"))
      continue;
    n_own++;
    needle = g_strdup_printf ("| `%s` |", props[i]->name);
    fail_unless (strstr (doc, needle) != NULL, "property %s of %s is not in "
        "the table of %s", props[i]->name, factory_name, path);
    g_free (needle);
  }
  fail_unless (n_own > 0);
  g_free (props);
  gst_object_unref (element);
  gst_object_unref (factory);
  g_free (path);
  g_free (doc);
}

#endif /* __BC_DOCS_CHECK_H__ */
