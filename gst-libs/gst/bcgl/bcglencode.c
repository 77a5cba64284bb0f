/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GL compute encoder (see bcglencode.h).
 *
 * Mapping: one invocation per 4x4 block, work groups of 8x8 blocks
 * (32x32 pixels), a 2D grid over the frame's blocks. Each invocation reads
 * its 16 texels with texelFetch () at coordinates clamped to the visible
 * size (clamp-to-edge padding, as the CPU path repeats the last column and
 * row), runs the port of the CPU kernel of the format and quality, and
 * writes its 8 or 16 bytes where the frame layout wants them, so the
 * storage buffer holds the video/x-bc frame as is.
 *
 * Output: a ring of n_slots frames in one buffer object made with
 * glBufferStorage (GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT |
 * GL_MAP_COHERENT_BIT | GL_CLIENT_STORAGE_BIT) and mapped once
 * (GstBcGLBufferRing, bcglring.h), whose user data are the slots' states
 * and timer queries; memories that lend a slot out hold a reference to the
 * ring, which outlives the encoder when they do. A frame's slot is bound
 * as the shader storage block (glBindBufferRange), the dispatch is
 * followed by glMemoryBarrier (GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT) and a
 * fence. The fence is polled with a zero timeout on the GL thread
 * (never a blocking wait there); once it has signalled, the CPU reads the
 * slot through the mapping: one memcpy into the output buffer, or none when
 * the slot itself is lent downstream as a read-only memory.
 *
 * Sameness with the CPU path: the shader performs the CPU kernels' float
 * operations in the same order, on `precise` variables (no fma
 * contraction), with the constants as exact bit patterns. On an
 * implementation whose float add, subtract, multiply and divide are IEEE
 * single precision, correctly rounded, the blocks are bit-identical to the
 * CPU's; Mesa's llvmpipe is one. GLSL itself only promises correctly
 * rounded add, subtract and multiply; division may be off by 2.5 ULP (and
 * a driver may implement it as a reciprocal and a multiply), and the power
 * iteration and least-squares steps divide, so a hardware GPU may pick a
 * different endpoint now and then: the quality stays that of the algorithm
 * (tests/check/libs/bcglencode.c and elements/bcencgl.c bound the
 * difference in PSNR). The integer parts (quantisation, palettes, index
 * choice given the distances, alpha levels, packing) are exact
 * everywhere.
 *
 * BC6H and BC6H-SF (gst_bc_gl_encoder_new_hdr ()): the texels are 16-bit
 * or 10-bit codes of PQ, HLG or linear video, which the shader
 * (glsl/bc6h.comp) converts to half floats through the CPU's own tables
 * (gst_bc_hdr_input_get_tables (), uploaded once into a second storage
 * buffer, binding 1), then encodes as lanes_fast () or lanes_normal () of
 * the CPU encoder does, with its error weights
 * (gst_bc_encode_bc6h_weights ()). The rare block whose anchor breaks its
 * mode's differences, which the CPU encodes again with its per-block code,
 * is listed by that first dispatch in a third storage buffer (binding 2)
 * and encoded by a second program in a second dispatch,
 * glDispatchComputeIndirect () of the work groups the first counted there:
 * on llvmpipe, which runs a branch for every lane under a mask, the branch
 * in the first program cost 3/4 of the frame's time. At quality=normal the
 * first dispatch also lists the blocks whose one region leaves a large
 * error, in a fourth buffer (binding 3), for a third program and dispatch,
 * the two-region lanes (glsl/bc6h-normal.glsl), as the CPU lists them for
 * lanes_two (). quality=high runs the CPU's per-block encode_block () of
 * every block (bc6h-normal.glsl): the first dispatch its one region,
 * listing in the fourth buffer the blocks whose error is above the
 * threshold of two regions, a second program and dispatch (indirect) its
 * six partitions over those. The dispatches are inside the slot's timer
 * query and before its fence. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcglencode.h"
#include "bcglring.h"
/* the compute shaders of glsl/, generated at build time */
#include "bcglshaders.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_bc_gl_encoder_debug);
#define GST_CAT_DEFAULT gst_bc_gl_encoder_debug

typedef void (GSTGLAPI * DispatchComputeFunc) (GLuint x, GLuint y, GLuint z);
typedef void (GSTGLAPI * MemoryBarrierFunc) (GLbitfield barriers);
typedef void (GSTGLAPI * BindBufferRangeFunc) (GLenum target, GLuint index,
    GLuint buffer, GLintptr offset, GLsizeiptr size);
typedef void (GSTGLAPI * BindBufferBaseFunc) (GLenum target, GLuint index,
    GLuint buffer);
typedef void (GSTGLAPI * DispatchComputeIndirectFunc) (GLintptr indirect);

#ifndef GL_DISPATCH_INDIRECT_BUFFER
#define GL_DISPATCH_INDIRECT_BUFFER 0x90EE
#endif
#ifndef GL_COMMAND_BARRIER_BIT
#define GL_COMMAND_BARRIER_BIT 0x00000040
#endif
#ifndef GL_SHADER_STORAGE_BARRIER_BIT
#define GL_SHADER_STORAGE_BARRIER_BIT 0x00002000
#endif

enum
{
  SLOT_FREE = 0,
  SLOT_BUSY,                    /* submitted, not released yet */
  SLOT_LENT,                    /* wrapped in a memory downstream holds */
};

typedef struct
{
  gint state;                   /* atomic */
  GLuint query;
  gboolean timed;
  GstClockTime gpu_time;
} Slot;

/* the ring's user data */
typedef struct
{
  guint n;
  Slot slot[GST_BC_GL_ENCODER_MAX_SLOTS];
} Slots;

struct _GstBcGLEncoder
{
  GstGLContext *context;
  GstBcInfo info;
  GstBcPixelLayout layout;
  /* YUV input: its layout in glsl/yuv.glsl (0: RGB input), planes and
   * the conversion's integers */
  gint yuv_layout;
  guint yuv_planes;
  gboolean yuv_cosited[2];
  gint32 yuv_offset[2];
  gint32 yuv_k[5];
  guint yuv_shift;
  /* BC6H: the HDR input's tables (gst_bc_hdr_input_get_tables ()), the
   * texture's code range, and the storage buffer they are uploaded to */
  gboolean hdr;
  gboolean hdr_hlg;
  guint hdr_n_codes;
  guint hdr_ootf_first;
  guint hdr_n_ootf;
  gfloat hdr_ys[3];
  gfloat hdr_code_max;
  GLuint hdr_tables;
  /* the blocks of the per-block code (glsl/bc6h.comp's Fallback) and of
   * two regions (bc6h-normal.glsl's Two), and the programs of the passes
   * over them, by quality: [quality][0] the second pass (fast and
   * normal's per-block code; high: none), [quality][1] the third (normal
   * and high's two regions; fast: none) */
  GLuint hdr_list;
  GLuint hdr_two;
  GstGLShader *hdr_passes[3][2];
  gboolean gles;
  gboolean have_timer;

