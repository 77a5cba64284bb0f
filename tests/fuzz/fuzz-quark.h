/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Included once by each libFuzzer target, which defines FUZZ_TARGET (its
 * name, for the report) first and sets fuzz_in_input while it runs an
 * input.
 *
 * No input may make a new quark: GLib never frees quarks, so code that
 * interns names a peer sends lets the peer grow the receiver without bound.
 * GStreamer calls these through the PLT, so the definitions below see every
 * call it makes; each checks the name and then calls GLib's own. */

#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET before including fuzz-quark.h"
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static gboolean fuzz_in_input;

static void
fuzz_check_new_quark (const gchar * name, const gchar * func)
{
  if (fuzz_in_input && name != NULL && g_quark_try_string (name) == 0) {
    fprintf (stderr, FUZZ_TARGET ": the input made a new quark: %s (\"%s\")\n",
        func, name);
    abort ();
  }
}

#define FUZZ_INTERPOSE(ret, func) \
ret func (const gchar * name); \
ret \
func (const gchar * name) \
{ \
  static ret (*real) (const gchar *); \
  if (real == NULL) \
    real = (ret (*)(const gchar *)) dlsym (RTLD_NEXT, #func); \
  fuzz_check_new_quark (name, #func); \
  return real (name); \
}

FUZZ_INTERPOSE (GQuark, g_quark_from_string);
FUZZ_INTERPOSE (GQuark, g_quark_from_static_string);
FUZZ_INTERPOSE (const gchar *, g_intern_string);
FUZZ_INTERPOSE (const gchar *, g_intern_static_string);
