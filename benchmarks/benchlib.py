# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the benchmarks (benchmarks/*/run.py) share: logging, the machine
they ran on, results.json, means, and their sections of
docs/performance.md.

Standard library only (load_rgba () imports numpy when called):
benchmarks/upload/run.py runs with the system's Python, without the venv.
A run.py finds this module with

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import benchlib
"""

from __future__ import annotations

import datetime
import json
import platform
import sys
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
