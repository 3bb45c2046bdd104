"""End-to-end: SIGINT, SIGTERM and SIGPIPE at each step of `create --wait` and of `rotate`.

hbtab is held at a step by the emulator, never by a sleep: a request of that step is held
(fault kind "hold") until the test releases it, or the new table's regions stay OPENING
(open-delay) so the wait polls. The signal is sent once the emulator shows hbtab there (a
held request, or the wait's polls in the request log). Then: the exit status is 130, 143 or
141 with the message (none for SIGPIPE), no scanner is open, no temporary file is left, the
tables are each whole (a table with or without its complete metadata row, an old table
present with its rotate mark or gone), and a rerun of the same command completes (exit 0)."""
import os
import shutil
import signal
import subprocess
import tempfile

import hbtest
from hbtest import EmulatorTest

EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGPIPE: 141}
MESSAGE = {signal.SIGINT: "hbtab: interrupted (SIGINT)\n",
           signal.SIGTERM: "hbtab: terminated (SIGTERM)\n",
           signal.SIGPIPE: ""}
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)
GUARD = 120  # seconds: only a guard against a hang, never a speed bound

SPLITS = [b"40000000", b"80000000", b"c0000000"]  # --hex-splits 4
TEMPLATE = "ev_%Y%m%d"
OLD = ["ev_20261101", "ev_20261102"]    # managed tables past retention at NOW
NEW = ["ev_20261120", "ev_20261121"]    # the current table and the one ahead at NOW
NOW = "2026-11-20T08:00:00Z"
STANDIN = "ruby %s -n" % hbtest.SHELL_STANDIN

def children(pid):
    """The pids of pid's children now (every thread's list)."""
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


