#!/usr/bin/python3
"""Runs a command (optionally several times) and prints its best wall time and peak RSS.

usage: measure.py [--runs N] [--label TEXT] [--stdin FILE] [--stdout FILE] -- CMD [ARGS...]
Prints one line: "<label>: wall <seconds> s, peak <MiB> MiB, exit <rc>" and, with --json,
a JSON object instead. Peak RSS comes from GNU time (/usr/bin/time -f %M) when it is
installed: a child forked from Python would carry Python's own high-water mark into its
ru_maxrss across exec. Without GNU time, wait4(2)'s ru_maxrss is used and says so.
"""
import argparse
import json
import os
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_once(cmd, stdin, stdout):
    rss_file = None
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="measure-")
        os.close(fd)
        cmd = [GNU_TIME, "-q", "-f", "%M", "-o", rss_file] + cmd
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            if stdin:
                fd = os.open(stdin, os.O_RDONLY)
                os.dup2(fd, 0)
            fd = os.open(stdout or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.execvp(cmd[0], cmd)
        except OSError as e:
            sys.stderr.write("measure: cannot run %s: %s\n" % (cmd[0], e))
        os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss / 1024.0
    if rss_file:
        with open(rss_file) as f:
            lines = [l for l in f.read().split("\n") if l.strip().isdigit()]
        os.unlink(rss_file)
        if lines:
            peak = int(lines[-1]) / 1024.0
    return wall, peak, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--label", default="")
    ap.add_argument("--stdin")
    ap.add_argument("--stdout")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        ap.error("no command")
    best = None
    for _ in range(max(1, a.runs)):
        r = run_once(cmd, a.stdin, a.stdout)
        if best is None or r[0] < best[0]:
            best = (r[0], max(r[1], best[1] if best else 0), r[2])
    label = a.label or " ".join(cmd)
    if a.json:
        print(json.dumps({"label": label, "wall_s": best[0], "peak_mib": best[1], "exit": best[2]}))
    else:
        print("%s: wall %.3f s, peak %.1f MiB, exit %d%s" % (label, best[0], best[1], best[2],
              "" if GNU_TIME else " (peak includes the Python parent's)"))
    return 0 if best[2] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