  DispatchComputeFunc DispatchCompute;
  MemoryBarrierFunc MemoryBarrier;
  BindBufferRangeFunc BindBufferRange;
  BindBufferBaseFunc BindBufferBase;
  DispatchComputeIndirectFunc DispatchComputeIndirect;

  GstGLShader *shaders[3];
  GstBcGLBufferRing *ring;      /* NULL until made */
  Slots *slots;                 /* the ring's user data */
  guint next_slot;
};

/* ------------------------------------------------------------------------ */

static void
debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_bc_gl_encoder_debug, "bcglencoder", 0,
        "GL compute block encoder");
    g_once_init_leave (&done, 1);
  }
}

const gchar *
gst_bc_gl_encoder_context_missing (GstGLContext * context)
{
  const gchar *missing;
  GstGLAPI api;

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), "a GL context");

  api = gst_gl_context_get_gl_api (context);
  if (api & (GST_GL_API_OPENGL | GST_GL_API_OPENGL3)) {
    if (!gst_gl_context_check_gl_version (context,
            GST_GL_API_OPENGL | GST_GL_API_OPENGL3, 4, 3))
      return "compute shaders (OpenGL 4.3)";
  } else if (api & GST_GL_API_GLES2) {
    if (!gst_gl_context_check_gl_version (context, GST_GL_API_GLES2, 3, 1))
      return "compute shaders (OpenGL ES 3.1)";
  } else {
    return "compute shaders (OpenGL 4.3 or OpenGL ES 3.1)";
  }
  missing = gst_bc_gl_buffer_ring_context_missing (context);
  if (missing)
    return missing;
  if (gst_gl_context_get_proc_address (context, "glDispatchCompute") == NULL
      || gst_gl_context_get_proc_address (context, "glMemoryBarrier") == NULL
      || gst_gl_context_get_proc_address (context, "glBindBufferRange") == NULL
      || gst_gl_context_get_proc_address (context, "glBindBufferBase") == NULL)
    return "the entry points glDispatchCompute, glMemoryBarrier and "
        "glBindBufferRange";
  return NULL;
}

gboolean
gst_bc_gl_encoder_format_supported (GstBcFormat format)
{
  return format == GST_BC_FORMAT_BC1 || format == GST_BC_FORMAT_BC3 ||
      format == GST_BC_FORMAT_YCOCG_BC3 || format == GST_BC_FORMAT_BC4 ||
      format == GST_BC_FORMAT_BC5 || format == GST_BC_FORMAT_BC7;
}

/* ------------------------------------------------------------------------ */
/* the shader source                                                         */

/* a float constant as its exact bit pattern */
static void
append_float (GString * s, const gchar * name, gfloat value)
{
  union
  {
    gfloat f;
    guint32 u;
  } v;

  v.f = value;
  g_string_append_printf (s, "#define %s uintBitsToFloat (0x%08xu)\n", name,
      v.u);
}

/* @n entries of @stride bytes from @data as a GLSL uint array, each
 * entry's bytes shifted by @shift bits (BC7 partitions: 16 subsets of 2
 * bits; the other tables: bytes of 8 bits) */
static void
append_table (GString * s, const gchar * name, const guint8 * data, guint n,
    guint stride, guint shift)
{
  guint i, j;

  g_string_append_printf (s, "const uint %s[%u] = uint[%u] (", name, n, n);
  for (i = 0; i < n; i++) {
    guint32 v = 0;

    for (j = 0; j < stride; j++)
      v |= (guint32) data[i * stride + j] << (j * shift);
    g_string_append_printf (s, "%s%s0x%08xu", i ? "," : "",
        i % 8 == 0 ? "\n  " : " ", v);
  }
  g_string_append (s, ");\n");
}

/* prelude.glsl, and yuv.glsl after it for YUV input (make_source ()
 * defines YUV_LAYOUT) */
static void
append_prelude (GString * s, gboolean yuv)
{
  g_string_append (s, gst_bc_gl_shader_prelude_glsl);
  if (yuv)
    g_string_append (s, gst_bc_gl_shader_yuv_glsl);
}

/* BC1, BC3 and YCoCg-BC3 (glsl/bc1-bc3.comp): its constants and body */
static void
append_bc13 (GString * s, GstBcFormat format, gboolean yuv)
{
  const guint8 *single5 = gst_bc_encode_single_color_table (5);
  const guint8 *single6 = gst_bc_encode_single_color_table (6);
  /* volatile: the values the C kernels compute at run time */
  volatile gfloat one = 1.0f, two = 2.0f, three = 3.0f, seven = 7.0f;
  gboolean ycocg = format == GST_BC_FORMAT_YCOCG_BC3;
  guint8 single[256][4];
  gint v;

  g_string_append_printf (s, "#define FORMAT %d\n",
      format == GST_BC_FORMAT_BC1 ? 1 : (ycocg ? 3 : 2));
  append_float (s, "THIRD", one / three);
  append_float (s, "TWO_THIRDS", two / three);
  append_float (s, "SEVENTH", one / seven);
  append_float (s, "EPS_DET", 1e-3f);
  append_float (s, "EPS_AXIS", 1e-20f);
  append_float (s, "BIG", 1e30f);
  if (ycocg) {
    g_string_append (s, "const vec3 W = vec3 (2.0, 3.0, 0.0);\n");
    append_float (s, "SQRT2", 1.41421356f);
    append_float (s, "SQRT3", 1.73205081f);
    g_string_append (s, "const vec3 SW = vec3 (SQRT2, SQRT3, 0.0);\n");
  } else {
    g_string_append (s, "const vec3 W = vec3 (1.0, 1.0, 1.0);\n"
        "const vec3 SW = vec3 (1.0, 1.0, 1.0);\n");
  }
  for (v = 0; v < 256; v++) {
    single[v][0] = single5[2 * v];
    single[v][1] = single5[2 * v + 1];
    single[v][2] = single6[2 * v];
    single[v][3] = single6[2 * v + 1];
  }
  append_table (s, "SINGLE", &single[0][0], 256, 4, 8);
  append_prelude (s, yuv);
  g_string_append (s, gst_bc_gl_shader_bc1_bc3_comp);
}

