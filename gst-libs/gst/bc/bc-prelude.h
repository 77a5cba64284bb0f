/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
