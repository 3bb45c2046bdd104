"""A run that would never end is ended, and cleans up on the way out: --deadline (the flag,
HBTAB_DEADLINE, the config file) stops an endless scan with exit 4 and deletes its scanner,
a rotate run it stops releases its lock, and a closed stderr does not keep the scanner
open."""
import os
import shutil
import subprocess
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest
from lib import fakehttp
from lib.fakehttp import EndlessScanner
from lib.rows import put_rows


class ClosedStderrDeletesTheScanner(EmulatorTest):
    """With stderr a closed pipe (hbtab -v ... 2>&1 | head -3) the open REST scanner is
    still deleted: the clean-up's own trace writes must not end it."""

    def setUp(self):
        super().setUp()
        self.emu.create("samp")
        put_rows(self.emu, "samp", [b"user%05d" % i for i in range(500)], column=b"cf:a")

    def test_verbose_trace_into_a_closed_pipe_leaves_no_scanner_open(self):
        # The first scanner GET is held: a scanner is open when the pipe closes.
        self.emu.fault(server="rest", method="GET", path=r"/samp/scanner/", kind="hold")
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            rd, wr = os.pipe()
            p = subprocess.Popen([hbtest.HBTAB, "-v", "--rest", self.emu.rest, "splits",
                                  "--sampled-splits", "4", "--sample-table", "samp"],
                                 stdout=subprocess.DEVNULL, stderr=wr,
                                 env=hbtest.clean_env(home))
            os.close(wr)
            try:
                hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] == 1,
                                "the scanner GET to be held")
                self.assertEqual(len(self.emu.control("GET", "/control/scanners")[1]), 1)
                os.close(rd)  # the reader goes away, as head does after its lines
                rd = None
                self.emu.control("POST", "/control/release")
                rc = p.wait(120)
            finally:
                if rd is not None:
                    os.close(rd)
                if p.poll() is None:
                    p.kill()
                    p.wait()
        finally:
            shutil.rmtree(home, ignore_errors=True)
        self.assertEqual(rc, 141)
        self.assertEqual(self.emu.control("GET", "/control/scanners")[1], [])
        deletes = [q for q in self.emu.requests()
                   if q["method"] == "DELETE" and "/scanner/" in q["path"]]
        self.assertEqual(len(deletes), 1, self.emu.requests())


class DeadlineEndsAHungScan(OfflineTest):
    """--deadline SEC (global, also HBTAB_DEADLINE and the config file) ends a run that
    would never end: the scanner is deleted and the exit status is 4."""

    @classmethod
    def setUpClass(cls):
        cls.srv = fakehttp.Server(EndlessScanner)
        cls.url = cls.srv.url

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def setUp(self):
        EndlessScanner.seen = []

    def check_stopped(self, r):
        self.assertFails(r, 4, r"deadline of 3 s passed")
        self.assertIn("DELETE /t/scanner/s1", EndlessScanner.seen)
        self.assertGreater(len([s for s in EndlessScanner.seen if s.startswith("GET")]), 1)

    # 3 s: far more than reaching the scanner takes, even under a sanitizer on a busy machine
    def test_deadline_flag_stops_an_endless_scanner_and_deletes_it(self):
        self.check_stopped(self.hb("--rest", self.url, "--deadline", "3", "splits",
                                   "--sampled-splits", "2", "--sample-table", "t",
                                   "--sample-rows", "100"))

    def test_deadline_from_the_environment_and_the_config_file(self):
        self.check_stopped(self.hb("--rest", self.url, "splits", "--sampled-splits", "2",
                                   "--sample-table", "t", env={"HBTAB_DEADLINE": "3"}))
        EndlessScanner.seen = []
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            os.makedirs(os.path.join(home, ".config", "hbtab"))
            with open(os.path.join(home, ".config", "hbtab", "config"), "w") as f:
                f.write("[default]\ndeadline = 3\n")
            self.check_stopped(self.hb("--rest", self.url, "splits", "--sampled-splits", "2",
                                       "--sample-table", "t", home=home))
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def test_a_bad_deadline_is_bad_input(self):
        for v in ("x", "-1", "1e99", ""):
            self.assertFails(self.hb("--deadline", v, "status"), 2, r"--deadline")


class DeadlineReleasesTheRotateLock(EmulatorTest):
    """A rotate run stopped by --deadline releases its lock: the next run is not
    refused (exit 5) but does its work."""

    def test_rotate_stopped_by_the_deadline_does_not_hold_the_lock(self):
        lock = os.path.join(self.emu.tmp, "rotate.lock")
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        line = ["rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2", "--now", "2026-11-01",
                "--ahead", "0", "--retain", "1", "--lock", lock, "--wait", "3600"]
        r = self.hb("--deadline", "1", *line)
        self.assertFails(r, 4, r"deadline of 1 s passed")
        self.emu.control("POST", "/control/open-delay", {"seconds": 0})
        self.emu.control("POST", "/control/open", {"table": "ev_20261101"})
        r = self.hb(*line)
        self.assertOk(r)


if __name__ == "__main__":
    hbtest.main()