/* BC7 (glsl/bc7.comp): its constants, tables and body */
static void
append_bc7 (GString * s, gboolean yuv)
{
  /* volatile: the values the C code computes at run time */
  volatile gfloat one = 1.0f, three = 3.0f, seven = 7.0f, fifteen = 15.0f;
  const guint8 *part2, *part3, *a2, *a3a, *a3b, *solid;
  guint8 anchors[64][3];
  guint i;

  gst_bc_encode_bc7_tables (&part2, &part3, &a2, &a3a, &a3b, &solid);
  for (i = 0; i < 64; i++) {
    anchors[i][0] = a2[i];
    anchors[i][1] = a3a[i];
    anchors[i][2] = a3b[i];
  }
  append_float (s, "INV255", 1.0f / 255.0f);
  append_float (s, "RCP3", one / three);
  append_float (s, "RCP7", one / seven);
  append_float (s, "RCP15", one / fifteen);
  append_float (s, "INV49", 1.0f / 49.0f);
  append_float (s, "EPS_AXIS", 1e-20f);
  append_float (s, "EPS_N2", 1e-30f);
  append_float (s, "EPS_DET", 1e-3f);
  append_float (s, "BIG", 1e30f);
  append_float (s, "BIG_EDGE", 1e29f);
  append_table (s, "PART2", part2, 64, 16, 2);
  append_table (s, "PART3", part3, 64, 16, 2);
  append_table (s, "ANCHORS", &anchors[0][0], 64, 3, 8);
  append_table (s, "SOLID", solid, 256, 2, 8);
  append_prelude (s, yuv);
  g_string_append (s, gst_bc_gl_shader_bc7_comp);
}

/* BC6H (glsl/bc6h.comp, and at quality=normal and high
 * glsl/bc6h-normal.glsl): the input's constants, the encoder's constants,
 * weights and tables */
static void
append_bc6h (GString * s, const GstBcGLEncoder * enc, GstBcQuality quality)
{
  const gfloat *weights = gst_bc_encode_bc6h_weights ();
  /* volatile: the value the C code's constant expression has */
  volatile gfloat sixty_four = 64.0f, thirty_two = 32.0f, thirty_one = 31.0f;
  guint i;

  g_string_append_printf (s, "#define HDR_HLG %d\n", enc->hdr_hlg ? 1 : 0);
  g_string_append_printf (s, "#define N_CODES %u\n", enc->hdr_n_codes);
  append_float (s, "CODE_MAX", enc->hdr_code_max);
  if (enc->hdr_hlg) {
    g_string_append_printf (s, "#define OOTF_FIRST %u\n"
        "#define OOTF_LAST %u\n", enc->hdr_ootf_first,
        enc->hdr_ootf_first + enc->hdr_n_ootf - 1);
    append_float (s, "YS0", enc->hdr_ys[0]);
    append_float (s, "YS1", enc->hdr_ys[1]);
    append_float (s, "YS2", enc->hdr_ys[2]);
  }
  g_string_append_printf (s, "#define SGN %d\n",
      enc->info.format == GST_BC_FORMAT_BC6H_SF ? 1 : 0);
  append_float (s, "C64_31", sixty_four / thirty_one);
  append_float (s, "C32_31", thirty_two / thirty_one);
  append_float (s, "H_MAX", 31743.0f);
  append_float (s, "EPS_LEN", 1e-12f);
  append_float (s, "EPS_DET", 1e-6f);
  append_float (s, "FLT_BIG", G_MAXFLOAT);
  g_string_append (s, "const float OCTAVE[32] = float[32] (");
  for (i = 0; i < 32; i++) {
    guint32 u;

    memcpy (&u, &weights[i], 4);
    g_string_append_printf (s, "%s%suintBitsToFloat (0x%08xu)", i ? "," : "",
        i % 4 == 0 ? "\n  " : " ", u);
  }
  g_string_append (s, ");\n");
  if (quality >= GST_BC_QUALITY_NORMAL) {
    const guint8 *part2, *a2;

    gst_bc_encode_bc7_tables (&part2, NULL, &a2, NULL, NULL, NULL);
    append_float (s, "EPS_RANK", 1e-30f);
    /* BC6H has the first 32 two-subset partitions */
    append_table (s, "PART2", part2, 32, 16, 2);
    append_table (s, "ANCHOR2", a2, 32, 1, 8);
    append_table (s, "HEADER2", gst_bc_encode_bc6h_header_bits (), 205, 4,
        8);
  }
  /* YUV textures: converted to 16-bit RGB codes */
  if (enc->yuv_layout)
    g_string_append (s, "#define YUV_MAX 65535\n");
  append_prelude (s, enc->yuv_layout != 0);
  g_string_append (s, gst_bc_gl_shader_bc6h_comp);
  if (quality >= GST_BC_QUALITY_NORMAL)
    g_string_append (s, gst_bc_gl_shader_bc6h_normal_glsl);
}

static gchar *
make_source (const GstBcGLEncoder * enc, GstBcQuality quality, gboolean es32,
    gint pass)
{
  GstBcFormat format = enc->info.format;
  gint yuv_layout = enc->yuv_layout;
  gboolean gles = enc->gles;
  GString *s = g_string_new (NULL);

  if (!gles)
    g_string_append (s, "#version 430 core\n");
  else if (es32)
    g_string_append (s, "#version 320 es\n");
  else
    g_string_append (s, "#version 310 es\n#define precise\n");
  if (gles)
    g_string_append (s, "precision highp float;\nprecision highp int;\n");
  g_string_append_printf (s, "#define QUALITY %d\n", (gint) quality);
  if (yuv_layout)
    g_string_append_printf (s, "#define YUV_LAYOUT %d\n", yuv_layout);
  switch (format) {
    case GST_BC_FORMAT_BC4:
    case GST_BC_FORMAT_BC5:
      g_string_append_printf (s, "#define FORMAT %d\n",
          format == GST_BC_FORMAT_BC4 ? 4 : 5);
      append_prelude (s, yuv_layout != 0);
      g_string_append (s, gst_bc_gl_shader_bc4_bc5_comp);
      break;
    case GST_BC_FORMAT_BC7:
      append_bc7 (s, yuv_layout != 0);
      break;
    case GST_BC_FORMAT_BC6H:
    case GST_BC_FORMAT_BC6H_SF:
      g_string_append_printf (s, "#define PASS %d\n", pass);
      append_bc6h (s, enc, quality);
      break;
    default:
      append_bc13 (s, format, yuv_layout != 0);
      break;
  }
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------ */
/* the ring                                                                  */

/* the ring's user data goes with the ring, on the GL thread */
static void
slots_free_gl (GstGLContext * context, Slots * slots)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint i;

  for (i = 0; i < slots->n; i++)
    if (slots->slot[i].query)
      gl->DeleteQueries (1, &slots->slot[i].query);
  g_free (slots);
}

