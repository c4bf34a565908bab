"""A small outside bot for the tests, speaking docs/agent-protocol.md.

``--misbehave MODE --after N``: answer correctly N play requests, then misbehave:
``illegal`` (a card outside ``legal``), ``malformed`` (not JSON), ``crash`` (exit 3), ``slow`` (sleep).
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misbehave", default="")
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--record", default="")
    args = parser.parse_args()
    plays = 0
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115
    for line in sys.stdin:
        request = json.loads(line)
        if record:
            record.write(line)
            record.flush()
        if request["type"] == "match_end":
            continue
        if request["type"] == "expose":
            print(json.dumps({"expose": request["exposable"][:1]}), flush=True)
            continue
        plays += 1
        if args.misbehave and plays > args.after:
            if args.misbehave == "illegal":
                print(json.dumps({"card": "ZZ"}), flush=True)
            elif args.misbehave == "malformed":
                print("this is not json", flush=True)
            elif args.misbehave == "crash":
                sys.exit(3)
            elif args.misbehave == "slow":
                time.sleep(30)
            continue
        print(json.dumps({"card": sorted(request["legal"])[0]}), flush=True)


if __name__ == "__main__":
    main()
