/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The ring of glbcupload's pool: a GstBcGLBufferRing (libgstbcgl) made for
 * GL_PIXEL_UNPACK_BUFFER with GL_MAP_WRITE_BIT (the producer writes a frame
 * into a slot through the persistent coherent mapping, the GPU reads it),
 * slots on page boundaries, and, as the ring's user data
 * (GstGLBcRingData), an immutable compressed texture per slot: while
 * glbcupload draws frame N from slot A, tiles of frame N + 1 can already
 * be uploaded into slot B's texture. Block rows go from a slot into its
 * texture with glCompressedTexSubImage2D () from the bound buffer object,
 * never through the CPU again.
 *
 * After drawing from a slot glbcupload fences it (gst_gl_bc_ring_fence ());
 * a new fill of the slot starts only once the GPU has passed that fence
 * (gst_gl_bc_ring_start_fill ()), so a producer never overwrites bytes the
 * GPU may still read. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcpoolprivate.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

/* slots start on page boundaries */
#define SLOT_ALIGN 4096
/* how long starting a fill waits for the GPU before giving up */
#define FENCE_TIMEOUT_NS (5 * G_GUINT64_CONSTANT (1000000000))

/* GL thread: the ring's user data goes with the ring */
static void
ring_data_free_gl (GstGLContext * context, GstGLBcRingData * data)
{
  const GstGLFuncs *gl = context->gl_vtable;
  guint i;

  GST_DEBUG ("freeing ring data %p (%u slots)", data, data->n_slots);
  for (i = 0; i < data->n_slots; i++) {
    GstGLBcSlot *s = &data->slots[i];

    if (s->texture)
      gl->DeleteTextures (1, &s->texture);
    g_free (s->row_fill);
  }
  g_free (data->slots);
  /* not the window's last reference: the context, which the ring holds
   * until after this, has one */
  gst_object_unref (data->window);
  g_free (data);
}

typedef struct
{
  GstGLBcRingData *data;        /* given to the ring */
  gsize size;
  GstBcGLBufferRing *ring;
  GError *error;
} CreateData;

static void
ring_create_gl (GstGLContext * context, CreateData * d)
{
  const GstGLFuncs *gl = context->gl_vtable;
  GstGLBcRingData *data = d->data;
  GLenum err;
  guint i;

  /* the CPU writes, the GPU reads */
  d->ring = gst_bc_gl_buffer_ring_new (context, GL_PIXEL_UNPACK_BUFFER,
      GL_MAP_WRITE_BIT, d->size, SLOT_ALIGN, data->n_slots, &d->error);
  if (!d->ring) {
    ring_data_free_gl (context, data);
    return;
  }
  gst_bc_gl_buffer_ring_set_user_data (d->ring, data,
      (GstBcGLBufferRingFreeFunc) ring_data_free_gl);

  for (i = 0; i < data->n_slots; i++) {
    GstGLBcSlot *s = &data->slots[i];

    gl->GenTextures (1, &s->texture);
    gl->BindTexture (GL_TEXTURE_2D, s->texture);
    data->TexStorage2D (GL_TEXTURE_2D, 1, data->internal_format,
        data->info.padded_width, data->info.padded_height);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  gl->BindTexture (GL_TEXTURE_2D, 0);
  err = gl->GetError ();
  if (err != GL_NO_ERROR) {
    g_set_error (&d->error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "glTexStorage2D of %u %ux%u textures (format 0x%x) failed (GL "
        "error 0x%x)", data->n_slots, data->info.padded_width,
        data->info.padded_height, data->internal_format, err);
    g_clear_pointer (&d->ring, gst_bc_gl_buffer_ring_unref);
  }
}

GstBcGLBufferRing *
gst_gl_bc_ring_new (GstGLContext * context, const GstBcInfo * info,
    gsize size, guint n_slots, GError ** error)
{
  GstGLBcFormatSupport support;
  GstGLBcRingData *data;
  GstGLWindow *window;
  CreateData d = { NULL, size, NULL, NULL };
  const gchar *missing;
  guint i;

  missing = gst_gl_bc_context_missing (context);
  gst_gl_bc_format_support (context, info->format, &support);
  if (missing || support.missing) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "the GL context lacks %s", missing ? missing : support.missing);
    return NULL;
  }
  window = gst_gl_context_get_window (context);
  if (!window) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "the GL context has no window to queue uploads to");
    return NULL;
  }

  data = g_new0 (GstGLBcRingData, 1);
  data->window = window;
  data->info = *info;
  data->internal_format = support.internal_format;
  data->TexStorage2D = (GstGLBcTexStorage2DFunc)
      gst_gl_context_get_proc_address (context, "glTexStorage2D");
  data->n_slots = n_slots;
  data->slots = g_new0 (GstGLBcSlot, n_slots);
  for (i = 0; i < n_slots; i++) {
    data->slots[i].row_fill = g_new0 (guint32, info->blocks_y);
    data->slots[i].stepped_fill = -1;
  }

  d.data = data;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) ring_create_gl,
      &d);
  if (!d.ring) {
    g_propagate_error (error, d.error);
    return NULL;
  }
  GST_DEBUG ("ring %p: %u slots of %" G_GSIZE_FORMAT " bytes, buffer object "
      "%u mapped at %p", d.ring, n_slots, size,
      gst_bc_gl_buffer_ring_get_buffer (d.ring),
      gst_bc_gl_buffer_ring_get_data (d.ring, 0));
  return d.ring;
}

