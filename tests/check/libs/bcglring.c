/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libgstbcgl's persistent coherent mapped ring (gst-libs/gst/bcgl/
 * bcglring.h) and its fence and timer query helpers, on a headless GL
 * context: the slots' layout, bytes the CPU writes into one ring reaching
 * the GPU and bytes the GPU copies into another ring reaching the CPU
 * through the mappings, fences (wait, reap, clear, replace), the
 * reference count and the user data freed on the GL thread, a timer query,
 * and the sizes a ring refuses.
 *
 * Exits 77 (skipped) only when no GL context can be created at all. Each
 * test makes its own context (GL does not survive the fork () of the test
 * runner); the GL calls run on its thread, the checks on the test's. */

#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE             /* dl_iterate_phdr () */
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bcgl/bcglring.h>

#include "gltest.h"

#include <string.h>

#include "gstbctest.h"

#ifndef GL_COPY_READ_BUFFER
#define GL_COPY_READ_BUFFER 0x8F36
#endif
#ifndef GL_COPY_WRITE_BUFFER
#define GL_COPY_WRITE_BUFFER 0x8F37
#endif

#define WAIT_NS (10 * G_GUINT64_CONSTANT (1000000000))

static GstGLDisplay *display;
static GstGLContext *context;

static void
setup (void)
{
  GError *error = NULL;

  gl_test_pin_driver ();
  display = gst_gl_display_new ();
  fail_unless (gst_gl_display_create_context (display, NULL, &context,
          &error), "no GL context: %s", error ? error->message : "?");
}

static void
teardown (void)
{
  gst_clear_object (&context);
  gst_clear_object (&display);
}

/* ---------------------------------------------------------------------- */
/* The GL thread's side                                                    */
/* ---------------------------------------------------------------------- */

typedef struct
{
  GLenum target;
  GLbitfield flags;
  gsize slot_size;
  gsize align;
  guint n_slots;
  GstBcGLBufferRing *ring;
  GError *error;
} NewData;

static void
new_gl (GstGLContext * ctx, NewData * d)
{
  d->ring = gst_bc_gl_buffer_ring_new (ctx, d->target, d->flags,
      d->slot_size, d->align, d->n_slots, &d->error);
}

static GstBcGLBufferRing *
ring_new (GLenum target, GLbitfield flags, gsize slot_size, gsize align,
    guint n_slots, GError ** error)
{
  NewData d = { target, flags, slot_size, align, n_slots, NULL, NULL };

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) new_gl, &d);
  if (d.error)
    g_propagate_error (error, d.error);
  return d.ring;
}

/* one step on a slot: what, and what came of it */
typedef enum
{
  STEP_FENCE,
  STEP_WAIT,
  STEP_CLEAR,
  STEP_REAP,
  STEP_FINISH,
} Step;

typedef struct
{
  GstBcGLBufferRing *ring;
  guint slot;
  Step step;
  guint64 timeout_ns;
  gboolean waited;
  GstBcGLFenceResult result;
  guint reaped;
} StepData;

static void
step_gl (GstGLContext * ctx, StepData * d)
{
  switch (d->step) {
    case STEP_FENCE:
      gst_bc_gl_buffer_ring_fence (d->ring, d->slot);
      break;
    case STEP_WAIT:
      d->result = gst_bc_gl_buffer_ring_wait (d->ring, d->slot,
          d->timeout_ns, &d->waited);
      break;
    case STEP_CLEAR:
      gst_bc_gl_buffer_ring_clear_fence (d->ring, d->slot);
      break;
    case STEP_REAP:
      d->reaped = gst_bc_gl_buffer_ring_reap (d->ring, d->slot);
      break;
    case STEP_FINISH:
      ctx->gl_vtable->Finish ();
      break;
  }
}

static StepData
step (GstBcGLBufferRing * ring, guint slot, Step what, guint64 timeout_ns)
{
  StepData d = { ring, slot, what, timeout_ns, FALSE, 0, 0 };

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) step_gl, &d);
  return d;
}

static void
get_error_gl (GstGLContext * ctx, GLenum * err)
{
  *err = ctx->gl_vtable->GetError ();
}

static void
assert_no_gl_error (void)
{
  GLenum err = GL_NO_ERROR;

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) get_error_gl,
      &err);
  fail_unless (err == GL_NO_ERROR, "GL error 0x%x", err);
}