/* a call of create_gl () or prepare_gl () onto the GL thread */
typedef struct
{
  GstBcGLEncoder *enc;
  guint n_slots;                /* create_gl () */
  GstBcQuality quality;         /* prepare_gl () */
  GError **error;
  gboolean ok;
} GLCall;

static void
create_gl (GstGLContext * context, GLCall * d)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GstBcGLEncoder *enc = d->enc;
  GLint align = 0, max_block = 0;
  Slots *slots;
  guint i;

  gl->GetIntegerv (GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &align);
  gl->GetIntegerv (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
  if (max_block > 0 && enc->info.size > (gsize) max_block) {
    g_set_error (d->error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "A %ux%u %s frame (%" G_GSIZE_FORMAT " bytes) is larger than the GL "
        "implementation's largest shader storage block (%d bytes)",
        enc->info.width, enc->info.height,
        gst_bc_format_to_string (enc->info.format), enc->info.size, max_block);
    return;
  }
  /* the GPU writes, the CPU reads: a buffer in the CPU's memory */
  enc->ring = gst_bc_gl_buffer_ring_new (context, GL_SHADER_STORAGE_BUFFER,
      GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT, enc->info.size,
      MAX (align, 256), d->n_slots, d->error);
  if (enc->ring == NULL)
    return;
  slots = g_new0 (Slots, 1);
  slots->n = d->n_slots;
  if (enc->have_timer)
    for (i = 0; i < slots->n; i++)
      gl->GenQueries (1, &slots->slot[i].query);
  gst_bc_gl_buffer_ring_set_user_data (enc->ring, slots,
      (GstBcGLBufferRingFreeFunc) slots_free_gl);
  enc->slots = slots;
  d->ok = TRUE;
}

/* The encoder of @info on @context reading @layout, its ring made; the
 * format and layout checked by the caller */
static GstBcGLEncoder *
encoder_new (GstGLContext * context, const GstBcInfo * info,
    const GstBcPixelLayout * layout, guint n_slots, GError ** error)
{
  GstBcGLEncoder *enc;
  const gchar *missing;
  GLCall d = { NULL, };

  missing = gst_bc_gl_encoder_context_missing (context);
  if (missing) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "The GL context lacks %s", missing);
    return NULL;
  }

  enc = g_new0 (GstBcGLEncoder, 1);
  enc->context = gst_object_ref (context);
  enc->info = *info;
  enc->layout = *layout;
  enc->gles = (gst_gl_context_get_gl_api (context) & GST_GL_API_GLES2) != 0;
  enc->have_timer = gst_bc_gl_context_has_timer_query (context);
  enc->DispatchCompute = gst_gl_context_get_proc_address (context,
      "glDispatchCompute");
  enc->MemoryBarrier = gst_gl_context_get_proc_address (context,
      "glMemoryBarrier");
  enc->BindBufferRange = gst_gl_context_get_proc_address (context,
      "glBindBufferRange");
  enc->BindBufferBase = gst_gl_context_get_proc_address (context,
      "glBindBufferBase");
  enc->DispatchComputeIndirect = gst_gl_context_get_proc_address (context,
      "glDispatchComputeIndirect");

  d.enc = enc;
  d.n_slots = n_slots;
  d.error = error;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) create_gl, &d);
  if (!d.ok) {
    gst_bc_gl_encoder_free (enc);
    return NULL;
  }

  GST_DEBUG ("GL encoder for %ux%u %s: %u x %u blocks, %u slots of %"
      G_GSIZE_FORMAT " bytes, timer queries %s", info->width, info->height,
      gst_bc_format_to_string (info->format), info->blocks_x, info->blocks_y,
      n_slots, info->size, enc->have_timer ? "yes" : "no");
  return enc;
}

GstBcGLEncoder *
gst_bc_gl_encoder_new (GstGLContext * context, const GstBcInfo * info,
    const GstBcPixelLayout * layout, guint n_slots, GError ** error)
{
  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), NULL);
  g_return_val_if_fail (info != NULL && layout != NULL, NULL);
  g_return_val_if_fail (n_slots >= 2 &&
      n_slots <= GST_BC_GL_ENCODER_MAX_SLOTS, NULL);

  debug_init ();

  if (!gst_bc_gl_encoder_format_supported (info->format)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The GL encoder has no shader for %s%s",
        gst_bc_format_to_string (info->format),
        info->format == GST_BC_FORMAT_BC6H ? " of 8-bit input (BC6H: "
        "gst_bc_gl_encoder_new_hdr ())" : "");
    return NULL;
  }
  /* BC4 also reads grey textures (GRAY8: R8, GRAY16_LE: two bytes, RG8) */
  if (layout->bpp != 4 && (info->format != GST_BC_FORMAT_BC4 ||
          layout->bpp > 2)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The GL encoder reads 4-byte RGBA-like textures only%s",
        info->format == GST_BC_FORMAT_BC4 ? " (and GRAY8, GRAY16_LE)" : "");
    return NULL;
  }
  return encoder_new (context, info, layout, n_slots, error);
}

/* the YUV_LAYOUT of glsl/yuv.glsl, 0 when the format has none */
static gint
yuv_layout_of (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
      return 1;
    case GST_VIDEO_FORMAT_NV12:
      return 2;
    case GST_VIDEO_FORMAT_P010_10LE:
      return 3;
    case GST_VIDEO_FORMAT_YUY2:
      return 4;
    case GST_VIDEO_FORMAT_UYVY:
      return 5;
    default:
      return 0;
  }
}

gboolean
gst_bc_gl_encoder_yuv_format_supported (GstVideoFormat format)
{
  return yuv_layout_of (format) != 0;
}

/* the YUV input's layout, planes and conversion */
static void
set_yuv (GstBcGLEncoder * enc, const GstBcYuvInfo * yuv, gint layout)
{
  enc->yuv_layout = layout;
  enc->yuv_planes = gst_bc_yuv_info_n_planes (yuv);
  enc->yuv_cosited[0] = yuv->h_cosited;
  enc->yuv_cosited[1] = yuv->v_cosited;
  enc->yuv_shift = gst_bc_yuv_info_get_coefficients (yuv, &enc->yuv_offset[0],
      &enc->yuv_offset[1], enc->yuv_k);
  GST_DEBUG ("reading %s textures: matrix %d, range %d, chroma %s%s, "
      "%u-bit RGB", gst_video_format_to_string (yuv->format), yuv->matrix,
      yuv->range, yuv->h_cosited ? "h-cosited" : "h-centred",
      yuv->v_cosited ? " v-cosited" : "", yuv->depth);
}

