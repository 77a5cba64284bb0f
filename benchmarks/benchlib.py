# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the benchmarks (benchmarks/*/run.py) share: logging, the machine
they ran on and the CPU time the rest of it took, their output options,
results.json, means, figures and their sections of docs/performance.md.

Standard library only (load_rgba () imports numpy when called):
benchmarks/upload/run.py runs with the system's Python, without the venv.
A run.py finds this module with

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import benchlib
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent
DOC = SRC / "docs" / "performance.md"

INTRO = """# Performance

Measurements of gst-bc on the project's reference machine. Each section is
written by a benchmark script in `benchmarks/` and says the machine, date and
method it was measured with; rerun the script to refresh it. Speeds depend on
the machine and on other load; the ratios to other implementations measured
in the same run are the numbers to compare across machines.

"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def command_output(cmd) -> str:
    """What @cmd prints on stdout, stripped; "" when it cannot run or takes
    over 10 s."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what Python knows."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_info(**extra) -> dict:
    """The machine of a run for results.json: CPU, cores, kernel and
    GStreamer's version, then the @extra items."""
    gst = command_output(["gst-inspect-1.0", "--version"]).splitlines()
    return {"cpu": cpu_model(), "cpu_count": os.cpu_count(),
            "kernel": platform.release(),
            "gstreamer": gst[1].split()[-1] if len(gst) > 1 else "?",
            **extra}


# --------------------------------------------------------------------------
# CPU time of the rest of the machine

HZ = os.sysconf("SC_CLK_TCK")


def steal_seconds() -> float:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[7] if len(v) > 7 else 0) / HZ


def process_cpu() -> dict:
    """pid -> (ppid, CPU seconds) of every user-space process."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
            ppid = int(rest[1])
            if ppid == 2 or d == "2":
                continue  # kernel threads (softirq work of ours among them)
            out[int(d)] = (ppid, (int(rest[11]) + int(rest[12])) / HZ)
        except (OSError, IndexError, ValueError):
            continue
    return out


class OtherCpu:
    """CPU cores used by user-space processes other than this one, its
    children and @pids while the block runs (cores), the hypervisor's steal
    time (steal_cores) and the block's wall time (wall, seconds)."""

    def __init__(self, pids=()):
        self.pids = set(pids)

    def __enter__(self):
        self.t = time.monotonic()
        self.before = process_cpu()
        self.steal = steal_seconds()
        return self

    def __exit__(self, *exc):
        self.wall = time.monotonic() - self.t
        me = os.getpid()
        other = 0.0
        for pid, (ppid, cpu) in process_cpu().items():
            if pid == me or ppid == me or pid in self.pids:
                continue
            other += cpu - self.before.get(pid, (0, 0.0))[1]
        w = self.wall or 1.0
        self.cores = max(0.0, other) / w
        self.steal_cores = max(0.0, steal_seconds() - self.steal) / w
        return False


def quiet_check(seconds: float = 1.0) -> float:
    """The cores other processes use over @seconds."""
    with OtherCpu() as o:
        time.sleep(seconds)
    return o.cores


def wait_for_quiet(quick: bool) -> float:
    """Waits up to 30 s (10 s when @quick) while other processes use more
    than 0.3 cores; returns the cores they used last."""
    quiet = quiet_check(1.0)
    if quiet > 0.3:
        log(f"other processes use {quiet:.2f} cores; waiting up to "
            f"{10 if quick else 30} s for a quieter machine")
        end = time.monotonic() + (10 if quick else 30)
        while quiet > 0.3 and time.monotonic() < end:
            quiet = quiet_check(2.0)
        log(f"other processes: {quiet:.2f} cores; going on")
    return quiet


# --------------------------------------------------------------------------
# options and outputs


def add_output_options(ap, quick_help: str, command: str) -> None:
    """--quick (@quick_help), --out, --plots-dir, --doc, --no-doc,
    --report-only and --command (default @command) for argparse's @ap."""
    ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--plots-dir", type=Path)
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--no-doc", action="store_true")
    ap.add_argument("--report-only", action="store_true",
                    help="measure nothing: redo figures and the doc section "
                    "from --out")
    ap.add_argument("--command", default=command)


def resolve_outputs(args, here: Path) -> bool:
    """Fills in what add_output_options () left unset: --out is
    @here/results.json (results-quick.json with --quick), --plots-dir
    docs/perf (@here/quick). Returns whether the doc section is to be
    written (neither --no-doc nor --quick)."""
    if args.out is None:
        args.out = here / ("results-quick.json" if args.quick
                           else "results.json")
    if args.plots_dir is None:
        args.plots_dir = (here / "quick") if args.quick else \
            SRC / "docs" / "perf"
    return not (args.no_doc or args.quick)


def results_header(args, machine: dict, git: str, sysctl: str) -> dict:
    """The first items of a results.json: date, command, quick, machine,
    git and sysctl."""
    return {"date": utc_date(), "command": args.command, "quick": args.quick,
            "machine": machine, "git": git, "sysctl": sysctl}


def utc_date() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")


def mean(values) -> float | None:
    """The mean of the values that are not None; None when there are none."""
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def load_rgba(path: Path, width: int, height: int):
    """A raw RGBA frame (benchmarks/photos.py writes them) as a numpy array
    (height, width, 4)."""
    import numpy as np

    return np.fromfile(path, dtype=np.uint8).reshape(height, width, 4)


def write_json(path: Path, data) -> None:
    Path(path).write_text(json.dumps(data, indent=1) + "\n")


def write_figures(plots, results: dict, outdir: Path, doc: Path) -> list:
    """Draws the figures with @plots (results, outdir) -> [Path] and returns
    their paths relative to @doc's folder (as they are when outside it);
    none, said in the log, when matplotlib is missing."""
    figs = []
    try:
        written = plots(results, outdir)
        doc_dir = doc.parent.resolve()
        for p in written:
            try:
                figs.append(str(p.resolve().relative_to(doc_dir)))
            except ValueError:
                figs.append(str(p))
            log(f"wrote {p}")
    except ImportError as e:
        log(f"no figures: {e}")
    return figs


def publish_section(section: str, begin: str, end: str, doc: Path,
                    write_doc: bool) -> None:
    """Puts @section in @doc when @write_doc (write_doc_section ()), then
    prints it."""
    if write_doc:
        write_doc_section(section, begin, end, doc)
        log(f"wrote {doc}")
    print(section)


def write_doc_section(section: str, begin: str, end: str, doc: Path = DOC,
                      heading: str = "") -> None:
    """Puts @section, which runs from the marker line @begin to @end, in
    place of the one @doc has, or appends it (after @heading) to @doc,
    which starts as INTRO when missing."""
    section = section.rstrip("\n") + "\n"
    text = doc.read_text() if doc.exists() else INTRO
    if begin in text and end in text:
        head = text[:text.index(begin)]
        tail = text[text.index(end) + len(end):].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + heading + section
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text)