/* ---------------------------------------------------------------------- */

GST_START_TEST (test_context)
{
  fail_unless (gst_bc_gl_buffer_ring_context_missing (context) == NULL,
      "the context lacks %s", gst_bc_gl_buffer_ring_context_missing (context));
  /* desktop OpenGL 3.3 or later (llvmpipe: 4.5) has timer queries */
  fail_unless_equals_int (gst_bc_gl_context_has_timer_query (context),
      gst_gl_context_check_gl_version (context, GST_GL_API_OPENGL |
          GST_GL_API_OPENGL3, 3, 3));
}

GST_END_TEST;

GST_START_TEST (test_layout)
{
  GstBcGLBufferRing *ring;
  GError *error = NULL;
  guint8 *base;
  guint i;

  ring = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, 1000, 256, 3,
      &error);
  fail_unless (ring != NULL, "%s", error ? error->message : "?");
  fail_unless (gst_bc_gl_buffer_ring_get_buffer (ring) != 0);
  fail_unless_equals_int (gst_bc_gl_buffer_ring_get_n_slots (ring), 3);
  fail_unless_equals_uint64 (gst_bc_gl_buffer_ring_get_slot_size (ring), 1000);
  fail_unless (gst_bc_gl_buffer_ring_get_context (ring) == context);
  base = gst_bc_gl_buffer_ring_get_data (ring, 0);
  fail_unless (base != NULL);
  for (i = 0; i < 3; i++) {
    StepData d;

    /* slots start on multiples of the alignment, in order */
    fail_unless_equals_uint64 (gst_bc_gl_buffer_ring_get_offset (ring, i),
        1024 * i);
    fail_unless (gst_bc_gl_buffer_ring_get_data (ring, i) == base + 1024 * i);
    /* every byte of a slot can be written */
    memset (gst_bc_gl_buffer_ring_get_data (ring, i), 0xa0 + i, 1000);
    /* a slot without a fence is free at once */
    fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, i));
    d = step (ring, i, STEP_WAIT, WAIT_NS);
    fail_unless_equals_int (d.result, GST_BC_GL_FENCE_SIGNALED);
    fail_if (d.waited);
  }
  assert_no_gl_error ();
  gst_bc_gl_buffer_ring_unref (ring);

  /* slots as large as the alignment, and one slot */
  ring = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, 4096, 4096, 1,
      NULL);
  fail_unless (ring != NULL);
  fail_unless_equals_uint64 (gst_bc_gl_buffer_ring_get_offset (ring, 0), 0);
  memset (gst_bc_gl_buffer_ring_get_data (ring, 0), 0x5a, 4096);
  assert_no_gl_error ();
  gst_bc_gl_buffer_ring_unref (ring);
}

GST_END_TEST;

typedef struct
{
  GstBcGLBufferRing *src, *dst;
  guint src_slot, dst_slot;
  gsize size;
} CopyData;

/* The GPU copies a slot of @src into a slot of @dst and fences both: the
 * copy reads what the CPU wrote and writes what the CPU is to read. */
static void
copy_gl (GstGLContext * ctx, CopyData * d)
{
  const GstGLFuncs *gl = ctx->gl_vtable;

  gl->BindBuffer (GL_COPY_READ_BUFFER, gst_bc_gl_buffer_ring_get_buffer
      (d->src));
  gl->BindBuffer (GL_COPY_WRITE_BUFFER, gst_bc_gl_buffer_ring_get_buffer
      (d->dst));
  gl->CopyBufferSubData (GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
      (GLintptr) gst_bc_gl_buffer_ring_get_offset (d->src, d->src_slot),
      (GLintptr) gst_bc_gl_buffer_ring_get_offset (d->dst, d->dst_slot),
      (GLsizeiptr) d->size);
  gl->BindBuffer (GL_COPY_READ_BUFFER, 0);
  gl->BindBuffer (GL_COPY_WRITE_BUFFER, 0);
  gst_bc_gl_buffer_ring_fence (d->src, d->src_slot);
  gst_bc_gl_buffer_ring_fence (d->dst, d->dst_slot);
}

static void
fill (guint8 * data, gsize size, guint32 seed)
{
  gsize i;

  for (i = 0; i < size; i++) {
    seed = seed * 1103515245u + 12345u;
    data[i] = seed >> 24;
  }
}

