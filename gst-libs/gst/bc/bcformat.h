/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_FORMAT_H__
#define __GST_BC_FORMAT_H__

#include <gst/bc/bc-prelude.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GST_BC_MEDIA_TYPE:
 *
 * The media type of block-compressed video frames.
 */
#define GST_BC_MEDIA_TYPE "video/x-bc"

/**
 * GST_BC_FORMATS_ALL:
 *
 * Every format string of #GstBcFormat, as a caps list.
 */
#define GST_BC_FORMATS_ALL \
    "{ BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H, BC6H-SF }"

/**
 * GST_BC_FORMATS_UNORM:
 *
 * The format strings of the #GstBcFormat values that hold 8-bit unsigned
 * normalized values (every format but BC6H and BC6H-SF, which hold half
 * floats), as a caps list.
 */
#define GST_BC_FORMATS_UNORM "{ BC1, YCoCg-BC3, BC3, BC4, BC5, BC7 }"

/**
 * GST_BC_CAPS_MAKE:
 * @format: a format string or list, e.g. "BC1" or GST_BC_FORMATS_ALL
 *
 * Template caps string for block-compressed video of @format at any size.
 */
#define GST_BC_CAPS_MAKE(format) \
    GST_BC_MEDIA_TYPE ", format = (string) " format ", " \
    "width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE ", " \
    "framerate = " GST_VIDEO_FPS_RANGE

/**
 * GST_BC_BLOCK_SIZE:
 *
 * Width and height in pixels of one block (4 for every #GstBcFormat).
 */
#define GST_BC_BLOCK_SIZE 4

/**
 * GstBcFormat:
 * @GST_BC_FORMAT_UNKNOWN: not a block-compressed format
 * @GST_BC_FORMAT_BC1: BC1 (DXT1), RGB, 8 bytes per block
 * @GST_BC_FORMAT_BC3: BC3 (DXT5), RGBA, 16 bytes per block
 * @GST_BC_FORMAT_YCOCG_BC3: BC3 carrying YCoCg: Y in the alpha block, Co in
 *     red, Cg in green and the block's chroma scale factor in blue
 *     (van Waveren and Castano, "Real-Time YCoCg-DXT Compression", 2007);
 *     16 bytes per block
 * @GST_BC_FORMAT_BC4: BC4 (RGTC1), one channel, 8 bytes per block
 * @GST_BC_FORMAT_BC5: BC5 (RGTC2), two channels, 16 bytes per block
 * @GST_BC_FORMAT_BC7: BC7 (BPTC), RGBA, 16 bytes per block
 * @GST_BC_FORMAT_BC6H: BC6H with unsigned half floats (DXGI's BC6H_UF16,
 *     BPTC_UNSIGNED_FLOAT), RGB, 16 bytes per block. In gst-bc it holds
 *     linear light with 1.0 = 203 cd/m2 (the BT.2408 HDR reference white);
 *     the caps' colorimetry, when given, names the primaries (BT.2020 when
 *     not)
 * @GST_BC_FORMAT_BC6H_SF: BC6H with signed half floats (BC6H_SF16,
 *     BPTC_SIGNED_FLOAT), caps format "BC6H-SF", otherwise as
 *     %GST_BC_FORMAT_BC6H
 *
 * The block-compressed texture formats carried as `video/x-bc`.
 */
typedef enum
{
  GST_BC_FORMAT_UNKNOWN = 0,
  GST_BC_FORMAT_BC1,
  GST_BC_FORMAT_BC3,
  GST_BC_FORMAT_YCOCG_BC3,
  GST_BC_FORMAT_BC4,
  GST_BC_FORMAT_BC5,
  GST_BC_FORMAT_BC7,
  GST_BC_FORMAT_BC6H,
  GST_BC_FORMAT_BC6H_SF,
} GstBcFormat;

#define GST_BC_FORMAT_LAST (GST_BC_FORMAT_BC6H_SF + 1)

GST_BC_API
const gchar * gst_bc_format_to_string (GstBcFormat format);

GST_BC_API
GstBcFormat   gst_bc_format_from_string (const gchar * str);

GST_BC_API
guint         gst_bc_format_get_block_bytes (GstBcFormat format);

GST_BC_API
gboolean      gst_bc_format_is_float (GstBcFormat format);

GST_BC_API
GType         gst_bc_format_get_type (void);
#define GST_TYPE_BC_FORMAT (gst_bc_format_get_type ())

/**
 * GstBcInfo:
 * @format: the block format
 * @width: visible width in pixels
 * @height: visible height in pixels
 * @fps_n: framerate numerator (0/1 when unknown or variable)
 * @fps_d: framerate denominator
 * @par_n: pixel-aspect-ratio numerator
 * @par_d: pixel-aspect-ratio denominator
 * @blocks_x: number of blocks in a block row
 * @blocks_y: number of block rows
 * @padded_width: @width rounded up to a whole block
 * @padded_height: @height rounded up to a whole block
 * @block_bytes: bytes per block
 * @row_bytes: bytes per block row
 * @size: bytes per frame
 *
 * Geometry of a block-compressed frame, like #GstVideoInfo for raw video.
 * A frame is @blocks_y block rows, top to bottom; each block row is
 * @blocks_x blocks, left to right. The picture is padded to whole blocks by
 * repeating its last column and row.
 */
typedef struct
{
  GstBcFormat format;
  guint width;
  guint height;
  gint fps_n;
  gint fps_d;
  gint par_n;
  gint par_d;

  guint blocks_x;
  guint blocks_y;
  guint padded_width;
  guint padded_height;
  guint block_bytes;
  gsize row_bytes;
  gsize size;
} GstBcInfo;

GST_BC_API
void      gst_bc_info_init (GstBcInfo * info);

GST_BC_API
gboolean  gst_bc_info_set_format (GstBcInfo * info, GstBcFormat format,
                                  guint width, guint height);

GST_BC_API
gboolean  gst_bc_info_from_caps (GstBcInfo * info, const GstCaps * caps);

GST_BC_API
GstCaps * gst_bc_info_to_caps (const GstBcInfo * info);

GST_BC_API
gboolean  gst_bc_info_is_equal (const GstBcInfo * a, const GstBcInfo * b);

/**
 * GstBcPixelLayout:
 * @bpp: bytes per pixel (3 or 4; the encoders also read grey layouts of 1
 *     (GRAY8) and 2 (GRAY16_LE) bytes, see
 *     gst_bc_encode_layout_from_video_format())
 * @r: byte offset of red in a pixel
 * @g: byte offset of green
 * @b: byte offset of blue
 * @a: byte offset of alpha, or -1 when the format has no alpha (it reads as
 *     255; on output, the byte at @x is set to 255)
 * @x: byte offset of the padding byte of RGBx-like formats, or -1
 *
 * Where the channels of a packed 8-bit RGB(A) pixel are.
 */
typedef struct
{
  guint bpp;
  gint r, g, b, a, x;
} GstBcPixelLayout;

GST_BC_API
gboolean  gst_bc_pixel_layout_from_video_format (GstBcPixelLayout * layout,
                                                 GstVideoFormat format);

G_END_DECLS

#endif /* __GST_BC_FORMAT_H__ */
