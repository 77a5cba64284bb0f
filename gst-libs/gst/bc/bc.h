/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_BC_H__
#define __GST_BC_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bctiling.h>
#include <gst/bc/bcencode.h>
#include <gst/bc/bcdecode.h>
#include <gst/bc/bcworkers.h>
#include <gst/bc/bctilemeta.h>
#include <gst/bc/bclossmeta.h>

G_BEGIN_DECLS

GST_BC_API
void gst_bc_init (void);

G_END_DECLS

#endif /* __GST_BC_H__ */
