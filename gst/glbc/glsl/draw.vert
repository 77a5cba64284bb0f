/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload's draw (gstglbcdraw.c), vertex stage: the quad over the
 * whole viewport, as a triangle strip of four vertices.
 *
 * gstglbcdraw.c puts the #version line (330 core, or 300 es and the
 * precisions) in front. Embedded at build time
 * (gst-libs/gst/bcgl/embed-glsl.py) as gst_gl_bc_shader_draw_vert, without
 * this header. */

in vec4 a_position;
void main ()
{
  gl_Position = a_position;
}