/* the checks of a YUV input of @depth */
static gint
yuv_input_check (const GstBcInfo * info, const GstBcYuvInfo * yuv,
    guint depth, GError ** error)
{
  gint layout = yuv_layout_of (yuv->format);

  if (layout == 0) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The GL encoder does not read %s textures (it reads "
        GST_BC_GL_ENCODER_YUV_FORMATS ")",
        gst_video_format_to_string (yuv->format));
    return 0;
  }
  if (yuv->width != info->width || yuv->height != info->height) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The YUV picture is %ux%u, the frame %ux%u", yuv->width,
        yuv->height, info->width, info->height);
    return 0;
  }
  if (yuv->depth != depth) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The encoder converts YUV to %u-bit RGB, not %u-bit", depth,
        yuv->depth);
    return 0;
  }
  return layout;
}

GstBcGLEncoder *
gst_bc_gl_encoder_new_yuv (GstGLContext * context, const GstBcInfo * info,
    const GstBcYuvInfo * yuv, guint n_slots, GError ** error)
{
  /* the converted texels are R, G, B, opaque */
  static const GstBcPixelLayout rgbx = { 4, 0, 1, 2, -1, 3 };
  GstBcGLEncoder *enc;
  gint layout;

  g_return_val_if_fail (info != NULL && yuv != NULL, NULL);

  layout = yuv_input_check (info, yuv, 8, error);
  if (layout == 0)
    return NULL;
  enc = gst_bc_gl_encoder_new (context, info, &rgbx, n_slots, error);
  if (enc == NULL)
    return NULL;
  set_yuv (enc, yuv, layout);
  return enc;
}

/* the HDR input's tables, as glsl/bc6h.comp reads them, into a storage
 * buffer */
typedef struct
{
  GstBcGLEncoder *enc;
  const guint32 *data;
  gsize size;
  GError **error;
  gboolean ok;
} TablesCall;

static void
upload_tables_gl (GstGLContext * context, TablesCall * d)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GLenum err;

  while (gl->GetError () != GL_NO_ERROR);
  gl->GenBuffers (1, &d->enc->hdr_tables);
  gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, d->enc->hdr_tables);
  gl->BufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) d->size, d->data,
      GL_STATIC_DRAW);
  /* the second pass's list: 4 words, then a block index a block; the
   * third's: 4 words, then a block index and an error a block */
  gl->GenBuffers (1, &d->enc->hdr_list);
  gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, d->enc->hdr_list);
  gl->BufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) (16 +
          4 * (gsize) d->enc->info.blocks_x * d->enc->info.blocks_y), NULL,
      GL_DYNAMIC_DRAW);
  gl->GenBuffers (1, &d->enc->hdr_two);
  gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, d->enc->hdr_two);
  gl->BufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) (16 +
          8 * (gsize) d->enc->info.blocks_x * d->enc->info.blocks_y), NULL,
      GL_DYNAMIC_DRAW);
  gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  err = gl->GetError ();
  if (err != GL_NO_ERROR) {
    g_set_error (d->error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Could not upload the %" G_GSIZE_FORMAT " bytes of the HDR input's "
        "tables (GL error 0x%04x)", d->size, err);
    return;
  }
  d->ok = TRUE;
}

static void
delete_tables_gl (GstGLContext * context, GstBcGLEncoder * enc)
{
  context->gl_vtable->DeleteBuffers (1, &enc->hdr_tables);
  enc->hdr_tables = 0;
  if (enc->hdr_list)
    context->gl_vtable->DeleteBuffers (1, &enc->hdr_list);
  enc->hdr_list = 0;
  if (enc->hdr_two)
    context->gl_vtable->DeleteBuffers (1, &enc->hdr_two);
  enc->hdr_two = 0;
}

/* the channels of the textures of gst_bc_gl_encoder_new_hdr (): r, g, b
 * (texel components), the code's bits */
static gboolean
hdr_layout_of (GstVideoFormat format, GstBcPixelLayout * layout, guint * bits)
{
  static const GstBcPixelLayout rgba16 = { 8, 0, 1, 2, 3, -1 };
  /* GStreamer's ARGB64 texture is RGBA16 of the bytes as they are */
  static const GstBcPixelLayout argb16 = { 8, 1, 2, 3, 0, -1 };
  static const GstBcPixelLayout rgb10a2 = { 4, 0, 1, 2, 3, -1 };

  switch (format) {
    case GST_VIDEO_FORMAT_RGBA64_LE:
      *layout = rgba16;
      *bits = 16;
      return TRUE;
    case GST_VIDEO_FORMAT_ARGB64:
      *layout = argb16;
      *bits = 16;
      return TRUE;
    case GST_VIDEO_FORMAT_RGB10A2_LE:
      *layout = rgb10a2;
      *bits = 10;
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
gst_bc_gl_encoder_hdr_format_supported (GstVideoFormat format)
{
  GstBcPixelLayout layout;
  guint bits;

  return hdr_layout_of (format, &layout, &bits);
}

GstBcGLEncoder *
gst_bc_gl_encoder_new_hdr (GstGLContext * context, const GstBcInfo * info,
    GstVideoFormat format, const GstBcHdrInput * input, guint n_slots,
    GError ** error)
{
  GstBcGLEncoder *enc;
  GstBcPixelLayout layout;
  const guint16 *half;
  const gfloat *scene, *ootf;
  guint bits, n_codes, ootf_first, n_ootf, i;
  gfloat ys[3];
  guint32 *data;
  gsize n_words;
  TablesCall d = { NULL, };

  g_return_val_if_fail (GST_IS_GL_CONTEXT (context), NULL);
  g_return_val_if_fail (info != NULL && input != NULL, NULL);
  g_return_val_if_fail (n_slots >= 2 &&
      n_slots <= GST_BC_GL_ENCODER_MAX_SLOTS, NULL);

  debug_init ();

  if (info->format != GST_BC_FORMAT_BC6H &&
      info->format != GST_BC_FORMAT_BC6H_SF) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The GL encoder of HDR input writes BC6H or BC6H-SF, not %s",
        gst_bc_format_to_string (info->format));
    return NULL;
  }
  if (!hdr_layout_of (format, &layout, &bits)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The GL BC6H encoder does not read %s textures (it reads "
        GST_BC_GL_ENCODER_HDR_FORMATS ")", gst_video_format_to_string (format));
    return NULL;
  }
  gst_bc_hdr_input_get_tables (input, &n_codes, &half, &scene, &ootf,
      &ootf_first, &n_ootf, ys);
  if (n_codes != 1u << bits) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "The HDR input converts %u codes a channel, %s textures have %u",
        n_codes, gst_video_format_to_string (format), 1u << bits);
    return NULL;
  }

  enc = encoder_new (context, info, &layout, n_slots, error);
  if (enc == NULL)
    return NULL;
  if (enc->DispatchComputeIndirect == NULL) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "The GL context lacks glDispatchComputeIndirect");
    gst_bc_gl_encoder_free (enc);
    return NULL;
  }
  enc->hdr = TRUE;
  enc->hdr_hlg = half == NULL;
  enc->hdr_n_codes = n_codes;
  enc->hdr_ootf_first = ootf_first;
  enc->hdr_n_ootf = n_ootf;
  memcpy (enc->hdr_ys, ys, sizeof (enc->hdr_ys));
  enc->hdr_code_max = (gfloat) (n_codes - 1);

  /* PQ and linear: two halfs a word, the even code low; HLG: the scene
   * light of every code, then the OOTF factors, as float bits */
  if (half) {
    n_words = n_codes / 2;
    data = g_new (guint32, n_words);
    for (i = 0; i < n_words; i++)
      data[i] = half[2 * i] | (guint32) half[2 * i + 1] << 16;
  } else {
    n_words = n_codes + n_ootf;
    data = g_new (guint32, n_words);
    memcpy (data, scene, n_codes * sizeof (gfloat));
    memcpy (data + n_codes, ootf, n_ootf * sizeof (gfloat));
  }
  d.enc = enc;
  d.data = data;
  d.size = n_words * sizeof (guint32);
  d.error = error;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc)
      upload_tables_gl, &d);
  g_free (data);
  if (!d.ok) {
    gst_bc_gl_encoder_free (enc);
    return NULL;
  }
  GST_DEBUG ("reading %s textures, %s input (%u codes)",
      gst_video_format_to_string (format), enc->hdr_hlg ? "HLG" :
      "PQ or linear", n_codes);
  return enc;
}