class SignalSteps(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.dir = tempfile.mkdtemp(prefix="hbtab-sigddl-")
        self.tmpdir = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmpdir)
        self.lock = os.path.join(self.dir, "rotate.lock")

    def tearDown(self):
        self.emu.control("POST", "/control/release")
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        super().tearDown()

    # ------------------------------------------------------------ plumbing
    def argv(self, args):
        return [hbtest.HBTAB, "--rest", self.emu.rest, "--thrift", self.emu.thrift,
                "--no-progress", "--hbase-shell", STANDIN] + list(args)

    def env(self):
        return hbtest.clean_env(self.home, {"TMPDIR": self.tmpdir,
                                            "HBEMU_CONTROL": self.emu.control_url})

    def run_ok(self, args):
        p = subprocess.run(self.argv(args), capture_output=True, env=self.env(), timeout=GUARD)
        r = hbtest.Result(p.returncode, p.stdout, p.stderr)
        self.assertEqual(r.rc, 0, repr(r))
        return r

    def hold(self, server, method, path, skip=0):
        self.emu.fault(server=server, method=method, path=path, kind="hold", skip=skip)

    def held(self):
        return self.emu.control("GET", "/control/held")[1]["held"]

    def logged(self, method, path):
        return [q for q in self.emu.requests() if q["method"] == method and path in q["path"]]

    def interrupt_create(self, args, sig, there, what):
        out = self.interrupt(args, sig, there, what)
        self.assertEqual(out, "", "a summary printed for a create that did not finish")

    def interrupt(self, args, sig, there, what):
        """Starts hbtab, waits until there() says it is at the step, sends sig and checks the
        exit: status, message, no scanner, no temporary file, no child left running. Returns
        what hbtab printed on stdout."""
        p = subprocess.Popen(self.argv(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=self.env())
        try:
            hbtest.wait_for(lambda: there() or p.poll() is not None, what)
            if p.poll() is not None:
                self.fail("hbtab ended before the signal: %r" % (p.communicate(),))
            kids = children(p.pid)
            p.send_signal(sig)
            out, err = p.communicate(timeout=GUARD)
        except BaseException:
            p.kill()  # a hung hbtab must not outlive its test
            p.communicate()
            raise
        err = err.decode("utf-8", "replace")
        self.assertEqual(p.returncode, EXIT[sig], err)
        self.assertEqual(err, MESSAGE[sig])
        self.assertEqual(self.emu.control("GET", "/control/scanners")[1], [])
        self.assertEqual(os.listdir(self.tmpdir), [], "temporary files left behind")
        self.assertEqual(kids, [], "hbtab had a child at this step")
        return out.decode("utf-8", "replace")

    def release(self, method, path):
        """Lets the held request run, as a server that finishes what it was asked, and waits
        until it has been answered (the log records a request once it is answered)."""
        before = len(self.logged(method, path))
        self.emu.control("POST", "/control/release")
        hbtest.wait_for(lambda: len(self.logged(method, path)) > before,
                        "the released %s %s" % (method, path))

    def polls(self, table, n=2):
        """True once the wait has polled table's regions n times."""
        return len(self.logged("GET", "/%s/regions" % table)) >= n

    def assert_whole(self, table, n, rotate=None):
        """table exists with n regions; its metadata row is absent or complete."""
        self.assertEqual(len(self.emu.boundaries(table) or []) + 1, n)
        row = self.emu.metadata_row(table)
        if row is not None:
            self.assertEqual(row["cf:N"], str(n), row)
            self.assertIn("cf:created", row)
            self.assertIn("cf:creator", row)
            if rotate:
                self.assertEqual(row["cf:rotate"], rotate, row)
        return row

    def assert_created(self, table, n, rotate=None):
        self.assertEqual(self.emu.boundaries(table), SPLITS[:n - 1] if n > 1 else [])
        row = self.emu.metadata_row(table)
        self.assertIsNotNone(row, "no metadata row on %s" % table)
        self.assertEqual(row["cf:N"], str(n))
        if rotate:
            self.assertEqual(row["cf:rotate"], rotate)

    # ------------------------------------------------------------ create --wait
    CREATE = ["create", "t1", "--hex-splits", "4", "--wait", "600"]

    def create_rerun_completes(self, args=None, n=4):
        r = self.run_ok(args or self.CREATE)
        # the rerun finds the table the interrupted run created, verifies it, completes it
        self.assertIn("table 't1' already exists with the planned %d region%s; verified, "
                      "not changed\n" % (n, "s" if n > 1 else ""), r.out)
        self.assertIn("metadata row written: N=%d\n" % n, r.out)
        self.assert_created("t1", n)

    def create_ddl_thrift2(self, sig):
        # createTable is in flight when the signal comes; the server then finishes it.
        self.hold("thrift", "POST", "^/$")
        self.interrupt_create(self.CREATE, sig, lambda: self.held() == 1, "the createTable call")
        self.release("POST", "/")
        self.assertIsNone(self.assert_whole("t1", 4))
        self.create_rerun_completes()

    def create_wait(self, sig, via, splits, n):
        # The regions stay OPENING: --wait polls /t1/regions until they open.
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        args = ["create", "t1", "--hex-splits", str(splits), "--via", via, "--wait", "600"]
        self.interrupt_create(args, sig, lambda: self.polls("t1"), "the wait's polls")
        self.assertIsNone(self.emu.metadata_row("t1"))
        self.assertEqual(len(self.emu.table("t1")["regions"]), n)
        self.emu.control("POST", "/control/open-delay", {"seconds": 0})
        st, body = self.emu.control("POST", "/control/open", {"table": "t1"})
        self.assertEqual(st, 200, body)
        self.create_rerun_completes(args, n)

    def create_held_step(self, sig, method, path, what):
        self.hold("rest", method, path)
        self.interrupt_create(self.CREATE, sig, lambda: self.held() == 1, what)
        self.assertIsNone(self.assert_whole("t1", 4))
        # the held read answered (to nobody) now, not in a later test
        self.release(method, path.lstrip("^"))
        self.create_rerun_completes()

    def create_metadata_write(self, sig):
        # The metadata row's PUT is in flight; the server then applies it, all cells at once.
        self.hold("rest", "PUT", "^/t1/")
        self.interrupt_create(self.CREATE, sig, lambda: self.held() == 1, "the metadata row PUT")
        self.assertIsNone(self.emu.metadata_row("t1"))
        self.release("PUT", "/t1/")
        row = self.assert_whole("t1", 4)
        self.assertIsNotNone(row)
        self.assertEqual(row["cf:splits"], "--hex-splits 4")
        r = self.run_ok(self.CREATE)
        self.assertIn("metadata row already present: N=4", r.out)
        self.assert_created("t1", 4)

    def create_metadata_row_scan(self, sig):
        # A metadata row key with '/' cannot be a REST row path: the row is read through a
        # scanner, open when the signal comes, and deleted before the exit.
        args = self.CREATE + ["--metadata-row", "meta/row"]
        self.hold("rest", "GET", "^/t1/scanner/")
        self.interrupt_create(args, sig, lambda: self.held() == 1,
                              "the metadata row's scanner")
        self.assertEqual(len(self.logged("DELETE", "/t1/scanner/")), 1,
                         "the open scanner was not deleted")
        self.assertEqual(self.emu.boundaries("t1"), SPLITS)
        self.assertEqual([p for p in self.emu.requests() if p["method"] == "PUT"], [],
                         "the metadata row written after the signal")
        self.release("GET", "/t1/scanner/")
        r = self.run_ok(args)
        self.assertIn("metadata row written: N=4\n", r.out)
        st, body = self.emu.control("GET", "/control/scanners")
        self.assertEqual(body, [])

    # ------------------------------------------------------------ rotate
    ROTATE = ["rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now", NOW, "--yes",
              "--retain", "3", "--max-drops", "5", "--wait", "600"]

    def rotate_args(self):
        return self.ROTATE + ["--lock", self.lock]

    def rotate_setup(self):
        """Two managed tables past retention, made by an earlier rotate run."""
        self.run_ok(["rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now",
                     "2026-11-01", "--lock", self.lock])
        self.assertEqual(self.ev_tables(), OLD)
        self.emu.clear_requests()

    def ev_tables(self):
        return sorted(t["name"] for t in self.emu.state()["tables"]
                      if t["name"].startswith("ev_"))

    def assert_rotate_set_whole(self):
        """Every table is whole: an old one present with its mark or gone; a new one with
        its regions and no or a complete metadata row."""
        for t in OLD:
            if self.emu.table(t) is not None:
                self.assert_whole(t, 4, TEMPLATE)
                self.assertIsNotNone(self.emu.metadata_row(t), t)
        for t in NEW:
            if self.emu.table(t) is not None:
                self.assert_whole(t, 4, TEMPLATE)

    @staticmethod
    def created_lines():
        return "".join("created     %s (4 regions, N=4)\n" % t for t in NEW)

    def rotate_rerun_completes(self):
        r = self.run_ok(self.rotate_args())
        self.assertEqual(self.ev_tables(), NEW, r)
        for t in NEW:
            self.assert_created(t, 4, TEMPLATE)

    def rotate_create_ahead_ddl(self, sig):
        # The second createTable (the table ahead) is in flight: the first is complete.
        self.rotate_setup()
        self.hold("thrift", "POST", "^/$", skip=1)
        out = self.interrupt(self.rotate_args(), sig, lambda: self.held() == 1,
                             "the createTable of the table ahead")
        self.assertEqual(out, "created     %s (4 regions, N=4)\n" % NEW[0])
        self.assert_created(NEW[0], 4, TEMPLATE)
        self.assertIsNone(self.emu.table(NEW[1]))
        self.assertEqual(self.ev_tables(), OLD + NEW[:1], "a drop before every create")
        self.release("POST", "/")
        self.assert_rotate_set_whole()
        self.assertIsNone(self.emu.metadata_row(NEW[1]))
        self.rotate_rerun_completes()

    def rotate_create_wait(self, sig):
        self.rotate_setup()
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        out = self.interrupt(self.rotate_args(), sig, lambda: self.polls(NEW[0]),
                             "the wait for the current table")
        self.assertEqual(out, "")
        self.assertEqual(self.ev_tables(), OLD + NEW[:1])
        self.assert_rotate_set_whole()
        self.assertIsNone(self.emu.metadata_row(NEW[0]))
        self.emu.control("POST", "/control/open-delay", {"seconds": 0})
        self.emu.control("POST", "/control/open", {"table": NEW[0]})
        self.rotate_rerun_completes()

    def rotate_drop(self, sig):
        # The drop of the second old table is in flight: the first is gone.
        self.rotate_setup()
        self.hold("rest", "DELETE", "^/%s/schema" % OLD[1])
        out = self.interrupt(self.rotate_args(), sig, lambda: self.held() == 1,
                             "the drop of %s" % OLD[1])
        self.assertEqual(out, self.created_lines() + "dropped     %s (N=4)\n" % OLD[0])
        self.assertEqual(self.ev_tables(), OLD[1:] + NEW)
        self.assert_rotate_set_whole()
        self.release("DELETE", "/%s/schema" % OLD[1])
        self.assertEqual(self.ev_tables(), NEW)
        self.rotate_rerun_completes()

    def rotate_drop_recheck(self, sig):
        # The re-check of the first old table's mark right before its drop: nothing dropped.
        self.rotate_setup()
        self.hold("rest", "GET", "^/%s/totalPartition" % OLD[0], skip=1)
        out = self.interrupt(self.rotate_args(), sig, lambda: self.held() == 1,
                             "the re-check before the drop of %s" % OLD[0])
        self.assertEqual(out, self.created_lines())
        self.assertEqual(self.ev_tables(), OLD + NEW)
        self.assert_rotate_set_whole()
        self.release("GET", "/%s/totalPartition" % OLD[0])
        self.rotate_rerun_completes()

    def rotate_sample_previous_scan(self, sig):
        # The table ahead is designed from the rows of the newest managed table: a REST
        # scanner is open on it when the signal comes, and is deleted before the exit.
        self.rotate_setup()
        rows = [{"key": hbtest.b64(b"user%04d" % (i * 7919 % 10000)),
                 "cells": [{"column": hbtest.b64("cf:v"), "value": hbtest.b64("x")}]}
                for i in range(200)]
        st, body = self.emu.control("POST", "/control/put", {"table": OLD[1], "rows": rows})
        self.assertEqual(st, 200, body)
        self.hold("rest", "GET", "^/%s/scanner/" % OLD[1])
        args = ["rotate", "--template", TEMPLATE, "--sampled-splits", "4", "--now", NOW,
                "--sample-previous", "--yes", "--retain", "3", "--max-drops", "5", "--lock",
                self.lock]
        out = self.interrupt(args, sig, lambda: self.held() == 1, "the sampling scanner")
        self.assertEqual(out, "")
        self.assertEqual(len(self.logged("DELETE", "/%s/scanner/" % OLD[1])), 1,
                         "the open scanner was not deleted")
        self.assertEqual(self.ev_tables(), OLD, "a table created or dropped before the design")
        self.assert_rotate_set_whole()
        self.release("GET", "/%s/scanner/" % OLD[1])
        self.run_ok(args)
        self.assertEqual(self.ev_tables(), NEW)
        for t in NEW:
            self.assertEqual(self.emu.metadata_row(t)["cf:rotate"], TEMPLATE)
            self.assertEqual(len(self.emu.live_regions(t)), 4)

    def test_signals__closed_stdout_during_rotate_exits_141_quietly_set_whole(self):
        # The first line rotate prints meets a pipe nobody reads: it stops there, at 141
        # without a message, with the current table complete and nothing dropped.
        self.rotate_setup()
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.Popen(self.argv(self.rotate_args()), stdout=w,
                                 stderr=subprocess.PIPE, env=self.env())
        finally:
            os.close(w)
        try:
            _, err = p.communicate(timeout=GUARD)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise
        self.assertEqual(p.returncode, 141, err)
        self.assertEqual(err, b"")
        self.assertEqual(self.ev_tables(), OLD + NEW[:1])
        self.assert_created(NEW[0], 4, TEMPLATE)
        self.assert_rotate_set_whole()
        self.assertEqual(os.listdir(self.tmpdir), [])
        self.rotate_rerun_completes()


STEPS = {
    "create_ddl_over_thrift2":
        lambda self, sig: self.create_ddl_thrift2(sig),
    "create_wait_after_thrift2_create":
        lambda self, sig: self.create_wait(sig, "thrift2", 4, 4),
    "create_wait_after_rest_create":
        lambda self, sig: self.create_wait(sig, "rest", 1, 1),
    "create_wait_after_shell_create":
        lambda self, sig: self.create_wait(sig, "shell", 4, 4),
    "create_wait_meta_read":
        lambda self, sig: self.create_held_step(sig, "GET", "^/hbase%3Ameta/",
                                                "the wait's read of hbase:meta"),
    "create_verify_schema_read":
        lambda self, sig: self.create_held_step(sig, "GET", "^/t1/schema",
                                                "the verify step's schema read"),
    "create_metadata_row_read":
        lambda self, sig: self.create_held_step(sig, "GET", "^/t1/totalPartition",
                                                "the metadata row's read"),
    "create_metadata_row_write":
        lambda self, sig: self.create_metadata_write(sig),
    "create_metadata_row_scan":
        lambda self, sig: self.create_metadata_row_scan(sig),
    "rotate_create_ahead_ddl":
        lambda self, sig: self.rotate_create_ahead_ddl(sig),
    "rotate_create_wait":
        lambda self, sig: self.rotate_create_wait(sig),
    "rotate_sample_previous_scan":
        lambda self, sig: self.rotate_sample_previous_scan(sig),
    "rotate_drop_in_flight":
        lambda self, sig: self.rotate_drop(sig),
    "rotate_drop_recheck":
        lambda self, sig: self.rotate_drop_recheck(sig),
}


def _case(step, sig):
    def test(self):
        STEPS[step](self, sig)
    test.__doc__ = "%s during %s: exit %d, nothing left, a rerun completes" % (
        sig.name, step.replace("_", " "), EXIT[sig])
    return test


for _step in STEPS:
    for _sig in SIGNALS:
        setattr(SignalSteps, "test_signals__%s_during_%s_exit_%d" % (
            _sig.name.lower(), _step, EXIT[_sig]), _case(_step, _sig))


if __name__ == "__main__":
    hbtest.main()
