/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_HAP_H__
#define __GST_BC_HAP_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bcworkers.h>

G_BEGIN_DECLS

/**
 * GST_BC_HAP_FOURCC_HAP1:
 *
 * The QuickTime sample description code of Hap (BC1).
 */
#define GST_BC_HAP_FOURCC_HAP1 GST_MAKE_FOURCC ('H', 'a', 'p', '1')
/**
 * GST_BC_HAP_FOURCC_HAP5:
 *
 * The QuickTime sample description code of Hap Alpha (BC3).
 */
#define GST_BC_HAP_FOURCC_HAP5 GST_MAKE_FOURCC ('H', 'a', 'p', '5')
/**
 * GST_BC_HAP_FOURCC_HAPY:
 *
 * The QuickTime sample description code of Hap Q (scaled YCoCg in BC3).
 */
#define GST_BC_HAP_FOURCC_HAPY GST_MAKE_FOURCC ('H', 'a', 'p', 'Y')
/**
 * GST_BC_HAP_FOURCC_HAPA:
 *
 * The QuickTime sample description code of Hap Alpha-Only (BC4).
 */
#define GST_BC_HAP_FOURCC_HAPA GST_MAKE_FOURCC ('H', 'a', 'p', 'A')
/**
 * GST_BC_HAP_FOURCC_HAP7:
 *
 * The QuickTime sample description code of Hap R (BC7).
 */
#define GST_BC_HAP_FOURCC_HAP7 GST_MAKE_FOURCC ('H', 'a', 'p', '7')
/**
 * GST_BC_HAP_FOURCC_HAPH:
 *
 * The QuickTime sample description code of Hap HDR (BC6H): both
 * %GST_BC_FORMAT_BC6H (image section type 0x_2) and %GST_BC_FORMAT_BC6H_SF
 * (0x_3) have it, each frame says which.
 */
#define GST_BC_HAP_FOURCC_HAPH GST_MAKE_FOURCC ('H', 'a', 'p', 'H')
/**
 * GST_BC_HAP_FOURCC_HAPM:
 *
 * The QuickTime sample description code of Hap Q Alpha (two textures:
 * scaled YCoCg in BC3 and alpha in BC4), which has no #GstBcFormat.
 */
#define GST_BC_HAP_FOURCC_HAPM GST_MAKE_FOURCC ('H', 'a', 'p', 'M')

/**
 * GstBcHapCompressor:
 * @GST_BC_HAP_COMPRESSOR_NONE: the texture is stored as it is
 * @GST_BC_HAP_COMPRESSOR_SNAPPY: the texture is compressed with Snappy
 *
 * The second-stage compressor of a Hap frame or of one of its chunks (the
 * values are the Hap format's own).
 */
typedef enum
{
  GST_BC_HAP_COMPRESSOR_NONE = 0x0A,
  GST_BC_HAP_COMPRESSOR_SNAPPY = 0x0B,
} GstBcHapCompressor;

GST_BC_API
GType gst_bc_hap_compressor_get_type (void);
#define GST_TYPE_BC_HAP_COMPRESSOR (gst_bc_hap_compressor_get_type ())

/**
 * GST_BC_HAP_MAX_CHUNKS:
 *
 * The most chunks gst_bc_hap_frame_compose() cuts a texture into.
 */
#define GST_BC_HAP_MAX_CHUNKS 64

/**
 * GstBcHapFrame:
 * @format: the texture format of the frame
 * @type: the type of the frame's image section (e.g. 0xBB: BC1, Snappy;
 *     0xA3: BC6H-SF, stored)
 * @n_chunks: how many chunks the texture is stored in (1 when the frame
 *     has no chunk tables)
 *
 * A Hap frame parsed by gst_bc_hap_frame_parse(): every section header,
 * table and chunk of it has been checked to lie within the frame. It points
 * into the frame's bytes, which must stay valid while it is used.
 */
typedef struct
{
  GstBcFormat format;
  guint8 type;
  guint n_chunks;

  /*< private > */
  const guint8 *frame;
  const guint8 *data;
  gsize data_size;
  const guint8 *chunk_compressors;
  const guint8 *chunk_sizes;
  const guint8 *chunk_offsets;

  gpointer _gst_reserved[GST_PADDING];
} GstBcHapFrame;

GST_BC_API
guint32     gst_bc_hap_fourcc_from_format (GstBcFormat format);

GST_BC_API
GstBcFormat gst_bc_hap_format_from_fourcc (guint32 fourcc);

GST_BC_API
gboolean    gst_bc_hap_frame_parse (GstBcHapFrame * frame,
                                    const guint8 * data, gsize size,
                                    GError ** error);

GST_BC_API
gboolean    gst_bc_hap_frame_get_stored (const GstBcHapFrame * frame,
                                         gsize texture_size, gsize * offset);

GST_BC_API
gboolean    gst_bc_hap_frame_decode (const GstBcHapFrame * frame,
                                     guint8 * texture, gsize texture_size,
                                     GstBcWorkers * workers,
                                     GError ** error);

GST_BC_API
gsize       gst_bc_hap_frame_max_size (const GstBcInfo * info, guint chunks);

GST_BC_API
gsize       gst_bc_hap_frame_compose (const GstBcInfo * info,
                                      const guint8 * texture,
                                      GstBcHapCompressor compressor,
                                      guint chunks, GstBcWorkers * workers,
                                      guint8 * out, gsize out_size,
                                      gsize * offset);

GST_BC_API
guint       gst_bc_hap_frame_stored_header (GstBcFormat format,
                                            gsize texture_size,
                                            guint8 * header);

G_END_DECLS

#endif /* __GST_BC_HAP_H__ */
