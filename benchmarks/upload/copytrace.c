/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* copytrace: an LD_PRELOAD library for the upload benchmark that counts,
 * exactly, the bytes the process copies with memcpy/memmove in user space,
 * by call stack. A sampling profile (perf) shows few samples of a copy that
 * takes well under a millisecond per frame; this counts every call.
 *
 *   BC_COPYTRACE_OUT=FILE BC_COPYTRACE_MIN=1024 \
 *       LD_PRELOAD=.../libbc-copytrace.so bc-upload-bench ...
 *
 * Every memcpy/memmove of at least BC_COPYTRACE_MIN bytes (default 1024:
 * smaller copies are caps, structures and strings, not frame data) is
 * counted under its call stack (the first 6 return addresses, taken with
 * backtrace()). At exit one line per stack is written to FILE:
 *
 *   calls bytes dso!symbol <- dso!symbol <- ...
 *
 * with the tracer's own frames left out. Symbols come from dladdr() when a
 * stack is first seen (the GL driver may be unloaded by exit), so static
 * functions show as "dso!+offset". Only calls that go through the
 * PLT are seen: copies glibc makes internally, and copies the compiler
 * inlines, are not (frame-sized copies are never inlined: their size is not
 * a constant). Lock-free: a fixed open-addressing table of stacks. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 6
#define SLOTS 4096

typedef void *(*CopyFunc) (void *, const void *, size_t);

typedef struct
{
  _Atomic uint64_t key;         /* hash of the stack, 0 = free */
  char names[DEPTH][112];       /* dso!symbol, resolved when first seen */
  _Atomic int ready;
  _Atomic uint64_t calls;
  _Atomic uint64_t bytes;
} Slot;

static Slot slots[SLOTS];
static _Atomic uint64_t lost;
static CopyFunc real_memcpy, real_memmove;
static size_t min_bytes = 1024;
static __thread int in_tracer;

/* used before dlsym() has found the real functions (dlsym may copy) */
static void *
slow_copy (void *dst, const void *src, size_t n)
{
  volatile unsigned char *d = dst;
  const volatile unsigned char *s = src;

  if (d < s) {
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  } else {
    while (n-- > 0)
      d[n] = s[n];
  }
  return dst;
}

static void copytrace_init (void) __attribute__((constructor));
static void copytrace_write (void) __attribute__((destructor));

static void
copytrace_init (void)
{
  const char *m = getenv ("BC_COPYTRACE_MIN");

  in_tracer = 1;
  real_memcpy = (CopyFunc) dlsym (RTLD_NEXT, "memcpy");
  real_memmove = (CopyFunc) dlsym (RTLD_NEXT, "memmove");
  if (m != NULL)
    min_bytes = strtoul (m, NULL, 10);
  in_tracer = 0;
}

static void
name_frame (char *buf, size_t size, void *addr)
{
  Dl_info info;
  const char *dso;

  if (addr == NULL || !dladdr (addr, &info) || info.dli_fname == NULL) {
    snprintf (buf, size, "?!%p", addr);
    return;
  }
  dso = strrchr (info.dli_fname, '/');
  dso = dso != NULL ? dso + 1 : info.dli_fname;
  if (info.dli_sname != NULL)
    snprintf (buf, size, "%s!%s", dso, info.dli_sname);
  else
    snprintf (buf, size, "%s!+%#lx", dso,
        (unsigned long) ((uintptr_t) addr - (uintptr_t) info.dli_fbase));
}

static void
record (size_t n)
{
  void *frames[DEPTH + 2];
  int got, i;
  uint64_t h = 1469598103934665603ull;

  in_tracer = 1;
  /* frames[0] is record(), frames[1] our memcpy/memmove */
  got = backtrace (frames, DEPTH + 2);
  for (i = 2; i < got; i++)
    h = (h ^ (uint64_t) (uintptr_t) frames[i]) * 1099511628211ull;
  h |= 1;
  for (i = 0; i < SLOTS; i++) {
    Slot *s = &slots[(h + i) % SLOTS];
    uint64_t k = atomic_load (&s->key);

    if (k == 0) {
      uint64_t zero = 0;

      if (atomic_compare_exchange_strong (&s->key, &zero, h)) {
        for (int j = 0; j < DEPTH; j++) {
          if (j + 2 < got)
            name_frame (s->names[j], sizeof (s->names[j]), frames[j + 2]);
          else
            s->names[j][0] = '\0';
        }
        atomic_store (&s->ready, 1);
        k = h;
      } else {
        k = zero;
      }
    }
    if (k == h) {
      atomic_fetch_add (&s->calls, 1);
      atomic_fetch_add (&s->bytes, n);
      in_tracer = 0;
      return;
    }
  }
  atomic_fetch_add (&lost, 1);
  in_tracer = 0;
}

#define EXPORT __attribute__((visibility ("default")))

/* inlined, so that record()'s backtrace sees memcpy/memmove as its caller */
static inline void *traced_copy (CopyFunc real, void *dst, const void *src,
    size_t n) __attribute__((always_inline));

static inline void *
traced_copy (CopyFunc real, void *dst, const void *src, size_t n)
{
  if (real == NULL)
    return slow_copy (dst, src, n);
  if (n >= min_bytes && !in_tracer)
    record (n);
  return real (dst, src, n);
}

EXPORT void *
memcpy (void *dst, const void *src, size_t n)
{
  return traced_copy (real_memcpy, dst, src, n);
}

EXPORT void *
memmove (void *dst, const void *src, size_t n)
{
  return traced_copy (real_memmove, dst, src, n);
}

static void
copytrace_write (void)
{
  const char *path = getenv ("BC_COPYTRACE_OUT");
  FILE *f;

  if (path == NULL)
    return;
  in_tracer = 1;
  f = fopen (path, "w");
  if (f == NULL)
    return;
  for (int i = 0; i < SLOTS; i++) {
    Slot *s = &slots[i];

    if (atomic_load (&s->key) == 0 || !atomic_load (&s->ready))
      continue;
    fprintf (f, "%llu %llu ", (unsigned long long) atomic_load (&s->calls),
        (unsigned long long) atomic_load (&s->bytes));
    for (int j = 0; j < DEPTH && s->names[j][0] != '\0'; j++)
      fprintf (f, "%s%s", j > 0 ? " <- " : "", s->names[j]);
    fputc ('\n', f);
  }
  if (atomic_load (&lost) > 0)
    fprintf (f, "# %llu calls not recorded (table full)\n",
        (unsigned long long) atomic_load (&lost));
  fclose (f);
}
