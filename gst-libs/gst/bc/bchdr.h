/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_HDR_H__
#define __GST_BC_HDR_H__

#include <gst/bc/bc-prelude.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GST_BC_HDR_REFERENCE_WHITE:
 *
 * The luminance in cd/m2 of 1.0 in BC6H's linear light: the HDR reference
 * white of ITU-R BT.2408.
 */
#define GST_BC_HDR_REFERENCE_WHITE 203.0

/**
 * GST_BC_HDR_TONE_KNEE:
 *
 * Where the SDR tone curve of gst_bc_hdr_tone_curve() leaves the identity,
 * in units of the reference white.
 */
#define GST_BC_HDR_TONE_KNEE 0.8

GST_BC_API
gdouble  gst_bc_hdr_half_to_double (guint16 half);

GST_BC_API
guint16  gst_bc_hdr_pq_from_half (guint16 half);

GST_BC_API
gdouble  gst_bc_hdr_tone_curve (gdouble x);

GST_BC_API
void     gst_bc_hdr_tone_map (const guint16 rgb[3], guint8 out[3]);

GST_BC_API
GstVideoColorPrimaries gst_bc_hdr_primaries_from_caps (const GstCaps * caps);

GST_BC_API
void     gst_bc_hdr_output_colorimetry (GstVideoColorPrimaries primaries,
                                        gboolean pq,
                                        GstVideoColorimetry * colorimetry);

/**
 * GST_BC_HDR_HLG_PEAK:
 * The nominal peak luminance in cd/m2 of the display the HLG input is
 * rendered for (the BT.2100 reference display): its OOTF gamma is 1.2.
 */
#define GST_BC_HDR_HLG_PEAK 1000.0

/**
 * GST_BC_HDR_INPUT_FORMATS:
 * The raw video formats gst_bc_hdr_input_new() converts, as a caps list.
 */
#define GST_BC_HDR_INPUT_FORMATS "{ RGBA64_LE, RGB10A2_LE }"

/**
 * GstBcHdrInput:
 *
 * The conversion of raw HDR video (a format and a transfer function) to
 * the linear half floats BC6H holds. Opaque.
 */
typedef struct _GstBcHdrInput GstBcHdrInput;

GST_BC_API
gboolean gst_bc_hdr_input_transfer_supported (GstVideoTransferFunction transfer);

GST_BC_API
GstBcHdrInput * gst_bc_hdr_input_new (GstVideoFormat format,
                                      const GstVideoColorimetry * colorimetry);

GST_BC_API
void     gst_bc_hdr_input_free (GstBcHdrInput * input);

GST_BC_API
guint    gst_bc_hdr_input_get_bpp (const GstBcHdrInput * input);

GST_BC_API
void     gst_bc_hdr_input_convert (const GstBcHdrInput * input,
                                   const guint8 * src, guint n_pixels,
                                   guint16 * rgba);

GST_BC_API
void     gst_bc_hdr_input_get_tables (const GstBcHdrInput * input,
                                      guint * n_codes,
                                      const guint16 ** half,
                                      const gfloat ** scene,
                                      const gfloat ** ootf,
                                      guint * ootf_first, guint * n_ootf,
                                      gfloat ys[3]);

GST_BC_API
guint16  gst_bc_hdr_half_from_float (gfloat v);

G_END_DECLS

#endif /* __GST_BC_HDR_H__ */
