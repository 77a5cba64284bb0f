/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Every element of the plugins built here (bc, tile, glbc, hap: those loaded
 * from the build tree) has its section in docs/elements.md, with its long
 * name and a table row for every property it adds: a new element or
 * property fails this test until it is documented. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "gstbctest.h"

/* docs/elements.md must describe @factory_name and every property it adds */
static void
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
  needle = g_strdup_printf ("\n## %s\n", factory_name);
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
        && !g_str_has_prefix (type_name, "GstGLBc")
        && !g_str_has_prefix (type_name, "GstHap"))
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

GST_START_TEST (test_every_element_documented)
{
  GList *plugins = gst_registry_get_plugin_list (gst_registry_get ()), *l;
  gchar *build_dir = g_canonicalize_filename (GST_BC_PLUGIN_BUILD_DIR, NULL);
  guint n_plugins = 0, n_elements = 0;

  for (l = plugins; l; l = l->next) {
    GstPlugin *plugin = l->data;
    const gchar *file = gst_plugin_get_filename (plugin);
    gchar *dir = file ? g_path_get_dirname (file) : NULL;
    gchar *canonical = dir ? g_canonicalize_filename (dir, NULL) : NULL;
    gboolean ours = canonical && g_str_has_prefix (canonical, build_dir);
    GList *features, *f;

    g_free (canonical);
    g_free (dir);
    if (!ours)
      continue;
    n_plugins++;
    features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
        gst_plugin_get_name (plugin));
    for (f = features; f; f = f->next) {
      if (!GST_IS_ELEMENT_FACTORY (f->data))
        continue;
      GST_INFO ("%s: %s", gst_plugin_get_name (plugin),
          gst_plugin_feature_get_name (f->data));
      check_documented (gst_plugin_feature_get_name (f->data));
      n_elements++;
    }
    gst_plugin_feature_list_free (features);
  }
  gst_plugin_list_free (plugins);
  /* bc alone has six elements */
  fail_unless (n_plugins >= 1 && n_elements >= 6, "%u plugins, %u elements "
      "from %s", n_plugins, n_elements, build_dir);
  g_free (build_dir);
}

GST_END_TEST;

static Suite *
documented_suite (void)
{
  Suite *s = suite_create ("documented");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_every_element_documented);
  return s;
}

GST_CHECK_MAIN (documented);