/* CPU -> write ring -> GPU copy -> read ring -> CPU, through the
 * persistent mappings only (no glMapBuffer, no glBufferSubData), slot by
 * slot for several rounds: each slot is waited for before it is reused. */
GST_START_TEST (test_round_trip)
{
  const gsize size = 3000;
  const guint n_slots = 3;
  GstBcGLBufferRing *w, *r;
  guint8 *want = g_malloc (size);
  guint round, i;

  w = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, size, 4096,
      n_slots, NULL);
  r = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_READ_BIT |
      GL_CLIENT_STORAGE_BIT, size, 256, n_slots, NULL);
  fail_unless (w != NULL && r != NULL);

  for (round = 0; round < 4; round++) {
    for (i = 0; i < n_slots; i++) {
      /* read ring slot i takes write ring slot (i + round) % n_slots */
      CopyData c = { w, r, (i + round) % n_slots, i, size };
      StepData d;

      d = step (w, c.src_slot, STEP_WAIT, WAIT_NS);
      fail_unless_equals_int (d.result, GST_BC_GL_FENCE_SIGNALED);
      fill (gst_bc_gl_buffer_ring_get_data (w, c.src_slot), size,
          round * 16 + i);
      gst_gl_context_thread_add (context, (GstGLContextThreadFunc) copy_gl, &c);
      fail_unless (gst_bc_gl_buffer_ring_is_fenced (r, i));

      d = step (r, i, STEP_WAIT, WAIT_NS);
      fail_unless_equals_int (d.result, GST_BC_GL_FENCE_SIGNALED);
      fail_if (gst_bc_gl_buffer_ring_is_fenced (r, i));
      fill (want, size, round * 16 + i);
      fail_unless (memcmp (gst_bc_gl_buffer_ring_get_data (r, i), want,
              size) == 0, "round %u slot %u: the bytes differ", round, i);
    }
  }
  assert_no_gl_error ();
  gst_bc_gl_buffer_ring_unref (w);
  gst_bc_gl_buffer_ring_unref (r);
  g_free (want);
}

GST_END_TEST;

GST_START_TEST (test_fences)
{
  GstBcGLBufferRing *ring;
  StepData d;
  guint i;

  ring = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, 64, 64, 4, NULL);
  fail_unless (ring != NULL);

  for (i = 0; i < 3; i++)
    step (ring, i, STEP_FENCE, 0);
  /* replacing a fence keeps one */
  step (ring, 1, STEP_FENCE, 0);
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (gst_bc_gl_buffer_ring_is_fenced (ring, i), i < 3);

  /* once the GPU is done, reaping deletes every fence but the one kept */
  step (ring, 0, STEP_FINISH, 0);
  d = step (ring, 1, STEP_REAP, 0);
  fail_unless_equals_int (d.reaped, 2);
  fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, 0));
  fail_unless (gst_bc_gl_buffer_ring_is_fenced (ring, 1));
  fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, 2));
  d = step (ring, 1, STEP_REAP, 0);
  fail_unless_equals_int (d.reaped, 0);

  /* a signalled fence: no waiting, and the fence is gone */
  d = step (ring, 1, STEP_WAIT, WAIT_NS);
  fail_unless_equals_int (d.result, GST_BC_GL_FENCE_SIGNALED);
  fail_if (d.waited);
  fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, 1));

  /* a fresh fence, waited for without a timeout, then with one */
  step (ring, 3, STEP_FENCE, 0);
  d = step (ring, 3, STEP_WAIT, 0);
  fail_if (d.waited);
  if (d.result == GST_BC_GL_FENCE_TIMEOUT) {
    fail_unless (gst_bc_gl_buffer_ring_is_fenced (ring, 3));
    d = step (ring, 3, STEP_WAIT, WAIT_NS);
    fail_unless (d.waited);
  }
  fail_unless_equals_int (d.result, GST_BC_GL_FENCE_SIGNALED);
  fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, 3));

  /* clearing drops a fence without waiting */
  step (ring, 2, STEP_FENCE, 0);
  step (ring, 2, STEP_CLEAR, 0);
  fail_if (gst_bc_gl_buffer_ring_is_fenced (ring, 2));
  step (ring, 2, STEP_CLEAR, 0);

  /* freeing deletes the fences still there */
  step (ring, 0, STEP_FENCE, 0);
  assert_no_gl_error ();
  gst_bc_gl_buffer_ring_unref (ring);
  assert_no_gl_error ();
}

