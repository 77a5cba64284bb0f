#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Writes the seeds of the hap fuzz target (tests/fuzz/corpus/hap): Hap
# frames from hapenc, each behind the two bytes hap-fuzz.c reads the stream
# from (format index modulo 5, then the size byte: width 1 + (b & 63)).
#
#   GST_PLUGIN_PATH=build/gst tests/fuzz/hap_seeds.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/hap
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# format index in hap-fuzz.c: 0 BC1, 1 BC3, 2 YCoCg-BC3, 3 BC4, 4 BC7
# height: 1 + ((b1 >> 6) * 10 + (b0 >> 3)) % 32; width: 1 + (b1 & 63)
seed () {  # NAME ENCODER INDEX W H OPTIONS
  local name=$1 enc=$2 idx=$3 w=$4 h=$5 opts=$6 b0 b1
  # b1 = w - 1 (so b1 >> 6 = 0); b0 = 8 (h - 1) + r, r < 5, b0 % 5 = idx
  b1=$((w - 1))
  b0=$((8 * (h - 1)))
  b0=$((b0 + ((idx - b0 % 5 + 5) % 5)))
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte \
    ! "video/x-raw,width=$w,height=$h" ! $enc ! hapenc $opts \
    ! filesink location="$tmp/frame"
  { printf "\\x$(printf %02x "$b0")\\x$(printf %02x "$b1")"; cat "$tmp/frame"; } > "$out/$name"
}
seed bc1-snappy bc1enc 0 16 8 ""
seed bc1-stored bc1enc 0 8 4 "compressor=none"
seed bc1-chunks bc1enc 0 32 16 "chunks=3"
seed bc3-chunks "bc3enc ycocg=false" 1 16 12 "chunks=2 compressor=none"
seed ycocg-snappy bc3enc 2 24 8 ""
seed bc4-chunks bc4enc 3 16 16 "chunks=4"
seed bc7-snappy bc7enc 4 12 4 ""
ls -l "$out"
