/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_H__
#define __GST_BC_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bctiling.h>
#include <gst/bc/bcencode.h>
#include <gst/bc/bcyuv.h>
#include <gst/bc/bcdecode.h>
#include <gst/bc/bchdr.h>
#include <gst/bc/bcworkers.h>
#include <gst/bc/bctilemeta.h>
#include <gst/bc/bclossmeta.h>

G_BEGIN_DECLS

GST_BC_API
void gst_bc_init (void);

G_END_DECLS

#endif /* __GST_BC_H__ */