GstBcGLEncoder *
gst_bc_gl_encoder_new_hdr_yuv (GstGLContext * context, const GstBcInfo * info,
    const GstBcYuvInfo * yuv, const GstBcHdrInput * input, guint n_slots,
    GError ** error)
{
  GstBcGLEncoder *enc;
  gint layout;

  g_return_val_if_fail (info != NULL && yuv != NULL, NULL);

  layout = yuv_input_check (info, yuv, 16, error);
  if (layout == 0)
    return NULL;
  /* the 16-bit RGB codes the conversion gives, through @input's tables */
  enc = gst_bc_gl_encoder_new_hdr (context, info, GST_VIDEO_FORMAT_RGBA64_LE,
      input, n_slots, error);
  if (enc == NULL)
    return NULL;
  set_yuv (enc, yuv, layout);
  return enc;
}

typedef struct
{
  GstBcGLEncoder *enc;
  guint slot;
  gboolean ready;
  gboolean failed;
} PollData;

static void
poll_gl (GstGLContext * context, PollData * d)
{
  GstBcGLBufferRing *ring = d->enc->ring;
  Slot *slot = &d->enc->slots->slot[d->slot];
  guint64 ns;

  if (!gst_bc_gl_buffer_ring_is_fenced (ring, d->slot)) {
    d->ready = TRUE;
    return;
  }
  switch (gst_bc_gl_buffer_ring_wait (ring, d->slot, 0, NULL)) {
    case GST_BC_GL_FENCE_FAILED:
      d->failed = TRUE;
      return;
    case GST_BC_GL_FENCE_TIMEOUT:
      return;
    case GST_BC_GL_FENCE_SIGNALED:
      break;
  }

  slot->gpu_time = GST_CLOCK_TIME_NONE;
  if (slot->timed) {
    if (gst_bc_gl_query_get_result (context, slot->query, &ns))
      slot->gpu_time = ns;
    slot->timed = FALSE;
  }
  d->ready = TRUE;
}

gboolean
gst_bc_gl_encoder_poll (GstBcGLEncoder * enc, guint slot, GError ** error)
{
  PollData d = { enc, slot, FALSE, FALSE };

  g_return_val_if_fail (enc != NULL && slot < enc->slots->n, FALSE);

  gst_gl_context_thread_add (enc->context, (GstGLContextThreadFunc) poll_gl,
      &d);
  if (d.failed)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "glClientWaitSync failed on the fence of slot %u", slot);
  return d.ready;
}

gboolean
gst_bc_gl_encoder_wait (GstBcGLEncoder * enc, guint slot, GError ** error)
{
  gulong sleep_us = 20;
  GError *err = NULL;

  while (!gst_bc_gl_encoder_poll (enc, slot, &err)) {
    if (err) {
      g_propagate_error (error, err);
      return FALSE;
    }
    g_usleep (sleep_us);
    sleep_us = MIN (sleep_us * 2, 1000);
  }
  return TRUE;
}

void
gst_bc_gl_encoder_free (GstBcGLEncoder * enc)
{
  guint i;

  if (enc == NULL)
    return;

  /* the GPU must not write into a slot after the ring is gone */
  for (i = 0; enc->slots && i < enc->slots->n; i++) {
    if (g_atomic_int_get (&enc->slots->slot[i].state) == SLOT_BUSY) {
      gst_bc_gl_encoder_wait (enc, i, NULL);
      g_atomic_int_set (&enc->slots->slot[i].state, SLOT_FREE);
    }
  }
  if (enc->hdr_tables)
    gst_gl_context_thread_add (enc->context,
        (GstGLContextThreadFunc) delete_tables_gl, enc);
  for (i = 0; i < G_N_ELEMENTS (enc->shaders); i++)
    gst_clear_object (&enc->shaders[i]);
  for (i = 0; i < G_N_ELEMENTS (enc->hdr_passes); i++) {
    gst_clear_object (&enc->hdr_passes[i][0]);
    gst_clear_object (&enc->hdr_passes[i][1]);
  }
  g_clear_pointer (&enc->ring, gst_bc_gl_buffer_ring_unref);
  gst_object_unref (enc->context);
  g_free (enc);
}

/* ------------------------------------------------------------------------ */
/* programs                                                                  */

/* The program of @quality (BC6H: of @pass, 0, 1 (fast and normal) or 2
 * (normal and high)), or NULL with @error set */
