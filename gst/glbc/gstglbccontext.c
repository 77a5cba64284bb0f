/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What a GL context can do for glbcupload (see gstglbccontext.h): the GL
 * version and entry points of the upload path (persistent coherent
 * buffers, immutable textures), the block-compressed formats it can
 * sample, and the GL error check. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbccontext.h"

#include <gst/bcgl/bcglring.h>

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

static gboolean
context_is_gles (GstGLContext * context)
{
  return (gst_gl_context_get_gl_api (context) & (GST_GL_API_OPENGL |
          GST_GL_API_OPENGL3)) == 0;
}

static gboolean
have_desktop (GstGLContext * context, gint maj, gint min, const gchar * ext)
{
  return gst_gl_context_check_gl_version (context,
      GST_GL_API_OPENGL | GST_GL_API_OPENGL3, maj, min)
      || (ext && gst_gl_context_check_feature (context, ext));
}

const gchar *
gst_gl_bc_context_missing (GstGLContext * context)
{
  const GstGLFuncs *gl = context->gl_vtable;
  gboolean gles = context_is_gles (context);
  const gchar *missing;

  if (gles) {
    if (!gst_gl_context_check_gl_version (context, GST_GL_API_GLES2, 3, 0))
      return "OpenGL ES 3.0";
  } else if (!gst_gl_context_check_gl_version (context,
          GST_GL_API_OPENGL | GST_GL_API_OPENGL3, 3, 3)) {
    return "OpenGL 3.3";
  }
  missing = gst_bc_gl_buffer_ring_context_missing (context);
  if (missing)
    return missing;
  if (!gl->CompressedTexSubImage2D || !gl->GenVertexArrays)
    return gles ? "OpenGL ES 3.0" : "OpenGL 3.3";
  if (!gles && !have_desktop (context, 4, 2, "GL_ARB_texture_storage"))
    return "GL_ARB_texture_storage (glTexStorage2D, OpenGL 4.2)";
  if (!gst_gl_context_get_proc_address (context, "glTexStorage2D"))
    return "glTexStorage2D";
  return NULL;
}

void
gst_gl_bc_format_support (GstGLContext * context, GstBcFormat format,
    GstGLBcFormatSupport * support)
{
  gboolean gles = context_is_gles (context);
  const gchar *need = NULL;
  gboolean ok = FALSE;

  support->internal_format = 0;
  switch (format) {
    case GST_BC_FORMAT_BC1:
    case GST_BC_FORMAT_BC3:
    case GST_BC_FORMAT_YCOCG_BC3:
      need = "GL_EXT_texture_compression_s3tc";
      ok = gst_gl_context_check_feature (context, need);
      support->internal_format = format == GST_BC_FORMAT_BC1 ?
          GL_COMPRESSED_RGB_S3TC_DXT1_EXT : GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
      break;
    case GST_BC_FORMAT_BC4:
    case GST_BC_FORMAT_BC5:
      if (gles) {
        need = "GL_EXT_texture_compression_rgtc";
        ok = gst_gl_context_check_feature (context, need);
      } else {
        need = "GL_ARB_texture_compression_rgtc (OpenGL 3.0)";
        ok = have_desktop (context, 3, 0, "GL_ARB_texture_compression_rgtc");
      }
      support->internal_format = format == GST_BC_FORMAT_BC4 ?
          GL_COMPRESSED_RED_RGTC1 : GL_COMPRESSED_RG_RGTC2;
      break;
    case GST_BC_FORMAT_BC7:
    case GST_BC_FORMAT_BC6H:
    case GST_BC_FORMAT_BC6H_SF:
      /* BC6H and BC6H-SF are BPTC's float half: the same extension (and
       * GL 4.2) gives all three */
      if (gles) {
        need = "GL_EXT_texture_compression_bptc";
        ok = gst_gl_context_check_feature (context, need);
      } else {
        need = "GL_ARB_texture_compression_bptc (OpenGL 4.2)";
        ok = have_desktop (context, 4, 2, "GL_ARB_texture_compression_bptc");
      }
      if (format == GST_BC_FORMAT_BC7)
        support->internal_format = GL_COMPRESSED_RGBA_BPTC_UNORM;
      else if (format == GST_BC_FORMAT_BC6H)
        support->internal_format = GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT;
      else
        support->internal_format = GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT;
      break;
    default:
      need = "a block-compressed format";
      break;
  }
  if (!ok)
    support->internal_format = 0;
  support->missing = ok ? NULL : need;
}

/* Logs, and counts, what glGetError() reports after @what. Only when the
 * debug category is at DEBUG or more: glGetError() can stall a GPU
 * pipeline. */
guint
gst_gl_bc_check_gl_error (GstGLContext * context, GstObject * obj,
    const gchar * what)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint n = 0;
  GLenum err;

  if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) < GST_LEVEL_DEBUG)
    return 0;
  while ((err = gl->GetError ()) != GL_NO_ERROR && n < 16) {
    GST_ERROR_OBJECT (obj, "GL error 0x%x after %s", err, what);
    n++;
  }
  return n;
}
