/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthapelements.h"

#include <string.h>

/* the fields a Hap stream and its video/x-bc frames have in common (Hap
 * stores no colorimetry, but a stream's caps may carry one: BC6H's names
 * its primaries) */
static const gchar *const hap_copied_fields[] = {
  "width", "height", "framerate", "pixel-aspect-ratio", "colorimetry"
};

static void
gst_hap_copy_fields (GstStructure * to, const GstStructure * from)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hap_copied_fields); i++) {
    const GValue *v = gst_structure_get_value (from, hap_copied_fields[i]);

    if (v)
      gst_structure_set_value (to, hap_copied_fields[i], v);
  }
}

/* the QuickTime code of caps structure @s of Hap frames, or 0 */
static guint32
gst_hap_structure_get_fourcc (const GstStructure * s)
{
  const gchar *name = gst_structure_get_name (s);
  guint32 fourcc = 0;

  if (g_str_has_prefix (name, "video/x-gst-fourcc-") &&
      strlen (name) == strlen ("video/x-gst-fourcc-") + 4) {
    const gchar *c = name + strlen ("video/x-gst-fourcc-");

    fourcc = GST_MAKE_FOURCC (c[0], c[1], c[2], c[3]);
  } else if (gst_structure_has_name (s, "video/x-qt-part")) {
    if (!gst_structure_get_uint (s, "format", &fourcc))
      return 0;
  }
  return fourcc;
}

/**
 * gst_hap_structure_get_format:
 * @s: caps structure of Hap frames: `video/x-gst-fourcc-Hap1` (qtdemux's
 *     name for an unknown QuickTime code) or `video/x-qt-part` with a
 *     `format` code (what qtmux takes)
 *
 * Returns: the texture format, or %GST_BC_FORMAT_UNKNOWN; for Hap HDR,
 *     whose frames are BC6H or BC6H-SF, %GST_BC_FORMAT_BC6H
 */
GstBcFormat
gst_hap_structure_get_format (const GstStructure * s)
{
  return gst_bc_hap_format_from_fourcc (gst_hap_structure_get_fourcc (s));
}

/**
 * gst_hap_format_shares_fourcc:
 * @format: a texture format
 *
 * Returns: whether another format has the QuickTime code of @format (BC6H
 *     and BC6H-SF: Hap HDR), so that only the frames say which they are
 */
gboolean
gst_hap_format_shares_fourcc (GstBcFormat format)
{
  guint32 fourcc = gst_bc_hap_fourcc_from_format (format);
  GstBcFormat f;

  for (f = GST_BC_FORMAT_BC1; fourcc && f < GST_BC_FORMAT_LAST; f++)
    if (f != format && gst_bc_hap_fourcc_from_format (f) == fourcc)
      return TRUE;
  return FALSE;
}

/* sets on @s the formats of the frames of @fourcc: a string, or a list of
 * those that share it (Hap HDR: BC6H or BC6H-SF, the frames say which) */
static void
gst_hap_set_formats (GstStructure * s, guint32 fourcc)
{
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  GstBcFormat f;

  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  for (f = GST_BC_FORMAT_BC1; f < GST_BC_FORMAT_LAST; f++) {
    if (gst_bc_hap_fourcc_from_format (f) != fourcc)
      continue;
    g_value_set_string (&v, gst_bc_format_to_string (f));
    gst_value_list_append_value (&list, &v);
  }
  if (gst_value_list_get_size (&list) == 1)
    gst_structure_set_value (s, "format", gst_value_list_get_value (&list, 0));
  else
    gst_structure_set_value (s, "format", &list);
  g_value_unset (&v);
  g_value_unset (&list);
}

/**
 * gst_hap_caps_to_bc:
 * @caps: caps of Hap frames
 *
 * Returns: (transfer full): the `video/x-bc` caps of their textures (for
 *     Hap HDR both BC6H formats, BC6H first)
 */
static GstCaps *
gst_hap_caps_to_bc (const GstCaps * caps)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    guint32 fourcc = gst_hap_structure_get_fourcc (in);
    GstStructure *out;

    if (gst_bc_hap_format_from_fourcc (fourcc) == GST_BC_FORMAT_UNKNOWN)
      continue;
    out = gst_structure_new_empty (GST_BC_MEDIA_TYPE);
    gst_hap_set_formats (out, fourcc);
    gst_hap_copy_fields (out, in);
    ret = gst_caps_merge_structure (ret, out);
  }
  return ret;
}