static GstGLShader *
compile_program (GstGLContext * context, GstBcGLEncoder * enc,
    GstBcQuality quality, gint pass, GError ** error)
{
  gboolean es32 = enc->gles &&
      gst_gl_context_check_gl_version (context, GST_GL_API_GLES2, 3, 2);
  GstGLShader *shader;
  GstGLSLStage *stage;
  gchar *src;
  gint64 start = g_get_monotonic_time ();

  src = make_source (enc, quality, es32, pass);
  /* The source starts with its own #version line. GstGLSLStage of
   * GStreamer 1.22 refuses "430 core" in a compatibility context and "320
   * es" in an OpenGL ES 3.2 one ("GL context does not support version"),
   * though the driver compiles both, so it is given no version or profile
   * to check (test_gl_apis). */
  stage = gst_glsl_stage_new_with_string (context, GL_COMPUTE_SHADER,
      GST_GLSL_VERSION_NONE, GST_GLSL_PROFILE_NONE, src);
  g_free (src);
  if (stage == NULL) {
    g_set_error (error, GST_GLSL_ERROR, GST_GLSL_ERROR_COMPILE,
        "Could not create a GLSL %s compute shader stage",
        !enc->gles ? "4.30" : (es32 ? "ES 3.20" : "ES 3.10"));
    return NULL;
  }
  shader = gst_gl_shader_new (context);
  if (!gst_gl_shader_compile_attach_stage (shader, stage, error) ||
      !gst_gl_shader_link (shader, error)) {
    gst_object_unref (shader);
    return NULL;
  }
  GST_DEBUG ("compiled and linked the %s quality %d program%s in %.1f ms",
      gst_bc_format_to_string (enc->info.format), quality,
      pass == 1 ? " of the per-block pass" : (pass == 2 ?
          " of the two-region pass" : ""),
      (g_get_monotonic_time () - start) / 1000.0);
  return shader;
}

static void
prepare_gl (GstGLContext * context, GLCall * d)
{
  GstBcGLEncoder *enc = d->enc;
  GstGLShader *shader;

  shader = compile_program (context, enc, d->quality, 0, d->error);
  if (shader == NULL)
    return;
  /* BC6H: at quality=fast and normal the second pass, over the blocks
   * of the per-block code; at normal and high the third, over the blocks
   * of two regions (high's first pass is its per-block code's one
   * region) */
  if (enc->hdr) {
    GstGLShader **passes = enc->hdr_passes[d->quality];
    gboolean per_block = d->quality != GST_BC_QUALITY_HIGH;
    gboolean two = d->quality != GST_BC_QUALITY_FAST;

    if (per_block)
      passes[0] = compile_program (context, enc, d->quality, 1, d->error);
    if ((passes[0] || !per_block) && two)
      passes[1] = compile_program (context, enc, d->quality, 2, d->error);
    if ((per_block && passes[0] == NULL) || (two && passes[1] == NULL)) {
      gst_clear_object (&passes[0]);
      gst_clear_object (&passes[1]);
      gst_object_unref (shader);
      return;
    }
  }
  enc->shaders[d->quality] = shader;
  d->ok = TRUE;
}

gboolean
gst_bc_gl_encoder_prepare (GstBcGLEncoder * enc, GstBcQuality quality,
    GError ** error)
{
  GLCall d = { enc, 0, quality, error, FALSE };

  g_return_val_if_fail (enc != NULL, FALSE);
  g_return_val_if_fail (quality >= GST_BC_QUALITY_FAST &&
      quality <= GST_BC_QUALITY_HIGH, FALSE);

  if (enc->shaders[quality])
    return TRUE;
  gst_gl_context_thread_add (enc->context,
      (GstGLContextThreadFunc) prepare_gl, &d);
  return d.ok;
}

/* ------------------------------------------------------------------------ */
/* frames                                                                    */

typedef struct
{
  GstBcGLEncoder *enc;
  guint textures[3];
  guint slot;
  GstGLShader *shader;
  /* BC6H: the programs of the second and third passes (NULL: none) */
  GstGLShader *passes[2];
  guint *gl_errors;
} SubmitData;

/* The uniforms of @shader, in use, for the textures of units 0 .. */
static void
set_uniforms (GstBcGLEncoder * enc, GstGLShader * shader, guint n_textures)
{
  static const gchar *const samplers[3] = { "u_src", "u_src1", "u_src2" };
  guint i;

  for (i = 0; i < n_textures; i++)
    gst_gl_shader_set_uniform_1i (shader, samplers[i], i);
  if (enc->yuv_layout) {
    gst_gl_shader_set_uniform_2i (shader, "u_yuv_offset",
        enc->yuv_offset[0], enc->yuv_offset[1]);
    gst_gl_shader_set_uniform_4i (shader, "u_yuv_k", enc->yuv_k[0],
        enc->yuv_k[1], enc->yuv_k[2], enc->yuv_k[3]);
    gst_gl_shader_set_uniform_1i (shader, "u_yuv_kb", enc->yuv_k[4]);
    gst_gl_shader_set_uniform_1i (shader, "u_yuv_shift", enc->yuv_shift);
    gst_gl_shader_set_uniform_2i (shader, "u_yuv_cosited",
        enc->yuv_cosited[0], enc->yuv_cosited[1]);
  }
  gst_gl_shader_set_uniform_2i (shader, "u_size", enc->info.width,
      enc->info.height);
  gst_gl_shader_set_uniform_2i (shader, "u_blocks", enc->info.blocks_x,
      enc->info.blocks_y);
  gst_gl_shader_set_uniform_4i (shader, "u_chan", enc->layout.r,
      enc->layout.g, enc->layout.b, enc->layout.a);
  if (enc->info.format == GST_BC_FORMAT_BC4)
    gst_gl_shader_set_uniform_1i (shader, "u_gray16", enc->layout.bpp == 2);
}

