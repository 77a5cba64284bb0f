#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cost of the sealed session: tilesink/tilesrc with a passphrase as
they are now (CPace, every control message a sealed record, UNIT_HELLO
MACs, data keys per generation and epoch, address validation) against the
same elements as they were before (BASELINE: PBKDF2 proofs, control
messages in the clear), both with the same driver (bc-transport-bench)
in the same invocation, runs alternated A B A B so that a drift of the
machine's speed hits both. 2160p BC1, 4 units: TCP, and UDP packet-size
1408 and 8972 with GSO/GRO, throughput (frames as fast as the window
allows) and, for TCP, the delivery latency at 30 frames/s.

    sealed.py --driver BUILD/benchmarks/transport/bc-transport-bench \\
        --plugins BUILD/gst --baseline-plugins BASE/build/gst \\
        --baseline-commit 380d08c [--rounds 5] [--seconds 3]

Writes benchmarks/transport/results-sealed.json and the section between
<!-- transport-sealed:begin --> and <!-- transport-sealed:end --> of
docs/performance.md. Run by run.sh --sealed, which builds the baseline.
Nothing here asserts a speed: it reports medians and ratios.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PASSPHRASE = "bench-passphrase-0123456789"
BUFFER = 16 << 20
CONFIGS = [
    # name, extra driver arguments
    ("tcp", ["-T", "tile", "-u", "4", "-c", "1048576", "--flush",
             "stepped"]),
    ("udp-1408", ["-T", "tile", "-u", "4", "--protocol", "udp",
                  "--packet-size", "1408", "--gso", "auto"]),
    ("udp-8972", ["-T", "tile", "-u", "4", "--protocol", "udp",
                  "--packet-size", "8972", "--gso", "auto"]),
]


def run(args, plugins: Path, registry: str, extra: list, latency: bool):
    cmd = [str(args.driver), "-f", "BC1", "-W", "3840", "-H", "2160",
           "-w", "4", "-t", "8", "--send-buffer-size", str(BUFFER),
           "--receive-buffer-size", str(BUFFER), "--passphrase",
           PASSPHRASE] + extra
    if latency:
        cmd += ["--rate", "30", "-n", str(args.latency_frames)]
    else:
        cmd += ["--seconds", str(args.seconds), "-n", "100000"]
    env = dict(os.environ)
    env["GST_PLUGIN_PATH"] = str(plugins)
    # (a registry of its own per side, next to its plugins)
    env["GST_REGISTRY"] = str(plugins.parent / registry)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=120)
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            r["exit"] = p.returncode
            inband = (r.get("latency_ms") or {}).get("inband") or {}
            r["p50_ms"] = inband.get("p50")
            r.pop("samples_ms", None)
            return r
    return {"error": (p.stderr.strip() or f"exit {p.returncode}")[-400:]}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--driver", type=Path, required=True)
    ap.add_argument("--plugins", type=Path, required=True)
    ap.add_argument("--baseline-plugins", type=Path, required=True)
    ap.add_argument("--baseline-commit", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--latency-frames", type=int, default=90)
    ap.add_argument("--no-docs", action="store_true")
    args = ap.parse_args()

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short",
                           "HEAD"], capture_output=True, text=True
                          ).stdout.strip()
    sides = (("now", args.plugins, "sealed-now.registry"),
             ("before", args.baseline_plugins, "sealed-before.registry"))
    results = {"date": datetime.datetime.now(datetime.timezone.utc)
               .strftime("%Y-%m-%d %H:%M UTC"),
               "commit": head, "baseline": args.baseline_commit,
               "machine": cpu_model(),
               "cores": os.cpu_count(), "rounds": args.rounds,
               "seconds": args.seconds, "runs": []}
    for rnd in range(args.rounds):
        for name, extra in CONFIGS:
            for latency in ((False, True) if name == "tcp" else (False,)):
                # alternate which side goes first from round to round
                order = sides if rnd % 2 == 0 else sides[::-1]
                for side, plugins, registry in order:
                    r = run(args, plugins, registry, extra, latency)
                    r.update({"side": side, "config": name, "round": rnd,
                              "kind": "latency" if latency else
                              "throughput"})
                    results["runs"].append(r)
                    print(f"{rnd} {name:9} {r['kind']:10} {side:6} "
                          f"{r.get('gbit_s', 0) or 0:6.2f} Gbit/s "
                          f"p50 {r.get('p50_ms')} "
                          f"sealed {r.get('sealed')} "
                          f"{r.get('error', '')}", file=sys.stderr)

    # the medians and the ratio now / before, pair by pair
    table = []
    for name, _ in CONFIGS:
        for kind in (("throughput", "latency") if name == "tcp" else
                     ("throughput",)):
            rows = {s: [r for r in results["runs"] if r["config"] == name
                        and r["kind"] == kind and r["side"] == s]
                    for s in ("now", "before")}
            key = "gbit_s" if kind == "throughput" else "p50_ms"
            ratios = []
            for a, b in zip(sorted(rows["now"], key=lambda r: r["round"]),
                            sorted(rows["before"], key=lambda r: r["round"])):
                if a.get(key) and b.get(key):
                    ratios.append(a[key] / b[key])
            table.append({
                "config": name, "kind": kind, "measure": key,
                "now": med(r.get(key) for r in rows["now"]),
                "before": med(r.get(key) for r in rows["before"]),
                "ratio_median": med(ratios),
                "ratio_min": min(ratios) if ratios else None,
                "ratio_max": max(ratios) if ratios else None,
                "sealed_now": all(r.get("sealed") for r in rows["now"]),
                "errors": sum(1 for s in rows.values() for r in s
                              if r.get("error"))})
    results["table"] = table
    (HERE / "results-sealed.json").write_text(json.dumps(results, indent=1)
                                              + "\n")
    lines = [
        f"Run of {results['date']} at {head} against {args.baseline_commit} "
        f"(a build without the sealed session), {results['machine']}, "
        f"{results['cores']} cores, {args.rounds} rounds alternated, "
        f"throughput runs of {args.seconds:g} s, latency runs of "
        f"{args.latency_frames} frames at 30/s; 2160p BC1, 4 units, "
        "passphrase at both ends (`benchmarks/transport/run.sh --sealed`):",
        "",
        "| transport | measure | now (median) | before (median) | now / before, "
        "median (min-max of the pairs) |",
        "|---|---|---|---|---|"]
    for t in table:
        unit = "Gbit/s" if t["kind"] == "throughput" else "ms p50"
        fmt = (lambda v: "-" if v is None else f"{v:.2f}")
        rmed = "-" if t["ratio_median"] is None else (
            f"{t['ratio_median']:.3f} ({t['ratio_min']:.3f}-"
            f"{t['ratio_max']:.3f})")
        lines.append(f"| {t['config']} | {unit} | {fmt(t['now'])} | "
                     f"{fmt(t['before'])} | {rmed} |")
    section = "\n".join(lines) + "\n"
    print(section)
    if args.no_docs:
        return
    doc = ROOT / "docs" / "performance.md"
    text = doc.read_text()
    begin, end = ("<!-- transport-sealed:begin -->",
                  "<!-- transport-sealed:end -->")
    if begin in text and end in text:
        a = text.index(begin) + len(begin)
        b = text.index(end)
        text = text[:a] + "\n" + section + text[b:]
        doc.write_text(text)
    else:
        print("sealed.py: no transport-sealed markers in docs/performance.md",
              file=sys.stderr)


if __name__ == "__main__":
    main()