const GstBcInfo *
gst_gl_bc_ring_get_info (GstBcGLBufferRing * ring)
{
  return &gst_gl_bc_ring_get_data (ring)->info;
}

void
gst_gl_bc_ring_set_stepped (GstBcGLBufferRing * ring, gboolean stepped)
{
  g_atomic_int_set (&gst_gl_bc_ring_get_data (ring)->stepped, stepped);
}

GLuint
gst_gl_bc_ring_get_texture (GstBcGLBufferRing * ring, guint slot)
{
  GstGLBcRingData *data = gst_gl_bc_ring_get_data (ring);

  g_return_val_if_fail (slot < data->n_slots, 0);
  return data->slots[slot].texture;
}

void
gst_gl_bc_ring_upload_rows (GstBcGLBufferRing * ring, guint slot,
    guint first, guint n)
{
  GstGLBcRingData *data = gst_gl_bc_ring_get_data (ring);
  const GstGLFuncs *gl = gst_bc_gl_buffer_ring_get_context (ring)->gl_vtable;
  gsize offset = gst_bc_gl_buffer_ring_get_offset (ring, slot) +
      first * data->info.row_bytes;

  gl->BindBuffer (GL_PIXEL_UNPACK_BUFFER,
      gst_bc_gl_buffer_ring_get_buffer (ring));
  gl->BindTexture (GL_TEXTURE_2D, data->slots[slot].texture);
  gl->CompressedTexSubImage2D (GL_TEXTURE_2D, 0, 0, first * GST_BC_BLOCK_SIZE,
      data->info.padded_width, n * GST_BC_BLOCK_SIZE, data->internal_format,
      (GLsizei) (n * data->info.row_bytes), (const void *) (guintptr) offset);
  gl->BindTexture (GL_TEXTURE_2D, 0);
  gl->BindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
}

gboolean
gst_gl_bc_ring_upload_remaining (GstBcGLBufferRing * ring, guint slot,
    GstGLBcUploadResult * result)
{
  GstGLBcRingData *data = gst_gl_bc_ring_get_data (ring);
  GstGLBcSlot *s;
  guint32 fill;
  guint r = 0, rows;

  g_return_val_if_fail (slot < data->n_slots, FALSE);
  s = &data->slots[slot];
  fill = (guint32) g_atomic_int_get (&s->fill);
  rows = data->info.blocks_y;

  memset (result, 0, sizeof (*result));
  if (s->stepped_fill == (gint) fill) {
    result->stepped = s->stepped_count;
    result->gl_errors = s->stepped_errors;
  }
  result->waited = s->waited;

  while (r < rows) {
    guint first;

    if (s->row_fill[r] == fill) {
      r++;
      continue;
    }
    first = r;
    while (r < rows && s->row_fill[r] != fill)
      s->row_fill[r++] = fill;
    gst_gl_bc_ring_upload_rows (ring, slot, first, r - first);
    result->uploads++;
  }
  result->all_stepped = result->uploads == 0 && result->stepped > 0;
  return TRUE;
}

void
gst_gl_bc_ring_fence (GstBcGLBufferRing * ring, guint slot)
{
  g_return_if_fail (slot < gst_bc_gl_buffer_ring_get_n_slots (ring));

  gst_bc_gl_buffer_ring_fence (ring, slot);
  /* the GPU is usually done with the others by now: handing them out then
   * needs no trip to the GL thread */
  gst_bc_gl_buffer_ring_reap (ring, slot);
}

typedef struct
{
  GstBcGLBufferRing *ring;
  guint slot;
  gboolean waited;
} WaitData;

static void
wait_fence_gl (GstGLContext * context, WaitData * d)
{
  GstBcGLFenceResult r;

  r = gst_bc_gl_buffer_ring_wait (d->ring, d->slot, FENCE_TIMEOUT_NS,
      &d->waited);
  if (r != GST_BC_GL_FENCE_SIGNALED) {
    GST_WARNING ("slot %u: the GPU did not finish with it (%s), reusing it "
        "anyway", d->slot, r == GST_BC_GL_FENCE_TIMEOUT ? "timed out" :
        "glClientWaitSync failed");
    gst_bc_gl_buffer_ring_clear_fence (d->ring, d->slot);
  }
}

void
gst_gl_bc_ring_start_fill (GstBcGLBufferRing * ring, guint slot)
{
  GstGLBcSlot *s = &gst_gl_bc_ring_get_data (ring)->slots[slot];
  WaitData d = { ring, slot, FALSE };

  if (gst_bc_gl_buffer_ring_is_fenced (ring, slot))
    gst_gl_context_thread_add (gst_bc_gl_buffer_ring_get_context (ring),
        (GstGLContextThreadFunc) wait_fence_gl, &d);
  s->waited = d.waited;
  g_atomic_int_inc (&s->fill);
}
