/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_GL_BC_ELEMENTS_H__
#define __GST_GL_BC_ELEMENTS_H__

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

G_BEGIN_DECLS

GST_ELEMENT_REGISTER_DECLARE (glbcupload);

G_END_DECLS

#endif /* __GST_GL_BC_ELEMENTS_H__ */
