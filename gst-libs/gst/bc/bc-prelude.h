/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_BC_PRELUDE_H__
#define __GST_BC_PRELUDE_H__

#include <gst/gst.h>

#ifdef BUILDING_GST_BC
#define GST_BC_API GST_API_EXPORT
#else
#define GST_BC_API GST_API_IMPORT
#endif

#endif /* __GST_BC_PRELUDE_H__ */
