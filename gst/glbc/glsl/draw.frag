/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload's draw (gstglbcdraw.c), fragment stage: one output pixel from
 * one texel of the compressed texture. The viewport is the visible size,
 * so the block padding is never drawn. The texel is taken back to the
 * 8-bit values the texture unit decoded (exact for UNORM8) and turned into
 * RGBA by `mode`: 0 as is (BC3, BC7), 1 YCoCg (YCoCg-BC3), 2 grey (BC4),
 * 3 red/green (BC5), 4 opaque RGB (BC1), 5 tone-mapped HDR (BC6H,
 * BC6H-SF).
 *
 * YCoCg is converted with the integers of bcdecode.c:
 * scale = (blue >> 3) + 1, co = red - 128, cg = green - 128,
 * R = Y + (co - cg) / scale, G = Y + cg / scale, B = Y - (co + cg) / scale,
 * each division rounded half up (floor ((2 d + scale) / (2 scale))) and
 * clamped to 0..255. The numerator is made non-negative first, so integer
 * division is floor division in every GLSL version.
 *
 * BC6H texels are the block's half floats (linear light, 1.0 = 203 cd/m2;
 * unsigned, or signed for BC6H-SF), exact in a float. They go to SDR as
 * bcdec takes them (gst_bc_hdr_tone_map (), docs/elements.md), so that the
 * GPU and the CPU give the same pictures: negative components (BC6H-SF's)
 * count as 0 (the 8-bit store would clamp what they give to 0 as well;
 * clamped first, they never reach pow ()), then with m the largest
 * component, every component is scaled by f(m) / m, f being the identity
 * up to the knee k = 0.8 and k + (1 - k) t / (1 + t),
 * t = (x - k) / (1 - k), above it; then the sRGB transfer function, and 8
 * bits rounded half up (floor (255 V + 0.5)), here rather than left to the
 * conversion into the 8-bit texture, whose rounding GL leaves to the
 * driver. bcdec computes in double precision, this in float: a component
 * within float error of a rounding boundary can come out one code apart.
 * Neither BC6H format decodes to infinities or NaN (the largest magnitude
 * is 65504), so neither is handled.
 *
 * gstglbcdraw.c puts the #version line (330 core, or 300 es and the
 * precisions) in front. Embedded at build time
 * (gst-libs/gst/bcgl/embed-glsl.py) as gst_gl_bc_shader_draw_frag, without
 * this header. */

uniform sampler2D tex;
uniform int mode;
out vec4 frag_color;

/* gst_bc_hdr_tone_curve () for x > 0 (GST_BC_HDR_TONE_KNEE) */
const float KNEE = 0.8;
float tone_curve (float x)
{
  if (x <= KNEE)
    return x;
  float t = (x - KNEE) / (1.0 - KNEE);
  return KNEE + (1.0 - KNEE) * t / (1.0 + t);
}

/* gst_bc_hdr_tone_map (): 8-bit sRGB codes, scaled to 0 .. 1 */
vec3 tone_map (vec3 texel)
{
  vec3 c = max (texel, vec3 (0.0));
  float m = max (c.r, max (c.g, c.b));
  if (m <= 0.0)
    return vec3 (0.0);
  vec3 s = c * (tone_curve (m) / m);
  vec3 v = mix (12.92 * s, 1.055 * pow (s, vec3 (1.0 / 2.4)) - 0.055,
      greaterThan (s, vec3 (0.0031308)));
  return floor (255.0 * v + 0.5) / 255.0;
}

void main ()
{
  vec4 texel = texelFetch (tex, ivec2 (gl_FragCoord.xy), 0);
  if (mode == 5) {
    frag_color = vec4 (tone_map (texel.rgb), 1.0);
    return;
  }
  ivec4 c = ivec4 (round (texel * 255.0));
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
