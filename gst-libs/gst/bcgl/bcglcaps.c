/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload's caps (see bcgl.h) */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcgl.h"

#include <gst/bc/bcformat.h>

static const gchar *const copied[] = { "width", "height", "framerate",
  "pixel-aspect-ratio"
};

static void
copy_fields (GstStructure * out, const GstStructure * in)
{
  guint j;

  for (j = 0; j < G_N_ELEMENTS (copied); j++) {
    const GValue *v = gst_structure_get_value (in, copied[j]);

    if (v)
      gst_structure_set_value (out, copied[j], v);
  }
}

GstCaps *
gst_bc_gl_caps_transform (GstPadDirection direction, GstCaps * caps,
    GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();
  GstCaps *bc = NULL;
  const GValue *formats = NULL;
  guint i;

  if (direction == GST_PAD_SRC) {
    bc = gst_caps_from_string (GST_BC_MEDIA_TYPE ", format = (string) "
        GST_BC_FORMATS_UNORM);
    formats = gst_structure_get_value (gst_caps_get_structure (bc, 0),
        "format");
  }

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstStructure *out;

    if (direction == GST_PAD_SINK) {
      /* RGBA in GLMemory, then in system memory (read back) */
      out = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "RGBA", "texture-target", G_TYPE_STRING, "2D", NULL);
      copy_fields (out, in);
      ret = gst_caps_merge_structure_full (ret, out,
          gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_GL_MEMORY));
      out = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "RGBA", NULL);
    } else {
      out = gst_structure_new_empty (GST_BC_MEDIA_TYPE);
      gst_structure_set_value (out, "format", formats);
    }
    copy_fields (out, in);
    ret = gst_caps_merge_structure_full (ret, out, NULL);
  }
  if (bc)
    gst_caps_unref (bc);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  return ret;
}

GstCaps *
gst_bc_gl_caps_prefer_gl_memory (GstCaps * caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    if (gst_caps_features_contains (gst_caps_get_features (caps, i),
            GST_CAPS_FEATURE_MEMORY_GL_MEMORY)) {
      GstCaps *gl = gst_caps_copy_nth (caps, i);

      gst_caps_unref (caps);
      return gl;
    }
  }
  return caps;
}
