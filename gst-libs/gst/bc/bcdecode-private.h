/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Internal to libgstbc: the BC6H block decoder (bcdecode-bc6h.c) and the
 * HDR tables (bchdr.c) that bcdecode.c puts together. */

#ifndef __GST_BC_DECODE_PRIVATE_H__
#define __GST_BC_DECODE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* bcdecode-bc6h.c */
G_GNUC_INTERNAL void bc_decode_bc6h_half (const guint8 * block,
    gboolean is_signed, guint16 rgba[64]);

/* bchdr.c: the PQ code of every half float's bits (65536 entries) */
G_GNUC_INTERNAL const guint16 *bc_hdr_get_pq_table (void);

G_END_DECLS

#endif /* __GST_BC_DECODE_PRIVATE_H__ */
