/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload's draw (gstglbcdraw.c), fragment stage: one output pixel from
 * one texel of the compressed texture. The viewport is the visible size,
 * so the block padding is never drawn. The texel is taken back to the
 * 8-bit values the texture unit decoded (exact for UNORM8) and turned into
 * RGBA by `mode`: 0 as is (BC3, BC7), 1 YCoCg (YCoCg-BC3), 2 grey (BC4),
 * 3 red/green (BC5), 4 opaque RGB (BC1).
 *
 * YCoCg is converted with the integers of bcdecode.c:
 * scale = (blue >> 3) + 1, co = red - 128, cg = green - 128,
 * R = Y + (co - cg) / scale, G = Y + cg / scale, B = Y - (co + cg) / scale,
 * each division rounded half up (floor ((2 d + scale) / (2 scale))) and
 * clamped to 0..255. The numerator is made non-negative first, so integer
 * division is floor division in every GLSL version.
 *
 * gstglbcdraw.c puts the #version line (330 core, or 300 es and the
 * precisions) in front. Embedded at build time
 * (gst-libs/gst/bcgl/embed-glsl.py) as gst_gl_bc_shader_draw_frag, without
 * this header. */

uniform sampler2D tex;
uniform int mode;
out vec4 frag_color;
void main ()
{
  ivec4 c = ivec4 (round (texelFetch (tex, ivec2 (gl_FragCoord.xy), 0) * 255.0));
  ivec4 o;
  if (mode == 1) {
    int scale = (c.b >> 3) + 1;
    int co = c.r - 128;
    int cg = c.g - 128;
    ivec3 d = ivec3 (co - cg, cg, -(co + cg));
    ivec3 q = (2 * d + scale + 2048 * scale) / (2 * scale) - 1024;
    o = ivec4 (clamp (ivec3 (c.a) + q, 0, 255), 255);
  } else if (mode == 2) {
    o = ivec4 (c.rrr, 255);
  } else if (mode == 3) {
    o = ivec4 (c.rg, 0, 255);
  } else if (mode == 4) {
    o = ivec4 (c.rgb, 255);
  } else {
    o = c;
  }
  frag_color = vec4 (o) / 255.0;
}
