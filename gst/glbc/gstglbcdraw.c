/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload's draw (see gstglbcdraw.h): a quad over the viewport, drawn
 * with gst_gl_framebuffer_draw_to_texture () into the output texture, whose
 * fragment shader (glsl/draw.frag) fetches the texel of its pixel from the
 * compressed texture. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcdraw.h"
#include "gstglbccontext.h"
/* glsl/draw.vert and glsl/draw.frag, generated at build time */
#include "gstglbcshaders.h"

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

/* how the fragment shader turns a texel into RGBA (its `mode`) */
enum
{
  MODE_RGBA = 0,                /* BC3, BC7 */
  MODE_YCOCG = 1,               /* YCoCg-BC3 */
  MODE_GREY = 2,                /* BC4 */
  MODE_RG = 3,                  /* BC5 */
  MODE_RGB = 4,                 /* BC1 */
  MODE_HDR = 5,                 /* BC6H, BC6H-SF: half floats, tone-mapped */
};

struct _GstGLBcDraw
{
  GstGLContext *context;
  GstGLShader *shader;
  GstGLFramebuffer *fbo;
  GLuint vao, vbo;
};

/* what draw_cb () draws */
typedef struct
{
  GstGLBcDraw *draw;
  GLuint texture;
  gint mode;
} DrawData;

static const GLfloat quad[] = {
  -1.0f, -1.0f,
  1.0f, -1.0f,
  -1.0f, 1.0f,
  1.0f, 1.0f,
};

static GstGLShader *
make_shader (GstGLContext * context, GError ** error)
{
  gboolean gles = (gst_gl_context_get_gl_api (context) &
      (GST_GL_API_OPENGL | GST_GL_API_OPENGL3)) == 0;
  GstGLSLVersion version = gles ? GST_GLSL_VERSION_300 : GST_GLSL_VERSION_330;
  GstGLSLProfile profile = gles ? GST_GLSL_PROFILE_ES : GST_GLSL_PROFILE_CORE;
  const gchar *header = gles ? "#version 300 es\n"
      "precision highp float;\nprecision highp int;\n" : "#version 330 core\n";
  gchar *vs = g_strconcat (header, gst_gl_bc_shader_draw_vert, NULL);
  gchar *fs = g_strconcat (header, gst_gl_bc_shader_draw_frag, NULL);
  GstGLSLStage *vstage, *fstage;
  GstGLShader *shader;

  vstage = gst_glsl_stage_new_with_string (context, GL_VERTEX_SHADER, version,
      profile, vs);
  fstage = gst_glsl_stage_new_with_string (context, GL_FRAGMENT_SHADER,
      version, profile, fs);
  shader = gst_gl_shader_new_link_with_stages (context, error, vstage, fstage,
      NULL);
  g_free (vs);
  g_free (fs);
  return shader;
}

GstGLBcDraw *
gst_gl_bc_draw_new (GstGLContext * context, GError ** error)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GstGLBcDraw *draw;
  GstGLShader *shader;
  gint loc;

  shader = make_shader (context, error);
  if (!shader)
    return NULL;

  draw = g_new0 (GstGLBcDraw, 1);
  draw->context = gst_object_ref (context);
  draw->shader = shader;
  draw->fbo = gst_gl_framebuffer_new (context);
  /* the compressed texture is on unit 0 */
  gst_gl_shader_use (shader);
  gst_gl_shader_set_uniform_1i (shader, "tex", 0);
  gst_gl_context_clear_shader (context);

  loc = gst_gl_shader_get_attribute_location (shader, "a_position");
  gl->GenVertexArrays (1, &draw->vao);
  gl->BindVertexArray (draw->vao);
  gl->GenBuffers (1, &draw->vbo);
  gl->BindBuffer (GL_ARRAY_BUFFER, draw->vbo);
  gl->BufferData (GL_ARRAY_BUFFER, sizeof (quad), quad, GL_STATIC_DRAW);
  gl->VertexAttribPointer (loc, 2, GL_FLOAT, GL_FALSE, 0, NULL);
  gl->EnableVertexAttribArray (loc);
  gl->BindVertexArray (0);
  gl->BindBuffer (GL_ARRAY_BUFFER, 0);
  return draw;
}

void
gst_gl_bc_draw_free (GstGLBcDraw * draw)
{
  const GstGLFuncs *gl;

  if (draw == NULL)
    return;

  gl = draw->context->gl_vtable;
  gl->DeleteVertexArrays (1, &draw->vao);
  gl->DeleteBuffers (1, &draw->vbo);
  gst_object_unref (draw->shader);
  gst_object_unref (draw->fbo);
  gst_object_unref (draw->context);
  g_free (draw);
}

static gboolean
draw_cb (gpointer user_data)
{
  DrawData *d = user_data;
  GstGLBcDraw *draw = d->draw;
  const GstGLFuncs *gl = draw->context->gl_vtable;

  gl->Disable (GL_BLEND);
  gst_gl_shader_use (draw->shader);
  gst_gl_shader_set_uniform_1i (draw->shader, "mode", d->mode);
  gl->ActiveTexture (GL_TEXTURE0);
  gl->BindTexture (GL_TEXTURE_2D, d->texture);
  gl->BindVertexArray (draw->vao);
  gl->DrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  gl->BindVertexArray (0);
  gl->BindTexture (GL_TEXTURE_2D, 0);
  gst_gl_context_clear_shader (draw->context);
  return TRUE;
}

gboolean
gst_gl_bc_draw_frame (GstGLBcDraw * draw, GLuint texture, GstBcFormat format,
    GstGLMemory * out)
{
  DrawData d = { draw, texture, MODE_RGBA };
  GstMapInfo map;
  gboolean ok;

  switch (format) {
    case GST_BC_FORMAT_YCOCG_BC3:
      d.mode = MODE_YCOCG;
      break;
    case GST_BC_FORMAT_BC4:
      d.mode = MODE_GREY;
      break;
    case GST_BC_FORMAT_BC5:
      d.mode = MODE_RG;
      break;
    case GST_BC_FORMAT_BC1:
      d.mode = MODE_RGB;
      break;
    case GST_BC_FORMAT_BC6H:
    case GST_BC_FORMAT_BC6H_SF:
      d.mode = MODE_HDR;
      break;
    default:
      break;
  }

  if (!gst_memory_map (GST_MEMORY_CAST (out), &map, GST_MAP_WRITE | GST_MAP_GL)) {
    GST_ERROR ("cannot map the output texture");
    return FALSE;
  }
  ok = gst_gl_framebuffer_draw_to_texture (draw->fbo, out, draw_cb, &d);
  gst_memory_unmap (GST_MEMORY_CAST (out), &map);
  return ok;
}
