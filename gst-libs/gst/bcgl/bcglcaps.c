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
#include <gst/bc/bchdr.h>

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

/* The colorimetry of the RGBA that BC6H (or BC6H-SF) of @in is
 * tone-mapped to, as a string, or NULL when @in is not of one BC6H format
 * alone: the SDR output of the same frames through bcdec has it, so the
 * two negotiate alike. The BC6H structure's colorimetry gives only the
 * primaries (BT.2020 when it names none); the light is linear there,
 * tone-mapped and sRGB-coded here. */
static gchar *
bc6h_output_colorimetry (const GstStructure * in)
{
  GstVideoColorimetry cinfo;
  GstCaps *caps;
  const gchar *format = gst_structure_get_string (in, "format");

  if (format == NULL
      || !gst_bc_format_is_float (gst_bc_format_from_string (format)))
    return NULL;
  caps = gst_caps_new_full (gst_structure_copy (in), NULL);
  gst_bc_hdr_output_colorimetry (gst_bc_hdr_primaries_from_caps (caps),
      FALSE, &cinfo);
  gst_caps_unref (caps);
  return gst_video_colorimetry_to_string (&cinfo);
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
        GST_BC_GL_UPLOAD_FORMATS);
    formats = gst_structure_get_value (gst_caps_get_structure (bc, 0),
        "format");
  }

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstStructure *out;
    gchar *colorimetry = NULL;

    if (direction == GST_PAD_SINK) {
      colorimetry = bc6h_output_colorimetry (in);
      /* RGBA in GLMemory, then in system memory (read back) */
      out = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "RGBA", "texture-target", G_TYPE_STRING, "2D", NULL);
      copy_fields (out, in);
      if (colorimetry)
        gst_structure_set (out, "colorimetry", G_TYPE_STRING, colorimetry,
            NULL);
      ret = gst_caps_merge_structure_full (ret, out,
          gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_GL_MEMORY));
      out = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "RGBA", NULL);
    } else {
      out = gst_structure_new_empty (GST_BC_MEDIA_TYPE);
      gst_structure_set_value (out, "format", formats);
    }
    copy_fields (out, in);
    if (colorimetry)
      gst_structure_set (out, "colorimetry", G_TYPE_STRING, colorimetry, NULL);
    g_free (colorimetry);
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
