#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on) and runs each for a bounded time.
#
#   tests/fuzz/run.sh WORKDIR [SECONDS]
#
# Exits 77 (skipped) when clang or its fuzzer runtime is missing, except
# under CI (CI set), where that is a failure: ./dev.sh installs them.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
work=${1:?usage: run.sh WORKDIR [SECONDS]}
seconds=${2:-30}
cc=${FUZZ_CC:-clang}

skip () {
  if [ -n "${CI:-}" ]; then
    echo "fuzz: $1; failing instead of skipping under CI" >&2
    exit 1
  fi
  echo "fuzz: SKIP: $1" >&2
  exit 77
}

command -v "$cc" >/dev/null 2>&1 || skip "$cc not found (apt-get install clang libclang-rt-14-dev)"
mkdir -p "$work"

flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2046
if ! "$cc" $flags -DBUILDING_GST_BC -DG_LOG_DOMAIN='"GStreamer-BC"' \
    -I"$src/gst-libs" -I"$src/gst-libs/gst/bc" \
    "$here/bcwire-fuzz.c" "$src/gst-libs/gst/bc/bcwire.c" \
    "$src/gst-libs/gst/bc/bctiling.c" "$src/gst-libs/gst/bc/bcformat.c" \
    $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0) \
    -o "$work/bcwire-fuzz" 2> "$work/build.log"; then
  if grep -q "libclang_rt.fuzzer\|fsanitize=fuzzer" "$work/build.log"; then
    cat "$work/build.log" >&2
    skip "clang has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
  fi
  cat "$work/build.log" >&2
  exit 1
fi

mkdir -p "$work/corpus-bcwire"
echo "fuzz: running bcwire-fuzz for ${seconds}s"
ASAN_OPTIONS=detect_leaks=1 \
LSAN_OPTIONS=suppressions="$src/tests/lsan.supp":print_suppressions=0 \
  "$work/bcwire-fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -print_final_stats=1 "$work/corpus-bcwire"
