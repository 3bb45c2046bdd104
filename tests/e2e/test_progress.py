"""The progress indicator: drawn on a terminal's stderr only, cleared before the results."""
import os
import re
import sys

import hbtest


class Progress(hbtest.EmulatorTest):
    def setUp(self):
        super().setUp()
        # Enough meta rows for several scanner batches, so progress is reported mid-way.
        self.emu.create("big", [b"%06d" % i for i in range(1, 4000)])

    def run_with_tty_stderr(self, *args):
        return hbtest.TtyStderr(["--rest", self.emu.rest] + list(args)).finish()

    def test_progress__meta_listing_draws_and_clears_progress_on_a_terminal(self):
        rc, out, err = self.run_with_tty_stderr("regions", "big", "--source", "meta")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(out.splitlines()), 4000)
        # the rows read so far, or, on a machine so loaded that the gateway's first answer
        # takes a second, the wait for it: a line drawn within 0.1 s of the last one is
        # skipped, so a listing that then arrives at once may show the wait alone
        self.assertRegex(err, rb"\r(reading: \d+|waiting for the server: \d+ s)")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertNotIn(b"reading", out)

    def test_progress__no_progress_flag_keeps_the_terminal_quiet(self):
        rc, out, err = self.run_with_tty_stderr("--no-progress", "regions", "big", "--source", "meta")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, b"")

    def assertErasedBeforeEveryLine(self, err):
        """Every diagnostic starts on a clean line: after the erase sequence or a newline."""
        for m in re.finditer(rb"hbtab: ", err):
            before = err[:m.start()]
            self.assertTrue(not before or before.endswith(b"\r\x1b[K") or
                            before.endswith(b"\n"), err[max(0, m.start() - 60):m.end() + 40])

    def test_progress__hotspot_window_is_shown_then_erased(self):
        rc, out, err = self.run_with_tty_stderr("audit", "big", "--hotspots", "--window", "2")
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, rb"\rmeasuring writes: \d+/2 s")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertNotIn(b"measuring", out)
        self.assertIn(b"writes in ", out)

    def test_progress__region_wait_is_shown_and_erased_before_the_error(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        rc, out, err = self.run_with_tty_stderr("create", "t1", "--hex-splits", "4",
                                                "--via", "thrift2", "--thrift", self.emu.thrift,
                                                "--wait", "2")
        self.assertEqual(rc, 4, err)
        self.assertRegex(err, rb"\rregions online: 0/4 ")
        self.assertIn(b"\r\x1b[Khbtab: table 't1': regions not online", err)
        self.assertErasedBeforeEveryLine(err)

    def test_progress__offline_audit_of_many_regions_is_shown(self):
        rc, out, err = self.run_with_tty_stderr("audit", "--hex-splits", "5000",
                                                "--keyspace", "hex{8}")
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, rb"\rauditing regions: \d+/5000 ")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertNotIn(b"auditing", out)

    def test_progress__a_slow_thrift2_create_call_is_shown_with_its_table(self):
        # createTable returns once every region is assigned: on a big table, many seconds;
        # here it is held until the terminal shows it running for a second or more
        self.emu.fault(server="thrift", method="POST", path=".*", kind="delay",
                       until="release", count=-1)
        t = hbtest.TtyStderr(["--rest", self.emu.rest, "create", "t1", "--hex-splits", "4",
                              "--via", "thrift2", "--thrift", self.emu.thrift])
        try:
            t.wait_for_err(rb"\rcreating table 't1' over Thrift2: [1-9]\d* s")
        finally:
            self.emu.control("POST", "/control/release")
        rc, out, err = t.finish()
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, rb"\rcreating table 't1' over Thrift2: [1-9]\d* s")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-60:])
        self.assertNotIn(b"creating table", out)

    def test_progress__the_hbase_shell_run_is_shown_and_erased_before_the_error(self):
        # a "shell" that creates nothing and ends once the terminal has shown it running
        script = os.path.join(self.emu.tmp, "slow-shell.py")
        go = os.path.join(self.emu.tmp, "shell-may-end")
        with open(script, "w") as f:
            f.write("import os, time\nwhile not os.path.exists(%r):\n    time.sleep(0.05)\n"
                    % go)
        t = hbtest.TtyStderr(["--rest", self.emu.rest, "create", "t1", "--hex-splits", "4",
                              "--via", "shell", "--wait", "1",
                              "--hbase-shell", "%s %s" % (sys.executable, script)])
        try:
            t.wait_for_err(rb"\rcreating table 't1' with the hbase shell: [1-9]\d* s")
        finally:
            open(go, "w").close()
        rc, out, err = t.finish()
        self.assertEqual(rc, 1, err)
        self.assertIn(b"does not exist after the shell create", err)
        self.assertRegex(err, rb"\rcreating table 't1' with the hbase shell: [1-9]\d* s")
        self.assertErasedBeforeEveryLine(err)

    def test_progress__a_retry_back_off_is_shown(self):
        self.emu.fault(method="GET", path="^/version/cluster$", kind="503", retry_after=2,
                       count=1)
        rc, out, err = self.run_with_tty_stderr("status")
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, rb"\rthe gateway answered HTTP 503; retrying: \d/2 s")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-60:])

    def test_progress__nothing_is_drawn_when_stderr_is_not_a_terminal(self):
        r = self.hb("regions", "big", "--source", "meta")
        self.assertOk(r)
        self.assertEqual(r.err, "")


if __name__ == "__main__":
    hbtest.main()
