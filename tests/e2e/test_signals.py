"""End-to-end: SIGINT, SIGTERM and SIGPIPE at the awkward moments. hbtab exits 130, 143 or
141; an open REST scanner is deleted at the emulator; the shell channel's temporary script
is removed and its process group (child and grandchild) is gone."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import hbtest
from hbtest import EmulatorTest

EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGPIPE: 141}
MESSAGE = {signal.SIGINT: "hbtab: interrupted (SIGINT)\n",
           signal.SIGTERM: "hbtab: terminated (SIGTERM)\n",
           signal.SIGPIPE: ""}
GUARD = 120  # seconds: only a guard against a hang, never a speed bound

# A stand-in for "hbase shell" that never finishes: it starts a grandchild, writes both pids
# and the script path it was given, and sleeps.
HANGING_SHELL = r"""
import os, subprocess, sys, time
d = os.environ["HBTAB_SIGTEST_DIR"]
g = subprocess.Popen(["sleep", "300"])
with open(os.path.join(d, "pids.tmp"), "w") as f:
    json = '{"child": %d, "grandchild": %d, "script": "%s"}' % (os.getpid(), g.pid, sys.argv[-1])
    f.write(json)
os.rename(os.path.join(d, "pids.tmp"), os.path.join(d, "pids.json"))
time.sleep(300)
"""


def alive(pid):
    """True while pid exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