GST_END_TEST;

typedef struct
{
  GLuint query;
  gboolean available;
  guint64 ns;
} QueryData;

static void
query_gl (GstGLContext * ctx, QueryData * d)
{
  const GstGLFuncs *gl = ctx->gl_vtable;
  guint i;

  gl->GenQueries (1, &d->query);
  gl->BeginQuery (GL_TIME_ELAPSED, d->query);
  gl->EndQuery (GL_TIME_ELAPSED);
  gl->Finish ();
  /* after glFinish () the result is there, or about to be */
  for (i = 0; i < 1000 && !d->available; i++) {
    d->available = gst_bc_gl_query_get_result (ctx, d->query, &d->ns);
    if (!d->available)
      g_usleep (1000);
  }
  gl->DeleteQueries (1, &d->query);
}

GST_START_TEST (test_timer_query)
{
  QueryData d = { 0, FALSE, G_MAXUINT64 };

  if (!gst_bc_gl_context_has_timer_query (context))
    return;                     /* OpenGL ES: test_context checks why */
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) query_gl, &d);
  /* only that there is a result: llvmpipe gives its clock instead of an
   * interval for the first query of a context */
  fail_unless (d.available, "no timer query result");
  fail_if (d.ns == G_MAXUINT64);
  assert_no_gl_error ();
}

GST_END_TEST;

/* GstBcGLTimer: frames timed while a query is free (at most
 * GST_BC_GL_TIMER_QUERIES in flight), every ended query collected once, in
 * order, as a frame or as a driver's error */
typedef struct
{
  guint begun, refused;
  guint64 frames, ns, invalid;
} TimerData;

static void
timer_gl (GstGLContext * ctx, TimerData * d)
{
  const GstGLFuncs *gl = ctx->gl_vtable;
  GstBcGLTimer *timer = gst_bc_gl_timer_new (ctx);
  guint i;

  fail_unless (timer != NULL);
  /* GST_BC_GL_TIMER_QUERIES timed frames; each begin first collects the
   * queries that have finished, and refuses when all are in flight */
  for (i = 0; i < 1000; i++) {
    if (gst_bc_gl_timer_begin (timer)) {
      gst_bc_gl_timer_end (timer);
      d->begun++;
      gl->Finish ();
    } else {
      d->refused++;
    }
    if (d->begun == GST_BC_GL_TIMER_QUERIES)
      break;
  }
  /* everything finished: the next begin collects it all */
  for (i = 0; i < 1000; i++) {
    guint64 f, n, inv;

    if (gst_bc_gl_timer_begin (timer)) {
      gst_bc_gl_timer_end (timer);
      d->begun++;
    }
    gst_bc_gl_timer_take (timer, &f, &n, &inv);
    d->frames += f;
    d->ns += n;
    d->invalid += inv;
    if (d->frames + d->invalid >= GST_BC_GL_TIMER_QUERIES)
      break;
    gl->Finish ();
    g_usleep (1000);
  }
  gst_bc_gl_timer_free (timer);
}

GST_START_TEST (test_timer_ring)
{
  TimerData d = { 0, };

  if (!gst_bc_gl_context_has_timer_query (context))
    return;                     /* OpenGL ES: test_context checks why */
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) timer_gl, &d);
  /* the first eight all collected, none twice */
  fail_unless (d.frames + d.invalid >= GST_BC_GL_TIMER_QUERIES);
  fail_unless (d.frames + d.invalid <= d.begun);
  fail_unless (d.frames > 0, "no frame timed (%" G_GUINT64_FORMAT
      " refused as the driver's clock)", d.invalid);
  /* an empty query takes far less than a second */
  fail_unless (d.ns < d.frames * GST_SECOND);
  assert_no_gl_error ();
}

GST_END_TEST;

