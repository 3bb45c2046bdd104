#!/usr/bin/env python3
"""The emulator at scale: create, /T/regions and a full meta scan (batch 1000) of a
100,000-region table, each printed in seconds and as a ratio against the same operation on
a 1,000-region table in the same run, scaled by 100 (1.0 = linear; above 1 = worse than
linear). Usage: tests/bench/bench_emulator_scale.py [REGIONS] [--check]
--check exits 1 when any ratio exceeds 3 (super-linear growth)."""
import http.client
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "emulator", "tests"))
from emu_harness import Emu, b64  # noqa: E402

MAX_RATIO = 3.0


def measure(emu, table, n):
    splits = [b"%08d" % i for i in range(1, n)]
    t0 = time.monotonic()
    emu.create(table, splits, families=[{"name": "cf"}])
    t_create = time.monotonic() - t0

    conn = http.client.HTTPConnection("127.0.0.1", emu.rest_port, timeout=600)
    t0 = time.monotonic()
    conn.request("GET", "/%s/regions" % table, headers={"Accept": "application/json"})
    r = conn.getresponse()
    count = len(json.loads(r.read())["Region"])
    t_regions = time.monotonic() - t0
    assert count == n, (count, n)

    t0 = time.monotonic()
    conn.request("POST", "/hbase:meta/scanner",
                 body=json.dumps({"startRow": b64(table.encode() + b",,"),
                                  "endRow": b64(table.encode() + b" ,,"),
                                  "batch": 1000, "maxVersions": 1}),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    path = r.getheader("Location").split(str(emu.rest_port), 1)[1]
    while True:
        conn.request("GET", path, headers={"Accept": "application/json"})
        r = conn.getresponse()
        r.read()
        if r.status != 200:
            break
    t_scan = time.monotonic() - t0
    conn.close()
    return {"create": t_create, "regions": t_regions, "meta scan": t_scan}


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    n = int(args[0]) if args else 100000
    small = max(n // 100, 10)
    emu = Emu("--servers", "5")
    try:
        base = measure(emu, "base", small)
        big = measure(emu, "big", n)
    finally:
        emu.stop()
    fail = False
    print("emulator scale: %d regions against %d regions x %d" % (n, small, n // small))
    for k in ("create", "regions", "meta scan"):
        ratio = big[k] / (base[k] * (n / small)) if base[k] > 0 else 0.0
        over = ratio > MAX_RATIO
        fail |= over
        print("  %-9s %8.3f s  baseline %7.3f s  ratio %5.2f  %s"
              % (k, big[k], base[k], ratio, "OVER" if over else "ok"))
    return 1 if fail and "--check" in sys.argv else 0


if __name__ == "__main__":
    sys.exit(main())