static void
submit_gl (GstGLContext * context, SubmitData * d)
{
  GstBcGLEncoder *enc = d->enc;
  const GstGLFuncs *gl = context->gl_vtable;
  GstBcGLBufferRing *ring = enc->ring;
  Slot *slot = &enc->slots->slot[d->slot];
  guint i, n_textures = enc->yuv_layout ? enc->yuv_planes : 1;

  gst_gl_shader_use (d->shader);
  for (i = 0; i < n_textures; i++) {
    gl->ActiveTexture (GL_TEXTURE0 + i);
    gl->BindTexture (GL_TEXTURE_2D, d->textures[i]);
  }
  set_uniforms (enc, d->shader, n_textures);
  /* BC6H: the lists of the second and third passes emptied (no work
   * group yet) */
  if (enc->hdr_list) {
    static const guint32 empty[4] = { 0, 1, 1, 0 };

    gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, enc->hdr_list);
    gl->BufferSubData (GL_SHADER_STORAGE_BUFFER, 0, sizeof (empty), empty);
    gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, enc->hdr_two);
    gl->BufferSubData (GL_SHADER_STORAGE_BUFFER, 0, sizeof (empty), empty);
    gl->BindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 2, enc->hdr_list);
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 3, enc->hdr_two);
  }
  if (enc->hdr_tables)
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, enc->hdr_tables);
  enc->BindBufferRange (GL_SHADER_STORAGE_BUFFER, 0,
      gst_bc_gl_buffer_ring_get_buffer (ring),
      (GLintptr) gst_bc_gl_buffer_ring_get_offset (ring, d->slot),
      (GLsizeiptr) enc->info.size);

  if (enc->have_timer)
    gl->BeginQuery (GL_TIME_ELAPSED, slot->query);
  enc->DispatchCompute ((enc->info.blocks_x + 7) / 8,
      (enc->info.blocks_y + 7) / 8, 1);
  /* BC6H: the blocks the first pass listed, in the work groups it
   * counted: the per-block code (fast_block (), normal's encode_block ())
   * of each in Fallback; at quality=normal and high the two regions of
   * each in Two (blocks the second pass does not write) */
  if (d->passes[0] || d->passes[1]) {
    enc->MemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    for (i = 0; i < G_N_ELEMENTS (d->passes); i++) {
      if (d->passes[i] == NULL)
        continue;
      gst_gl_shader_use (d->passes[i]);
      set_uniforms (enc, d->passes[i], n_textures);
      gl->BindBuffer (GL_DISPATCH_INDIRECT_BUFFER, i == 0 ? enc->hdr_list :
          enc->hdr_two);
      enc->DispatchComputeIndirect (0);
    }
    gl->BindBuffer (GL_DISPATCH_INDIRECT_BUFFER, 0);
  }
  if (enc->have_timer)
    gl->EndQuery (GL_TIME_ELAPSED);
  slot->timed = enc->have_timer;

  /* shader writes reach the persistent mapping before the fence */
  enc->MemoryBarrier (GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  gst_bc_gl_buffer_ring_fence (ring, d->slot);

  enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, 0);
  if (enc->hdr_tables)
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, 0);
  if (enc->hdr_list) {
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 2, 0);
    enc->BindBufferBase (GL_SHADER_STORAGE_BUFFER, 3, 0);
  }
  for (i = n_textures; i-- > 0;) {
    gl->ActiveTexture (GL_TEXTURE0 + i);
    gl->BindTexture (GL_TEXTURE_2D, 0);
  }
  gst_gl_context_clear_shader (context);

  if (d->gl_errors) {
    GLenum err;

    while ((err = gl->GetError ()) != GL_NO_ERROR) {
      GST_WARNING ("GL error 0x%04x after the encode dispatch", err);
      (*d->gl_errors)++;
    }
  }
}

gboolean
gst_bc_gl_encoder_submit (GstBcGLEncoder * enc, guint texture,
    GstBcQuality quality, guint * slot, guint * gl_errors, GError ** error)
{
  const guint textures[3] = { texture, 0, 0 };

  return gst_bc_gl_encoder_submit_planes (enc, textures, quality, slot,
      gl_errors, error);
}

gboolean
gst_bc_gl_encoder_submit_planes (GstBcGLEncoder * enc,
    const guint textures[3], GstBcQuality quality, guint * slot,
    guint * gl_errors, GError ** error)
{
  SubmitData d = { enc, {0,}, 0, NULL, {NULL, NULL}, gl_errors };
  guint i, n;

  g_return_val_if_fail (enc != NULL && slot != NULL && textures != NULL, FALSE);
  memcpy (d.textures, textures, sizeof (d.textures));

  quality = CLAMP (quality, GST_BC_QUALITY_FAST, GST_BC_QUALITY_HIGH);
  if (!gst_bc_gl_encoder_prepare (enc, quality, error))
    return FALSE;

  n = enc->slots->n;
  for (i = 0; i < n; i++) {
    guint s = (enc->next_slot + i) % n;

    if (g_atomic_int_compare_and_exchange (&enc->slots->slot[s].state,
            SLOT_FREE, SLOT_BUSY)) {
      d.slot = s;
      break;
    }
  }
  if (i == n) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_BUSY,
        "All %u slots of the GL encoder are in use", n);
    return FALSE;
  }
  enc->next_slot = (d.slot + 1) % n;
  d.shader = enc->shaders[quality];
  if (enc->hdr) {
    d.passes[0] = enc->hdr_passes[quality][0];
    d.passes[1] = enc->hdr_passes[quality][1];
  }

  gst_gl_context_thread_add (enc->context,
      (GstGLContextThreadFunc) submit_gl, &d);
  *slot = d.slot;
  return TRUE;
}

const guint8 *
gst_bc_gl_encoder_get_data (GstBcGLEncoder * enc, guint slot)
{
  g_return_val_if_fail (enc != NULL && slot < enc->slots->n, NULL);

  return gst_bc_gl_buffer_ring_get_data (enc->ring, slot);
}

GstClockTime
gst_bc_gl_encoder_get_gpu_time (GstBcGLEncoder * enc, guint slot)
{
  g_return_val_if_fail (enc != NULL && slot < enc->slots->n,
      GST_CLOCK_TIME_NONE);

  return enc->slots->slot[slot].gpu_time;
}

void
gst_bc_gl_encoder_release (GstBcGLEncoder * enc, guint slot)
{
  g_return_if_fail (enc != NULL && slot < enc->slots->n);

  g_atomic_int_set (&enc->slots->slot[slot].state, SLOT_FREE);
}

typedef struct
{
  GstBcGLBufferRing *ring;
  guint slot;
} Lent;

static void
lent_free (Lent * lent)
{
  Slots *slots = gst_bc_gl_buffer_ring_get_user_data (lent->ring);

  g_atomic_int_set (&slots->slot[lent->slot].state, SLOT_FREE);
  gst_bc_gl_buffer_ring_unref (lent->ring);
  g_free (lent);
}

GstMemory *
gst_bc_gl_encoder_lend (GstBcGLEncoder * enc, guint slot)
{
  Lent *lent;

  g_return_val_if_fail (enc != NULL && slot < enc->slots->n, NULL);

  lent = g_new (Lent, 1);
  lent->ring = gst_bc_gl_buffer_ring_ref (enc->ring);
  lent->slot = slot;
  g_atomic_int_set (&enc->slots->slot[slot].state, SLOT_LENT);
  return gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY,
      gst_bc_gl_buffer_ring_get_data (enc->ring, slot),
      enc->info.size, 0, enc->info.size, lent, (GDestroyNotify) lent_free);
}

guint
gst_bc_gl_encoder_get_n_lent (GstBcGLEncoder * enc)
{
  guint i, n = 0;

  for (i = 0; i < enc->slots->n; i++)
    if (g_atomic_int_get (&enc->slots->slot[i].state) == SLOT_LENT)
      n++;
  return n;
}

guint
gst_bc_gl_encoder_get_n_slots (GstBcGLEncoder * enc)
{
  return enc->slots->n;
}
