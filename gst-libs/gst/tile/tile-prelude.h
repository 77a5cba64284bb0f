/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_PRELUDE_H__
#define __GST_TILE_PRELUDE_H__

#include <gst/gst.h>

#ifdef BUILDING_GST_TILE
#define GST_TILE_API GST_API_EXPORT
#else
#define GST_TILE_API GST_API_IMPORT
#endif

#endif /* __GST_TILE_PRELUDE_H__ */