class Signals(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.dir = tempfile.mkdtemp(prefix="hbtab-sig-")
        self.tmpdir = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmpdir)

    def tearDown(self):
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        super().tearDown()

    def start(self, args, env=None, stdout=subprocess.PIPE):
        e = {"TMPDIR": self.tmpdir}
        e.update(env or {})
        return subprocess.Popen([hbtest.HBTAB, "--rest", self.emu.rest, "--thrift",
                                 self.emu.thrift, "--no-progress"] + list(args),
                                stdout=stdout, stderr=subprocess.PIPE,
                                env=hbtest.clean_env(self.home, e))

    def finish(self, p):
        try:
            out, err = p.communicate(timeout=GUARD)
        except subprocess.TimeoutExpired:
            p.kill()  # a hung hbtab must not outlive its test
            p.communicate()
            raise
        return p.returncode, out, err.decode("utf-8", "replace")

    def scanners(self):
        st, body = self.emu.control("GET", "/control/scanners")
        self.assertEqual(st, 200, body)
        return body

    def deletes(self):
        return [q["path"] for q in self.emu.requests()
                if q["method"] == "DELETE" and "/scanner/" in q["path"]]

    # ---------------------------------------------------------------- scans
    def table_with_rows(self, n=200):
        """t1 with n rows: sampling its keys (splits --sample-table) reads them through a
        stateful REST scanner with a filter."""
        self.emu.create("t1", [b"%02x" % i for i in range(1, 40)])
        rows = [{"key": hbtest.b64(b"%04x" % (i * 97 % 65536)),
                 "cells": [{"column": hbtest.b64("cf:a"), "value": hbtest.b64("v")}]}
                for i in range(n)]
        st, body = self.emu.control("POST", "/control/put", {"table": "t1", "rows": rows})
        self.assertEqual(st, 200, body)

    SAMPLE = ["splits", "--sampled-splits", "4", "--sample-table", "t1"]

    def signal_during_scan(self, sig):
        self.table_with_rows()
        # Every scanner page is answered after 60 s: hbtab sits in the GET with the scanner
        # open when the signal comes.
        self.emu.fault(server="rest", method="GET", path="/scanner/", kind="delay",
                       seconds=60, count=-1)
        p = self.start(self.SAMPLE)
        hbtest.wait_for(lambda: self.scanners() or p.poll() is not None, "the sampling scanner")
        self.assertIsNone(p.poll(), "hbtab ended before the signal")
        time.sleep(0.3)  # into the delayed GET (the check before the GET is tested as well)
        p.send_signal(sig)
        rc, out, err = self.finish(p)
        self.assertEqual(rc, EXIT[sig], err)
        self.assertEqual(self.scanners(), [])
        self.assertEqual(len(self.deletes()), 1, self.emu.requests())
        self.assertTrue(err.endswith(MESSAGE[sig]), err)
        self.assertEqual(out, b"")

    def test_signals__sigint_during_scan_deletes_the_scanner_exit_130(self):
        self.signal_during_scan(signal.SIGINT)

    def test_signals__sigterm_during_scan_deletes_the_scanner_exit_143(self):
        self.signal_during_scan(signal.SIGTERM)

    def test_signals__sigpipe_during_scan_deletes_the_scanner_exit_141(self):
        self.signal_during_scan(signal.SIGPIPE)

    def test_signals__scanner_delete_after_a_signal_is_one_short_attempt(self):
        # A gateway that hangs on the DELETE cannot hold the exit: after the signal the
        # DELETE is tried once, with a short timeout instead of --timeout 600 and
        # --retries 3 (without that this test would only end at its hang guard).
        self.table_with_rows()
        self.emu.fault(server="rest", method="GET", path="/scanner/", kind="delay",
                       seconds=60, count=-1)
        self.emu.fault(server="rest", method="DELETE", path="/scanner/", kind="delay",
                       seconds=300, count=-1)
        p = self.start(["--timeout", "600", "--retries", "3"] + self.SAMPLE)
        hbtest.wait_for(lambda: self.scanners() or p.poll() is not None, "the sampling scanner")
        self.assertIsNone(p.poll(), "hbtab ended before the signal")
        p.send_signal(signal.SIGTERM)
        rc, out, err = self.finish(p)
        self.assertEqual(rc, 143, err)
        self.assertTrue(err.endswith(MESSAGE[signal.SIGTERM]), err)
        fired = [f["fired"] for f in self.emu.control("GET", "/control/fault")[1]
                 if f["method"] == "DELETE"]
        self.assertEqual(fired, [1])

    def test_signals__signal_while_opening_the_scanner_still_deletes_it(self):
        # The POST that opens the scanner is slow: the signal arrives before hbtab knows the
        # scanner's id; the POST is finished, and the scanner it opened is deleted.
        self.table_with_rows()
        # held until the signal has been sent
        self.emu.fault(server="rest", method="POST", path="/scanner", kind="delay",
                       until="release", count=1)
        p = self.start(self.SAMPLE)
        # A fault is dropped from the list when its last count fires: the POST is delayed.
        hbtest.wait_for(lambda: self.emu.control("GET", "/control/fault")[1] == []
                 or p.poll() is not None, "the scanner POST")
        self.assertIsNone(p.poll())
        p.send_signal(signal.SIGINT)
        self.emu.control("POST", "/control/release")
        rc, out, err = self.finish(p)
        self.assertEqual(rc, 130, err)
        hbtest.wait_for(lambda: not self.scanners(), "the scanner to be deleted")
        self.assertEqual(len(self.deletes()), 1, self.emu.requests())

    def test_signals__closed_stdout_pipe_exits_141_quietly_no_scanner_left(self):
        self.table_with_rows()
        r, w = os.pipe()
        os.close(r)  # nobody will ever read hbtab's output
        try:
            p = self.start(self.SAMPLE, stdout=w)
        finally:
            os.close(w)
        rc, _, err = self.finish(p)
        self.assertEqual(rc, 141, err)
        self.assertEqual(err, "")
        self.assertEqual(self.scanners(), [])
        self.assertEqual(len(self.deletes()), 1, self.emu.requests())

    def test_signals__sigint_without_anything_to_clean_exits_130_at_once(self):
        # A plain GET that takes 60 s: no scanner, file or child; the signal ends hbtab
        # on the spot (well before the answer would come).
        self.emu.fault(server="rest", method="GET", path="^/$", kind="delay", seconds=60,
                       count=1)
        p = self.start(["tables"])
        hbtest.wait_for(lambda: self.emu.control("GET", "/control/fault")[1] == []
                 or p.poll() is not None, "the delayed GET")
        self.assertIsNone(p.poll(), "hbtab ended before the signal")
        p.send_signal(signal.SIGINT)
        rc, out, err = self.finish(p)
        self.assertEqual(rc, 130, err)
        self.assertEqual(err, MESSAGE[signal.SIGINT])
        self.assertEqual(out, b"")
        # hbtab was gone before the emulator answered: the GET is not in the log yet.
        self.assertEqual([q for q in self.emu.requests() if q["path"] == "/"], [])

    # ---------------------------------------------------------- shell channel
    def signal_during_shell(self, sig):
        shell = os.path.join(self.dir, "hanging-shell.py")
        with open(shell, "w") as f:
            f.write(HANGING_SHELL)
        p = self.start(["--hbase-shell", "%s %s" % (sys.executable, shell), "create", "t1",
                        "--hex-splits", "4", "--family", "cf", "--via", "shell",
                        "--timeout", "600"],
                       env={"HBTAB_SIGTEST_DIR": self.dir})
        pids_file = os.path.join(self.dir, "pids.json")
        hbtest.wait_for(lambda: os.path.exists(pids_file) or p.poll() is not None, "the shell")
        self.assertIsNone(p.poll(), "hbtab ended before the signal")
        with open(pids_file) as f:
            pids = json.load(f)
        self.assertTrue(os.path.exists(pids["script"]), pids)
        self.assertEqual(os.path.dirname(pids["script"]), self.tmpdir)
        self.assertTrue(alive(pids["child"]) and alive(pids["grandchild"]))
        p.send_signal(sig)
        rc, _, err = self.finish(p)
        self.assertEqual(rc, EXIT[sig], err)
        self.assertEqual(os.listdir(self.tmpdir), [], "temporary files left behind")
        # hbtab reaped the shell itself; the grandchild got SIGTERM and SIGKILL before hbtab
        # exited, and dies when the kernel next schedules it (a loaded machine may take a
        # moment).
        self.assertFalse(alive(pids["child"]), "the shell is still running")
        hbtest.wait_for(lambda: not alive(pids["grandchild"]), "the shell's child to end")
        self.assertTrue(err.endswith(MESSAGE[sig]), err)
        self.assertIsNone(self.emu.table("t1"))

    def test_signals__sigterm_during_shell_run_kills_group_removes_script_exit_143(self):
        self.signal_during_shell(signal.SIGTERM)

    def test_signals__sigint_during_shell_run_kills_group_removes_script_exit_130(self):
        self.signal_during_shell(signal.SIGINT)

    def test_signals__sigpipe_during_shell_run_kills_group_removes_script_exit_141(self):
        self.signal_during_shell(signal.SIGPIPE)

    def test_signals__shell_channel_child_starts_with_default_sigpipe_and_sigint(self):
        # hbtab handles SIGINT/SIGTERM/SIGPIPE instead of ignoring them, so what it starts
        # gets the default dispositions (an ignored SIGPIPE would be inherited through exec).
        shell = os.path.join(self.dir, "report-shell.sh")
        mask = os.path.join(self.dir, "sigign")
        with open(shell, "w") as f:
            f.write('grep "^SigIgn:" /proc/$$/status > "%s"\nexit 1\n' % mask)
        p = self.start(["--hbase-shell", "/bin/sh %s" % shell, "create", "t1",
                        "--hex-splits", "4", "--family", "cf", "--via", "shell"])
        rc, _, err = self.finish(p)
        self.assertNotEqual(rc, 0, err)
        with open(mask) as f:
            ignored = int(f.read().split()[1], 16)
        for sig in (signal.SIGPIPE, signal.SIGINT, signal.SIGTERM):
            self.assertFalse(ignored & (1 << (sig - 1)), "%s ignored in the shell" % sig.name)
        self.assertEqual(os.listdir(self.tmpdir), [], "temporary files left behind")


if __name__ == "__main__":
    hbtest.main()
