/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What every format's compute shader starts with, after the defines
 * bcglencode.c puts in front (see bc1-bc3.comp, bc4-bc5.comp and
 * bc7.comp): the work group, the uniforms bcglencode.c sets, the
 * output storage block, the texel fetch with clamp-to-edge padding (of
 * YUV input: yuv.glsl's conversion when YUV_LAYOUT is defined), the
 * block's pixels by channel, the block stores and clamp255 ().
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_prelude_glsl, without this header. */

layout (local_size_x = 8, local_size_y = 8) in;

uniform highp sampler2D u_src;
/* visible size, blocks per row and column */
uniform ivec2 u_size;
uniform ivec2 u_blocks;
/* texel component of r, g, b and a; a < 0: opaque */
uniform ivec4 u_chan;

layout (std430, binding = 0) writeonly buffer Blocks {
  uint u_out[];
};

#ifdef YUV_LAYOUT
/* YUV input: the pixel's RGBA codes (yuv.glsl, after this file) */
uvec4 yuv_texel (ivec2 c);
#endif

/* the bytes of pixel i (row by row) of block blk, at coordinates
 * clamped to the visible size: clamp-to-edge padding, as the CPU path's
 * gather repeats the last column and row */
uvec4 block_texel (ivec2 blk, int i)
{
  ivec2 c = min (blk * 4 + ivec2 (i & 3, i >> 2), u_size - 1);

#ifdef YUV_LAYOUT
  return yuv_texel (c);
#else
  return uvec4 (texelFetch (u_src, c, 0) * 255.0 + 0.5);
#endif
}

/* v clamped to 0..255, the C code's clamp255 () */
float clamp255 (float v)
{
  return v < 0.0 ? 0.0 : (v > 255.0 ? 255.0 : v);
}

/* pixel i of block blk as (r, g, b, a), by u_chan; alpha 255 when
 * the format has none */
uvec4 block_pixel (ivec2 blk, int i)
{
  uvec4 t = block_texel (blk, i);

  return uvec4 (t[u_chan.x], t[u_chan.y], t[u_chan.z],
      u_chan.w < 0 ? 255u : t[u_chan.w]);
}

/* the 8 bytes (c) or 16 bytes (a, then c) of block blk, where the
 * frame layout wants them */
void put_block8 (ivec2 blk, uvec2 c)
{
  uint base = uint (blk.y * u_blocks.x + blk.x) * 2u;

  u_out[base] = c.x;
  u_out[base + 1u] = c.y;
}

void put_block16 (ivec2 blk, uvec2 a, uvec2 c)
{
  uint base = uint (blk.y * u_blocks.x + blk.x) * 4u;

  u_out[base] = a.x;
  u_out[base + 1u] = a.y;
  u_out[base + 2u] = c.x;
  u_out[base + 3u] = c.y;
}

