/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV input of the GL encode path: the textures glupload makes of a YUV
 * frame, converted to RGB texel by texel as block_texel () of
 * prelude.glsl reads them. A port of gst-libs/gst/bc/bcyuv-kernels.c in
 * the same 32-bit integer arithmetic, so every implementation gives the
 * CPU path's codes exactly: bilinear chroma at its siting (1/4 of a code
 * horizontally, 1/16 after the vertical step of 4:2:0), then the matrix in
 * 2^-u_yuv_shift codes with the coefficients gst_bc_yuv_info_get_
 * coefficients () derives on the CPU.
 *
 * bcglencode.c puts YUV_LAYOUT in front (the values below) and this file
 * after prelude.glsl. The textures (GStreamer 1.22's GstGLMemory of each
 * format, as glupload makes them):
 *   I420: u_src R8 luma, u_src1 R8 U, u_src2 R8 V (chroma (w+1)/2 x (h+1)/2)
 *   NV12: u_src R8 luma, u_src1 RG8 U, V
 *   P010_10LE: u_src R16 luma, u_src1 RG16 U, V (10 high bits)
 *   YUY2: u_src RG8 of the frame's width: texel x is (Y x, U of its pair)
 *     for even x, (Y x, V) for odd x
 *   UYVY: the same with the two bytes swapped: (U or V, Y x)
 * An odd-width YUY2 or UYVY texture ends with the last pair's U: its V is
 * not in the texture (the CPU path reads it from the frame's last 4-byte
 * pair); the previous pair's V stands for it, the chroma offset (grey) at
 * width 1.
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_yuv_glsl, without this header. */

/* the largest output code: 255, or 65535 for the BC6H encoder (the 16-bit
 * RGB of gst_bc_yuv_info_set_depth (), with its coefficients and shift) */
#ifndef YUV_MAX
#define YUV_MAX 255
#endif

#define YUV_I420 1
#define YUV_NV12 2
#define YUV_P010 3
#define YUV_YUY2 4
#define YUV_UYVY 5

#if YUV_LAYOUT == YUV_I420 || YUV_LAYOUT == YUV_NV12 || YUV_LAYOUT == YUV_P010
#define YUV_420 1
#else
#define YUV_420 0
#endif

uniform highp sampler2D u_src1;
uniform highp sampler2D u_src2;
/* luma offset, chroma offset in 1/16 */
uniform ivec2 u_yuv_offset;
/* Y, R from V, G from U, G from V (then B from U in u_yuv_kb) */
uniform ivec4 u_yuv_k;
uniform int u_yuv_kb;
uniform int u_yuv_shift;
/* chroma cosited horizontally, vertically */
uniform bvec2 u_yuv_cosited;

int unorm8 (float v)
{
  return int (v * 255.0 + 0.5);
}

/* the 10 high bits of a 16-bit sample */
int unorm16_10 (float v)
{
  return int (v * 65535.0 + 0.5) >> 6;
}

int yuv_luma (ivec2 c)
{
  vec4 t = texelFetch (u_src, c, 0);

#if YUV_LAYOUT == YUV_P010
  return unorm16_10 (t.r);
#elif YUV_LAYOUT == YUV_UYVY
  return unorm8 (t.g);
#else
  return unorm8 (t.r);
#endif
}

/* the chroma byte of texel x of row y of a packed 4:2:2 texture */
int packed_chroma (int x, int y)
{
  vec4 t = texelFetch (u_src, ivec2 (x, y), 0);

#if YUV_LAYOUT == YUV_UYVY
  return unorm8 (t.r);
#else
  return unorm8 (t.g);
#endif
}

/* (U, V) of chroma column col (clamped to the picture's) of chroma row
 * cy (inside it) */
ivec2 yuv_chroma (int col, int cy)
{
  int cw = (u_size.x + 1) / 2;
  ivec2 c = ivec2 (clamp (col, 0, cw - 1), cy);

#if YUV_LAYOUT == YUV_I420
  return ivec2 (unorm8 (texelFetch (u_src1, c, 0).r),
      unorm8 (texelFetch (u_src2, c, 0).r));
#elif YUV_LAYOUT == YUV_NV12
  vec4 t = texelFetch (u_src1, c, 0);

  return ivec2 (unorm8 (t.r), unorm8 (t.g));
#elif YUV_LAYOUT == YUV_P010
  vec4 t = texelFetch (u_src1, c, 0);

  return ivec2 (unorm16_10 (t.r), unorm16_10 (t.g));
#else
  int u = packed_chroma (2 * c.x, cy), v;

  if (2 * c.x + 1 < u_size.x)
    v = packed_chroma (2 * c.x + 1, cy);
  else if (c.x > 0)
    v = packed_chroma (2 * c.x - 1, cy);
  else
    v = u_yuv_offset.y / 16;
  return ivec2 (u, v);
#endif
}

/* chroma row cy upsampled horizontally at pixel x, in 1/4 (chroma_row ()
 * and upsample_row () of bcyuv-kernels.c) */
ivec2 yuv_chroma_h (int x, int cy)
{
  int i = x >> 1;
  ivec2 c = yuv_chroma (i, cy);

  if (u_yuv_cosited.x) {
    if ((x & 1) == 0)
      return 4 * c;
    return 2 * (c + yuv_chroma (i + 1, cy));
  }
  return 3 * c + yuv_chroma ((x & 1) == 0 ? i - 1 : i + 1, cy);
}

/* the RGBA codes of pixel c (inside the picture) */
uvec4 yuv_texel (ivec2 c)
{
  ivec2 uv;
  int l, r, g, b, rnd;

#if YUV_420
  {
    int ch = (u_size.y + 1) / 2, j = c.y >> 1, odd = c.y & 1;
    int ja = j, jb, wa, wb;

    if (u_yuv_cosited.y) {
      jb = j + 1;
      wa = odd != 0 ? 2 : 4;
    } else {
      jb = odd != 0 ? j + 1 : j - 1;
      wa = 3;
    }
    wb = 4 - wa;
    uv = wa * yuv_chroma_h (c.x, min (ja, ch - 1));
    if (wb > 0)
      uv += wb * yuv_chroma_h (c.x, clamp (jb, 0, ch - 1));
  }
#else
  uv = 4 * yuv_chroma_h (c.x, c.y);
#endif
  uv -= u_yuv_offset.y;

  rnd = 1 << (u_yuv_shift - 1);
  l = u_yuv_k.x * (yuv_luma (c) - u_yuv_offset.x) + rnd;
  r = (l + u_yuv_k.y * uv.y) >> u_yuv_shift;
  g = (l - u_yuv_k.z * uv.x - u_yuv_k.w * uv.y) >> u_yuv_shift;
  b = (l + u_yuv_kb * uv.x) >> u_yuv_shift;
  return uvec4 (uvec3 (clamp (ivec3 (r, g, b), 0, YUV_MAX)), uint (YUV_MAX));
}
