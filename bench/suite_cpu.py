#!/usr/bin/env python3
"""Where a command's CPU time goes, by kind of process: run it, sample its process tree and sum
each process's CPU time (user + system, from ``/proc``) under its kind (Chromium's renderers, its
browser process, its utility processes by sub-type, the Playwright driver, pytest's Python).

    python3 bench/suite_cpu.py -- python3 -m pytest -q -p no:cacheprovider tests/e2e/test_game.py

Made for the test suite's time (issue 40): the suite runs CPU-bound on two cores, so its time is
the work of these processes, and this says whose work. A process is counted from its last sample
(every 0.2 s), so one that lives less than that may be missed; Linux only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections import defaultdict
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
#: Chromium's process types, as its ``--type=`` switch names them (no switch: the browser process).
CHROMIUM_TYPES = ("renderer", "gpu-process", "utility", "zygote")


def _stat(pid: int) -> tuple[int, float] | None:
    """The parent pid and the CPU seconds used so far of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def kind(pid: int) -> str:
    """What a process is, from its command line."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return "gone"
    # (Chromium's child processes rewrite their command line as one string, words split by spaces.)
    argv = raw.replace("\0", " ").split()
    if not argv:  # (a process that has exited and not yet been waited for)
        return "gone"
    program = os.path.basename(argv[0])
    if "chrom" in program:
        for switch in CHROMIUM_TYPES:
            if f"--type={switch}" in argv:
                sub = [a.split("=", 1)[1] for a in argv if a.startswith("--utility-sub-type=")]
                return f"chromium {sub[0] if sub else switch}"
        return "chromium browser"
    if program == "node":
        return "playwright driver"
    if program.startswith("python"):
        return "python"
    return program


def tree(root: int) -> dict[int, tuple[int, float]]:
    """Every live process under ``root`` (itself included): pid -> (parent, CPU seconds)."""
    stats = {int(d): s for d in os.listdir("/proc") if d.isdigit() and (s := _stat(int(d))) is not None}
    members = {root}
    grown = True
    while grown:
        grown = False
        for pid, (parent, _cpu) in stats.items():
            if parent in members and pid not in members:
                members.add(pid)
                grown = True
    return {pid: stats[pid] for pid in members if pid in stats}


def measure(command: list[str], every_s: float = 0.2) -> tuple[float, dict[str, float], int]:
    """Run ``command``; return its wall time, CPU seconds by kind of process, and its exit status."""
    start = time.monotonic()
    process = subprocess.Popen(command)
    last: dict[int, tuple[str, float]] = {}
    while process.poll() is None:
        for pid, (_parent, cpu) in tree(process.pid).items():
            # Read each time: a renderer forked by Chromium's zygote names itself only after the fork.
            name = kind(pid)
            last[pid] = (last[pid][0] if name == "gone" and pid in last else name, cpu)
        time.sleep(every_s)
    totals: dict[str, float] = defaultdict(float)
    for name, cpu in last.values():
        totals[name] += cpu
    return time.monotonic() - start, dict(totals), process.returncode


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command (after --)")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    wall, totals, status = measure(command)
    cpu = sum(totals.values())
    print(
        f"wall {wall:.1f} s, CPU {cpu:.1f} s ({cpu / wall:.2f} cores), load average {os.getloadavg()[0]:.2f}"
    )
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"{seconds:8.1f} s  {100 * seconds / cpu:4.0f}%  {name}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