/* glbcupload's caps both ways, and GL memory preferred */
GST_START_TEST (test_upload_caps)
{
  GstCaps *bc = gst_caps_from_string ("video/x-bc, format=BC1, width=30, "
      "height=26, framerate=30/1");
  GstCaps *raw = gst_bc_gl_caps_transform (GST_PAD_SINK, bc, NULL);
  GstCaps *back, *pref, *sys, *filtered;

  fail_unless_equals_int (gst_caps_get_size (raw), 2);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (raw, 0),
          GST_CAPS_FEATURE_MEMORY_GL_MEMORY));
  fail_unless (gst_caps_features_is_equal (gst_caps_get_features (raw, 1),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  fail_unless (gst_structure_has_field (gst_caps_get_structure (raw, 0),
          "texture-target"));
  fail_if (gst_structure_has_field (gst_caps_get_structure (raw, 1),
          "texture-target"));
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (raw, 1), "format"), "RGBA");

  /* back: every BC format, at the same size */
  back = gst_bc_gl_caps_transform (GST_PAD_SRC, raw, NULL);
  fail_unless (gst_caps_can_intersect (back, bc));
  sys = gst_caps_from_string ("video/x-bc, format=BC7, width=30, height=26");
  fail_unless (gst_caps_can_intersect (back, sys));
  gst_caps_unref (sys);

  /* a system-memory filter keeps the read back only */
  sys = gst_caps_from_string ("video/x-raw");
  filtered = gst_bc_gl_caps_transform (GST_PAD_SINK, bc, sys);
  fail_unless_equals_int (gst_caps_get_size (filtered), 1);
  fail_unless (gst_caps_features_is_equal (gst_caps_get_features (filtered,
              0), GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  /* GL memory preferred even when listed second; system memory kept when
   * there is no GL memory */
  pref = gst_bc_gl_caps_prefer_gl_memory (gst_caps_merge (gst_caps_ref
          (filtered), gst_caps_copy_nth (raw, 0)));
  fail_unless_equals_int (gst_caps_get_size (pref), 1);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (pref, 0),
          GST_CAPS_FEATURE_MEMORY_GL_MEMORY));
  gst_caps_unref (pref);
  pref = gst_bc_gl_caps_prefer_gl_memory (gst_caps_ref (filtered));
  fail_unless (gst_caps_is_equal (pref, filtered));
  gst_caps_unref (pref);

  gst_caps_unref (filtered);
  gst_caps_unref (sys);
  gst_caps_unref (back);
  gst_caps_unref (raw);
  gst_caps_unref (bc);
}

GST_END_TEST;

/* BC6H and BC6H-SF are taken, and their RGBA has the colorimetry of the
 * tone-mapped SDR, as bcdec's: full range RGB, sRGB transfer, the input's
 * primaries (BT.2020 when it names none); 8-bit formats get none */
GST_START_TEST (test_upload_caps_bc6h)
{
  static const struct
  {
    const gchar *in;
    const gchar *colorimetry;
  } cases[] = {
    {"video/x-bc, format=BC6H, width=30, height=26", "1:1:7:7"},
    {"video/x-bc, format=BC6H, width=30, height=26, colorimetry=1:1:1:1",
        "sRGB"},
    {"video/x-bc, format=BC6H, width=30, height=26, colorimetry=bt2100-pq",
        "1:1:7:7"},
    {"video/x-bc, format=BC6H-SF, width=30, height=26", "1:1:7:7"},
    {"video/x-bc, format=BC6H-SF, width=30, height=26, colorimetry=1:1:1:1",
        "sRGB"},
    {"video/x-bc, format=BC7, width=30, height=26", NULL},
  };
  GstCaps *all, *one;
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstCaps *bc = gst_caps_from_string (cases[i].in);
    GstCaps *raw = gst_bc_gl_caps_transform (GST_PAD_SINK, bc, NULL);

    fail_unless_equals_int (gst_caps_get_size (raw), 2);
    for (j = 0; j < 2; j++) {
      const gchar *str = gst_structure_get_string (gst_caps_get_structure (raw,
              j), "colorimetry");
      GstVideoColorimetry c, want;

      if (cases[i].colorimetry == NULL) {
        fail_unless (str == NULL, "%s: %s", cases[i].in, str);
        continue;
      }
      fail_unless (str != NULL, "%s: no colorimetry", cases[i].in);
      fail_unless (gst_video_colorimetry_from_string (&c, str));
      fail_unless (gst_video_colorimetry_from_string (&want,
              cases[i].colorimetry));
      fail_unless (gst_video_colorimetry_is_equal (&c, &want),
          "%s: %s, not %s", cases[i].in, str, cases[i].colorimetry);
    }
    gst_caps_unref (raw);
    gst_caps_unref (bc);
  }

  one = gst_caps_from_string ("video/x-raw, format=RGBA, width=30, "
      "height=26");
  all = gst_bc_gl_caps_transform (GST_PAD_SRC, one, NULL);
  gst_caps_unref (one);
  one = gst_caps_from_string ("video/x-bc, format=BC6H, width=30, height=26");
  fail_unless (gst_caps_can_intersect (all, one));
  gst_caps_unref (one);
  one = gst_caps_from_string ("video/x-bc, format=BC6H-SF, width=30, "
      "height=26");
  fail_unless (gst_caps_can_intersect (all, one));
  gst_caps_unref (one);
  gst_caps_unref (all);
}

