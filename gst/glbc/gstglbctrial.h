/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload on trial in an autoplugger (gstglbctrial.c). Not installed. */

#ifndef __GST_GL_BC_TRIAL_H__
#define __GST_GL_BC_TRIAL_H__

#include <gst/gl/gl.h>

G_BEGIN_DECLS

/* The element's object lock guards it */
typedef struct
{
  gboolean hold_errors;         /* a context search on trial is running */
  GstMessage *held_error;       /* the first error it posted */
  gboolean no_display_posted;   /* "No OpenGL display" was posted */
} GstGLBcTrial;

/* gstglbctrial.c */
G_GNUC_INTERNAL
gboolean gst_gl_bc_trial_accepts (GstGLBaseFilter * filter, GstGLBcTrial * t,
    GstCaps * caps);
G_GNUC_INTERNAL
gboolean gst_gl_bc_trial_hold (GstElement * element, GstGLBcTrial * t,
    GstMessage * message);
G_GNUC_INTERNAL
void     gst_gl_bc_trial_reset (GstElement * element, GstGLBcTrial * t);
G_GNUC_INTERNAL
void     gst_gl_bc_trial_clear (GstGLBcTrial * t);

G_END_DECLS

#endif /* __GST_GL_BC_TRIAL_H__ */
