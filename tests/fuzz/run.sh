#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on) and runs them.
#
#   tests/fuzz/run.sh [-t TARGET] WORKDIR              the gate
#   tests/fuzz/run.sh [-t TARGET] WORKDIR long [SECS]  a randomised run
#
# TARGET is tilewire (the default: the wire parsers, tilewire-fuzz.c),
# tilereceiver (the receiver's state machine against a sender played over
# 127.0.0.1, tilereceiver-fuzz.c) or hap (the Hap frame reader and writer,
# hap-fuzz.c; seeds from hap_seeds.sh). Each keeps its committed corpus in
# tests/fuzz/corpus/TARGET.
#
# The gate gives the same result every time. tilewire and hap: a fixed seed
# and a fixed number of runs from the corpus. tilereceiver runs threads against
# sockets, so its coverage differs from run to run and mutating would not
# be repeatable: its gate runs every input of the corpus once, without
# mutations (the files are named on the command line, -runs=1).
# A long run has a random seed, lasts SECS seconds (default 600), and keeps
# the inputs it finds in WORKDIR/corpus-TARGET (merge the interesting ones
# into the committed corpus with -merge=1; for tilereceiver also with
# -use_counters=0, as its hit counts vary from run to run, and keep the
# corpus at about 100 files: see receiver_seeds.py).
#
# libFuzzer's findings exit with 1 (its default, 77, is meson's "skipped").
# Exits 77 (skipped) when clang or its fuzzer runtime is missing, except
# under CI (CI set), where that is a failure: ./dev.sh installs them.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
usage="usage: run.sh [-t tilewire|tilereceiver|hap] WORKDIR [long [SECONDS]]"
target=tilewire
if [ "${1:-}" = "-t" ]; then
  target=${2:?$usage}
  shift 2
fi
work=${1:?$usage}
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
tile=$src/gst-libs/gst/tile
bc=$src/gst-libs/gst/bc
case "$target" in
  tilewire)
    build () {
      # shellcheck disable=SC2046
      "$cc" $flags -DBUILDING_GST_BC -DBUILDING_GST_TILE \
        -I"$src/gst-libs" -I"$src/gst-libs/gst/bc" \
        "$here/tilewire-fuzz.c" "$tile/tilewire.c" "$tile/tileregion.c" \
        "$tile/tilekeys.c" "$tile/tileseal.c" "$bc/bctiling.c" "$bc/bcformat.c" \
        $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0 \
          libcrypto) -ldl \
        -o "$work/tilewire-fuzz"
    }
    ;;
  tilereceiver)
    # the receiver and what it uses of libgsttile and libgstbc, compiled
    # in (no config.h: the sources need none of its defines; -I"$tile":
    # the harness reads tilereceiver-private.h)
    build () {
      # shellcheck disable=SC2046
      "$cc" $flags -DBUILDING_GST_BC -DBUILDING_GST_TILE \
        -I"$src/gst-libs" -I"$bc" -I"$tile" \
        "$here/tilereceiver-fuzz.c" \
        "$tile/tilereceiver.c" "$tile/tilereceiver-control.c" "$tile/tilereceiver-clock.c" \
        "$tile/tilereceiver-slots.c" "$tile/tilereceiver-tcp.c" \
        "$tile/tilereceiver-udp.c" "$tile/tilereceiver-nack.c" "$tile/tilereceiver-fec.c" \
        "$tile/tilereceiver-paths.c" "$tile/tilepaths.c" \
        "$tile/tilefec.c" "$tile/tilewire.c" "$tile/tileregion.c" \
        "$tile/tilenet.c" \
        "$tile/tilenet-tcpinfo.c" "$tile/tilestats.c" "$tile/tileseal.c" \
        "$tile/tilekeys.c" "$tile/tilepake.c" "$tile/tileplayout.c" \
        "$bc/bctiling.c" "$bc/bcformat.c" "$bc/bctilemeta.c" \
        "$bc/bclossmeta.c" \
        $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0 \
          gio-2.0 libcrypto libsodium libisal) -lpthread -ldl \
        -o "$work/tilereceiver-fuzz"
    }
    ;;
  hap)
    build () {
      "$cc" $flags -DBUILDING_GST_BC -I"$src/gst-libs" -I"$bc" \
        "$here/hap-fuzz.c" "$bc/bchap.c" "$bc/bcformat.c" "$bc/bcworkers.c" \
        $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0 \
          snappy) -ldl \
        -o "$work/hap-fuzz"
    }
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
log=$work/build.log
[ "$target" = tilewire ] || log=$work/build-$target.log
if ! build 2> "$log"; then
  if grep -q "libclang_rt.fuzzer\|fsanitize=fuzzer" "$log"; then
    cat "$log" >&2
    skip "clang has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
  fi
  cat "$log" >&2
  exit 1
fi

export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS=suppressions="$src/tests/lsan.supp":print_suppressions=0
corpus="$here/corpus/$target"
case "$target:$mode" in
  tilereceiver:gate)
    # every input once, in a fresh process (the files are named, so that
    # libFuzzer runs each of them; it writes nothing), with the leak check
    n=$(find "$corpus" -type f | wc -l)
    echo "fuzz: tilereceiver-fuzz, the $n inputs of $corpus, once each"
    find "$corpus" -type f -print0 | sort -z | xargs -0 \
      "$work/tilereceiver-fuzz" -runs=1 -timeout=10 -rss_limit_mb=2048 \
        -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$work/"
    ;;
  tilereceiver:long)
    mkdir -p "$work/corpus-tilereceiver"
    echo "fuzz: tilereceiver-fuzz, random seed, ${seconds}s; new inputs in" \
      "$work/corpus-tilereceiver (merge the interesting ones into $corpus" \
      "with -merge=1)"
    # each input takes up to a second (sockets, threads, timers); inputs
    # of any length up to 512 bytes (96 operations) from the start
    "$work/tilereceiver-fuzz" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=512 -len_control=0 \
      -error_exitcode=1 -timeout_exitcode=1 \
      -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/corpus-tilereceiver" "$corpus"
    ;;
  tilewire:gate|hap:gate)
    # New inputs go to a fresh directory, never into the committed corpus,
    # so every run starts from the same inputs.
    rm -rf "$work/gate-$target"
    mkdir -p "$work/gate-$target"
    # each Hap input decodes a frame: fewer runs
    if [ "$target" = hap ]; then gate_runs=${FUZZ_GATE_RUNS:-2000000}; fi
    echo "fuzz: $target-fuzz, seed $gate_seed, $gate_runs runs from $corpus"
    # Without address space randomisation: the comparisons libFuzzer
    # learns from can hold pointers, and random addresses would steer the
    # mutations differently on every run.
    norandom=()
    if setarch "$(uname -m)" -R true 2>/dev/null; then
      norandom=(setarch "$(uname -m)" -R)
    fi
    "${norandom[@]}" "$work/$target-fuzz" -seed="$gate_seed" \
      -runs="$gate_runs" -reload=0 -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 \
      -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/gate-$target" "$corpus"
    ;;
  tilewire:long|hap:long)
    mkdir -p "$work/corpus-$target"
    echo "fuzz: $target-fuzz, random seed, ${seconds}s; new inputs in" \
      "$work/corpus-$target (merge the interesting ones into $corpus with" \
      "-merge=1)"
    "$work/$target-fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -error_exitcode=1 -timeout_exitcode=1 \
      -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/corpus-$target" "$corpus"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