GST_END_TEST;

typedef struct
{
  GThread *gl_thread;
  GThread *freed_on;
  GstGLContext *context;
  GLuint query;
  guint freed;
} UserData;

static void
user_data_gl (GstGLContext * ctx, UserData * u)
{
  u->gl_thread = g_thread_self ();
  ctx->gl_vtable->GenQueries (1, &u->query);
}

static void
user_data_free_gl (GstGLContext * ctx, UserData * u)
{
  /* on the GL thread, before the buffer object goes: its GL objects can
   * be deleted there */
  u->freed_on = g_thread_self ();
  u->context = ctx;
  ctx->gl_vtable->DeleteQueries (1, &u->query);
  u->freed++;
}

/* References from any thread; the last one frees the user data on the GL
 * thread, once. */
GST_START_TEST (test_refcount)
{
  GstBcGLBufferRing *ring;
  UserData u = { NULL, };

  ring = ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, 64, 64, 2, NULL);
  fail_unless (ring != NULL);
  fail_unless (gst_bc_gl_buffer_ring_get_user_data (ring) == NULL);
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) user_data_gl,
      &u);
  gst_bc_gl_buffer_ring_set_user_data (ring, &u,
      (GstBcGLBufferRingFreeFunc) user_data_free_gl);
  fail_unless (gst_bc_gl_buffer_ring_get_user_data (ring) == &u);

  fail_unless (gst_bc_gl_buffer_ring_ref (ring) == ring);
  gst_bc_gl_buffer_ring_unref (ring);
  fail_unless_equals_int (u.freed, 0);
  /* the mapping is still there */
  memset (gst_bc_gl_buffer_ring_get_data (ring, 1), 0x11, 64);
  gst_bc_gl_buffer_ring_unref (ring);
  fail_unless_equals_int (u.freed, 1);
  fail_unless (u.freed_on == u.gl_thread);
  fail_unless (u.freed_on != g_thread_self ());
  fail_unless (u.context == context);
  assert_no_gl_error ();
}

GST_END_TEST;

/* A ring whose buffer would not fit GLsizeiptr is refused before any GL
 * call, with an error. */
GST_START_TEST (test_too_large)
{
  const gsize half = (gsize) G_MAXSSIZE / 2 + 1;
  GError *error = NULL;

  fail_unless (ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT, half, 1,
          2, &error) == NULL);
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT));
  g_clear_error (&error);

  fail_unless (ring_new (GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT,
          (gsize) G_MAXSSIZE, 4096, 1, &error) == NULL);
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT));
  g_clear_error (&error);
  assert_no_gl_error ();
}

GST_END_TEST;

static Suite *
bcglring_suite (void)
{
  Suite *s = suite_create ("bcglring");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_context);
  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_refcount);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_fences);
  tcase_add_test (tc, test_timer_query);
  tcase_add_test (tc, test_timer_ring);
  tcase_add_test (tc, test_upload_caps);
  tcase_add_test (tc, test_upload_caps_bc6h);
  tcase_add_test (tc, test_too_large);
  /* a GL context for each test, in the test's process */
  tcase_add_checked_fixture (tc, setup, teardown);
  return s;
}

int
main (int argc, char **argv)
{
  gl_test_init (argc, argv);
  if (!gl_test_check_init (&argc, &argv, NULL))
    return 77;
  return gst_check_run_suite (bcglring_suite (), "bcglring", __FILE__);
}