/* @caps with the Hap caps of @format_str merged in (BC6H and BC6H-SF give
 * the same) */
static GstCaps *
gst_hap_append_format (GstCaps * caps, const gchar * format_str,
    gboolean qt_part, const GstStructure * from)
{
  guint32 fourcc =
      gst_bc_hap_fourcc_from_format (gst_bc_format_from_string (format_str));
  GstStructure *s;
  gchar *name;

  if (!fourcc)
    return caps;
  name = g_strdup_printf ("video/x-gst-fourcc-%" GST_FOURCC_FORMAT,
      GST_FOURCC_ARGS (fourcc));
  s = gst_structure_new_empty (name);
  g_free (name);
  gst_hap_copy_fields (s, from);
  caps = gst_caps_merge_structure (caps, s);
  if (qt_part) {
    s = gst_structure_new ("video/x-qt-part", "format", G_TYPE_UINT, fourcc,
        NULL);
    gst_hap_copy_fields (s, from);
    caps = gst_caps_merge_structure (caps, s);
  }
  return caps;
}

/**
 * gst_hap_caps_from_bc:
 * @caps: `video/x-bc` caps
 * @qt_part: also give each format as `video/x-qt-part` (for qtmux), after
 *     the `video/x-gst-fourcc-` form
 *
 * Returns: (transfer full): the caps of Hap frames of those textures (none
 *     for BC5, which Hap has no variant for)
 */
static GstCaps *
gst_hap_caps_from_bc (const GstCaps * caps, gboolean qt_part)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    const GValue *formats = gst_structure_get_value (in, "format");

    if (!gst_structure_has_name (in, GST_BC_MEDIA_TYPE))
      continue;
    if (!formats) {
      GstBcFormat f;

      for (f = GST_BC_FORMAT_BC1; f < GST_BC_FORMAT_LAST; f++)
        ret = gst_hap_append_format (ret, gst_bc_format_to_string (f),
            qt_part, in);
    } else if (G_VALUE_HOLDS_STRING (formats)) {
      ret = gst_hap_append_format (ret, g_value_get_string (formats), qt_part,
          in);
    } else if (GST_VALUE_HOLDS_LIST (formats)) {
      for (j = 0; j < gst_value_list_get_size (formats); j++) {
        const GValue *v = gst_value_list_get_value (formats, j);

        if (G_VALUE_HOLDS_STRING (v))
          ret = gst_hap_append_format (ret, g_value_get_string (v), qt_part,
              in);
      }
    }
  }
  return ret;
}

/**
 * gst_hap_transform_caps:
 * @bt: hapdec or hapenc
 * @direction: the pad @caps are on
 * @caps: caps to transform
 * @filter: (nullable): caps to intersect the result with
 * @hap_on_sink: %TRUE for hapdec (Hap frames on the sink pad), %FALSE for
 *     hapenc (Hap frames on the src pad, with qtmux's form too)
 *
 * The transform_caps of both elements.
 *
 * Returns: (transfer full): the caps on the other pad
 */
GstCaps *
gst_hap_transform_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, gboolean hap_on_sink)
{
  gboolean from_hap = (direction == GST_PAD_SINK) == hap_on_sink;
  GstCaps *ret = from_hap ? gst_hap_caps_to_bc (caps) :
      gst_hap_caps_from_bc (caps, !hap_on_sink);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  GST_DEBUG_OBJECT (bt, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/**
 * gst_hap_workers_new:
 * @element: hapdec or hapenc
 * @threads: its threads property (read under the object lock)
 *
 * Returns: (transfer full): the threads that work on a frame's chunks
 */
GstBcWorkers *
gst_hap_workers_new (GstElement * element, const guint * threads)
{
  guint n;

  GST_OBJECT_LOCK (element);
  n = *threads;
  GST_OBJECT_UNLOCK (element);
  return gst_bc_workers_new (n);
}

/**
 * gst_hap_element_init:
 * @plugin: the plugin being loaded
 *
 * Shared initialisation of the plugin's elements; safe to call more than
 * once.
 */
void
gst_hap_element_init (GstPlugin * plugin)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gst_bc_init ();
    gst_type_mark_as_plugin_api (GST_TYPE_BC_HAP_COMPRESSOR, 0);
    g_once_init_leave (&done, 1);
  }
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (hapdec, plugin);
  ret |= GST_ELEMENT_REGISTER (hapenc, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR,
    GST_VERSION_MINOR,
    hap,
    "Hap frames (QuickTime .mov) to and from block-compressed video",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
