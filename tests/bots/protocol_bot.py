"""A small outside bot for the tests, speaking docs/agent-protocol.md.

``--misbehave MODE --after N``: answer correctly N play requests, then misbehave:
``illegal`` (a card outside ``legal``), ``malformed`` (not JSON), ``crash`` (exit 3), ``slow`` (sleep),
``close-stdout`` (close its output and keep running), ``close-stdin`` (answer, then close its input
and keep running), ``endless`` (one line that never ends),
``invalid-utf8`` (bytes that are not UTF-8), ``deep`` (JSON nested 100 000 deep), ``twice`` (the
answer twice, in one write).
``--answer-match-end``: answer the ``match_end`` notice too (which expects no answer).
``--pid-file F``: write its own pid to F.  ``--child-pid-file F``: start a child process that sleeps
(with its own stdin/stdout away from the pipes) and write the child's pid to F.
``--linger``: do not exit when stdin ends; sleep instead (a bot that ignores the end of the run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

SLEEP = 120  # seconds a misbehaving bot stays silent: longer than any test waits


def misbehave(mode: str) -> bool:
    """Act out ``mode``; False when it should still answer the request normally."""
    if mode == "illegal":
        print(json.dumps({"card": "ZZ"}), flush=True)
    elif mode == "malformed":
        print("this is not json", flush=True)
    elif mode == "crash":
        sys.exit(3)
    elif mode == "slow":
        time.sleep(SLEEP)
    elif mode == "close-stdout":
        sys.stdout.close()
        os.close(1)
        time.sleep(SLEEP)
    elif mode == "endless":
        chunk = b"x" * 65536
        for _ in range(1024):  # 64 MiB at most, without a newline
            try:
                os.write(1, chunk)
            except OSError:
                break
        time.sleep(SLEEP)
    elif mode == "invalid-utf8":
        os.write(1, b'{"card": "\xff\xfe"}\n')
    elif mode == "deep":
        print("[" * 100_000 + "]" * 100_000, flush=True)
    else:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misbehave", default="")
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--record", default="")
    parser.add_argument("--answer-match-end", action="store_true")
    parser.add_argument("--pid-file", default="")
    parser.add_argument("--child-pid-file", default="")
    parser.add_argument("--linger", action="store_true")
    args = parser.parse_args()
    if args.pid_file:
        Path(args.pid_file).write_text(str(os.getpid()))
    if args.child_pid_file:
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        Path(args.child_pid_file).write_text(str(child.pid))
    plays = 0
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115
    for line in sys.stdin:
        request = json.loads(line)
        if record:
            record.write(line)
            record.flush()
        if request["type"] == "match_end":
            if args.answer_match_end:
                print(json.dumps({"card": "2C", "expose": []}), flush=True)
            continue
        if request["type"] == "expose":
            print(json.dumps({"expose": request["exposable"][:1]}), flush=True)
            continue
        plays += 1
        answer = json.dumps({"card": sorted(request["legal"])[0]})
        if args.misbehave and plays > args.after:
            if args.misbehave == "close-stdin":
                os.close(0)  # before answering, so the next request surely finds it closed
                print(answer, flush=True)
                time.sleep(SLEEP)
            if args.misbehave == "twice":
                sys.stdout.write(answer + "\n" + answer + "\n")
                sys.stdout.flush()
                continue
            if misbehave(args.misbehave):
                continue
        print(answer, flush=True)
    if args.linger:
        time.sleep(60)


if __name__ == "__main__":
    main()
