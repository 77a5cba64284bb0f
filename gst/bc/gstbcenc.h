/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_ENC_H__
#define __GST_BC_ENC_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>

G_BEGIN_DECLS

#define GST_TYPE_BC_ENC (gst_bc_enc_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstBcEnc, gst_bc_enc, GST, BC_ENC, GstVideoEncoder);

/**
 * GST_BC_ENC_RAW_FORMATS:
 *
 * The packed RGB(A) video formats every #GstBcEnc accepts (bc4enc also
 * takes GRAY8 and GRAY16_LE).
 */
#define GST_BC_ENC_RAW_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, xRGB, xBGR, ARGB, ABGR, RGB, BGR }"

/**
 * GstBcEncClass:
 * @parent_class: the parent class
 * @get_format: returns the #GstBcFormat to produce with the element's current
 *     settings. Called from the streaming thread when the input format is set;
 *     the subclass reads its own properties under the object lock.
 *
 * The abstract base of the CPU block-compression encoders.
 */
struct _GstBcEncClass
{
  GstVideoEncoderClass parent_class;

  GstBcFormat (*get_format) (GstBcEnc * enc);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

/**
 * GST_BC_ENC_GL_FORMATS:
 *
 * The GLMemory formats the GL path reads (RGBA textures whose components
 * are the format's bytes in memory order).
 */
#define GST_BC_ENC_GL_FORMATS "{ RGBA, RGBx, BGRA, BGRx }"

/**
 * GST_BC_ENC_GL_GRAY_FORMATS:
 *
 * The GLMemory formats of bc4enc's GL path: grey textures (GRAY8 is R8,
 * GRAY16_LE two bytes a texel) read as grey, then those of
 * %GST_BC_ENC_GL_FORMATS.
 */
#define GST_BC_ENC_GL_GRAY_FORMATS \
    "{ GRAY8, GRAY16_LE, RGBA, RGBx, BGRA, BGRx }"

G_GNUC_INTERNAL
void gst_bc_enc_class_add_pad_templates (GstElementClass * element_class,
                                         const gchar * raw_formats,
                                         const gchar * gl_formats,
                                         const gchar * bc_formats);

G_END_DECLS

#endif /* __GST_BC_ENC_H__ */
