#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on) and runs them.
#
#   tests/fuzz/run.sh WORKDIR              the gate: a fixed seed and a fixed
#                                          number of runs from the committed
#                                          corpus, the same result every time
#   tests/fuzz/run.sh WORKDIR long [SECS]  a randomised run (random seed) of
#                                          SECS seconds (default 600) that
#                                          keeps its corpus in WORKDIR
#
# libFuzzer's findings exit with 1 (its default, 77, is meson's "skipped").
# Exits 77 (skipped) when clang or its fuzzer runtime is missing, except
# under CI (CI set), where that is a failure: ./dev.sh installs them.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
work=${1:?usage: run.sh WORKDIR [long [SECONDS]]}
mode=${2:-gate}
seconds=${3:-600}
cc=${FUZZ_CC:-clang}
# the gate: about 15 s here
gate_seed=1
gate_runs=${FUZZ_GATE_RUNS:-5000000}

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
if ! "$cc" $flags -DBUILDING_GST_BC -DBUILDING_GST_TILE \
    -I"$src/gst-libs" -I"$src/gst-libs/gst/bc" \
    "$here/tilewire-fuzz.c" "$src/gst-libs/gst/tile/tilewire.c" \
    "$src/gst-libs/gst/bc/bctiling.c" "$src/gst-libs/gst/bc/bcformat.c" \
    $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0) -ldl \
    -o "$work/tilewire-fuzz" 2> "$work/build.log"; then
  if grep -q "libclang_rt.fuzzer\|fsanitize=fuzzer" "$work/build.log"; then
    cat "$work/build.log" >&2
    skip "clang has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
  fi
  cat "$work/build.log" >&2
  exit 1
fi

export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS=suppressions="$src/tests/lsan.supp":print_suppressions=0
corpus="$here/corpus/tilewire"
case "$mode" in
  gate)
    # New inputs go to a fresh directory, never into the committed corpus,
    # so every run starts from the same inputs.
    rm -rf "$work/gate-tilewire"
    mkdir -p "$work/gate-tilewire"
    echo "fuzz: tilewire-fuzz, seed $gate_seed, $gate_runs runs from $corpus"
    # Without address space randomisation: the comparisons libFuzzer
    # learns from can hold pointers, and random addresses would steer the
    # mutations differently on every run.
    norandom=()
    if setarch "$(uname -m)" -R true 2>/dev/null; then
      norandom=(setarch "$(uname -m)" -R)
    fi
    "${norandom[@]}" "$work/tilewire-fuzz" -seed="$gate_seed" \
      -runs="$gate_runs" -reload=0 -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 \
      -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/gate-tilewire" "$corpus"
    ;;
  long)
    mkdir -p "$work/corpus-tilewire"
    echo "fuzz: tilewire-fuzz, random seed, ${seconds}s; new inputs in" \
      "$work/corpus-tilewire (merge the interesting ones into $corpus with" \
      "-merge=1)"
    "$work/tilewire-fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -error_exitcode=1 -timeout_exitcode=1 \
      -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/corpus-tilewire" "$corpus"
    ;;
  *)
    echo "usage: run.sh WORKDIR [long [SECONDS]]" >&2
    exit 2
    ;;
esac
