"""bench/suite_cpu.py: a command's CPU time summed by kind of process over its whole process tree."""

from __future__ import annotations

import sys

from .support.bench import bench_module

suite_cpu = bench_module("suite_cpu")

#: A parent that starts a child which burns CPU for about half a second, then exits with status 3.
BURN = (
    "import subprocess, sys;"
    "subprocess.run([sys.executable, '-c', 'import time\\nt = time.process_time()\\n"
    "while time.process_time() - t < 0.5: pass'], check=True);"
    "sys.exit(3)"
)


def test_a_childs_cpu_counts_under_its_kind_and_the_status_is_passed_on() -> None:
    wall, totals, status = suite_cpu.measure([sys.executable, "-c", BURN], every_s=0.05)
    assert status == 3
    assert totals["python"] >= 0.4  # the child's half second, seen before it exited
    assert sum(totals.values()) <= wall * 2 + 0.5  # never more than two cores' worth of the wall time
