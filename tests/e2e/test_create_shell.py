"""hbtab create through the hbase shell channel, tested with the emulator's Ruby stand-in."""
import os
import sys
import time

import hbtest
from lib.createbase import BINARY_KEYS, STANDIN, CreateTestBase, write_splits_file


def gone(pid, guard=60.0):
    """True once pid no longer runs (absent, or a zombie awaiting its reaper). A killed
    process may take a moment to be torn down; guard only bounds a hang."""
    deadline = time.monotonic() + guard
    while True:
        try:
            with open("/proc/%d/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


class CreateShellTest(CreateTestBase):
    def shell(self, *args, env=None, shell_cmd=STANDIN):
        e = {"HBEMU_CONTROL": self.emu.control_url}
        if env:
            e.update(env)
        return hbtest.run(["--rest", self.emu.rest, "--no-progress", "--hbase-shell", shell_cmd,
                           "create"] + list(args), env=e)

    def test_create__shell_binary_keys_verified(self):
        r = self.shell("t1", "--splits-file", self.splits_path, "--family",
                       "info:VERSIONS=3,COMPRESSION=snappy,NOTE=it's", "--attr",
                       "SPLIT_POLICY=org.apache.hadoop.hbase.regionserver.KeyPrefixRegionSplitPolicy",
                       "--attr", "KeyPrefixRegionSplitPolicy.prefix_length=2", "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertTrue(j["created"])
        self.assertTrue(j["verified"])
        self.assertEqual(j["via"], "shell")
        self.assertEqual(self.emu.boundaries("t1"), BINARY_KEYS)
        t = self.emu.table("t1")
        self.assertEqual(t["families"]["info"]["VERSIONS"], "3")
        self.assertEqual(t["families"]["info"]["COMPRESSION"], "SNAPPY")
        self.assertEqual(t["families"]["info"]["NOTE"], "it's")
        self.assertEqual(t["attrs"]["KeyPrefixRegionSplitPolicy.prefix_length"], "2")
        self.assertEqual(self.metadata("t1", "info")["N"], str(len(BINARY_KEYS) + 1))

    def test_create__auto_picks_shell_when_no_thrift(self):
        r = self.shell("t1", "--hex-splits", "4", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["via"], "shell")
        self.assertEqual([q for q in self.emu.requests() if q["server"] == "thrift"], [])

    def large_keys(self):
        # more than 1000 keys: the shell channel switches to SPLITS_FILE
        keys = set(BINARY_KEYS)
        for i in range(1200):
            keys.add(b"k%05d" % i)
            if i % 100 == 0:
                keys.add(b" k%05d " % i)
        return sorted(keys)

    def test_create__splits_file_for_large_sets_survives_strip_and_chomp(self):
        keys = self.large_keys()
        path = write_splits_file(keys, self.tmp)
        for strip, table in (("0", "chomp"), ("1", "strip")):
            r = self.shell(table, "--splits-file", path, "-o", "json",
                           env={"HBEMU_SHELL_STRIP": strip})
            self.assertOk(r)
            self.assertEqual(r.json()["regions"], len(keys) + 1)
            self.assertEqual(self.emu.boundaries(table), keys)
            # the shell stores the SPLITS_FILE path; the file was removed afterwards
            f = self.emu.table(table)["attrs"]["SPLITS_FILE"]
            self.assertFalse(os.path.exists(f))

    def test_create__shell_exit0_after_error_is_caught(self):
        # the namespace does not exist: the stand-in prints ERROR and exits 0
        r = self.shell("nons:t1", "--hex-splits", "4", "--wait", "2",
                       env={"HBEMU_SHELL_EXIT0": "1"})
        self.assertNotEqual(r.rc, 0, r)
        self.assertTrue(r.err.startswith("hbtab: "), r)
        self.assertIn("shell create 'nons:t1' failed (exit 0): Unknown namespace", r.err)
        self.assertIn("Unknown namespace", r.err)

    def test_create__shell_exit0_without_error_line_is_caught_by_verification(self):
        # a "shell" that exits 0 and does nothing at all
        cmd = "%s -c pass" % sys.executable
        r = self.shell("t1", "--hex-splits", "4", "--wait", "1", shell_cmd=cmd)
        self.assertEqual(r.rc, 1, r)
        self.assertIn("does not exist after the shell create", r.err)

    def test_create__shell_modern_error_line_gives_class_and_message(self):
        # 2.4.10+ print "ERROR <ExceptionClass>: <message>"; the message is reported, the
        # class named, and the missing table decides the failure
        r = self.shell("nons:t1", "--hex-splits", "4", "--wait", "1",
                       env={"HBEMU_SHELL_MODERN_ERRORS": "1"})
        self.assertFails(r, 4, r"shell create 'nons:t1' failed \(RuntimeError, exit 1\): "
                               r"Unknown namespace nons!")
        self.assertNotIn("ERROR RuntimeError", r.err)

    def test_create__shell_exit_1_after_a_clean_run_is_settled_by_the_read_back(self):
        # HBase 2.4.8 exits 1 after a clean run: no error line, the table is there and ours
        r = self.shell("t1", "--hex-splits", "4", "-o", "json", env={"HBEMU_SHELL_EXIT1": "1"})
        self.assertOk(r)
        j = r.json()
        self.assertTrue(j["created"])
        self.assertTrue(j["verified"])
        self.assertIn("failed (exit 1)", r.err)
        self.assertIn("reported no error, so the read-back decides", r.err)
        self.assertEqual(len(self.emu.boundaries("t1")), 3)

    def until_done(self, marker, run):
        """run(timeout) with the shell's --timeout doubled until the shell got through its
        script before it was killed (it made marker): a loaded machine needs a longer
        timeout, an idle one does not wait out a long one. Returns (result, timeout)."""
        timeout = 2
        while True:
            if os.path.exists(marker):
                os.unlink(marker)
            self.emu.clear_faults()
            self.emu.reset()
            self.emu.clear_requests()
            r = run(timeout)
            if os.path.exists(marker):
                return r, timeout
            self.assertLess(timeout, 256, "the shell never got through its script: %r" % r)
            timeout *= 2

    def test_create__shell_that_hangs_after_the_create_is_killed_and_read_back(self):
        done = os.path.join(self.tmp, "done")
        r, timeout = self.until_done(done, lambda t: self.shell(
            "t1", "--hex-splits", "4", "--timeout", str(t), "--wait", "1", "-o", "json",
            env={"HBEMU_SHELL_HANG": "1", "HBEMU_SHELL_DONE": done}))
        self.assertOk(r)
        self.assertTrue(r.json()["created"])
        self.assertTrue(r.json()["verified"])
        self.assertIn("timed out after %d s and was killed (some hbase shells hang"
                      % (timeout + 1), r.err)

    def test_create__shell_that_hangs_after_an_error_reports_the_error(self):
        done = os.path.join(self.tmp, "done")
        r, _ = self.until_done(done, lambda t: self.shell(
            "nons:t1", "--hex-splits", "4", "--timeout", str(t), "--wait", "1",
            env={"HBEMU_SHELL_HANG": "1", "HBEMU_SHELL_MODERN_ERRORS": "1",
                 "HBEMU_SHELL_DONE": done}))
        self.assertFails(r, 4, r"failed \(RuntimeError, signal \d+\): Unknown namespace nons!")

    def test_create__shell_race_is_not_harmful(self):
        self.emu.control("POST", "/control/race", {"table": "t1"})
        r = self.shell("t1", "--splits-file", self.splits_path, "-o", "json")
        self.assertOk(r)
        self.assertFalse(r.json()["created"])
        self.assertTrue(r.json()["verified"])
        self.assertEqual(self.emu.boundaries("t1"), BINARY_KEYS)

    def test_create__shell_race_lost_is_another_runs_table_in_every_release_form(self):
        # Another run's table appears while this run's shell creates it: the shell's create
        # fails with "Table already exists", printed as 2.4.17 prints it without JRuby's native
        # support (after the time padded to 80 columns, stty's complaint on stderr) or as
        # 2.0-2.3 let JRuby report it (stderr, "Class: message" and frames). Either way the
        # table is not this run's.
        t = "events_user_clicks_20261128"
        for env in ({"HBEMU_SHELL_NO_NATIVE": "1"}, {"HBEMU_SHELL_RELEASE": "2.3"},
                    {"HBEMU_SHELL_RELEASE": "2.0", "HBEMU_SHELL_NO_NATIVE": "1"},
                    {"HBEMU_SHELL_RELEASE": "2.6.1", "HBEMU_SHELL_NO_NATIVE": "1"}):
            self.emu.reset()
            self.emu.control("POST", "/control/race", {"table": t})
            r = self.shell(t, "--splits-file", self.splits_path, "-o", "json", "-v", env=env)
            self.assertOk(r)
            self.assertFalse(r.json()["created"], (env, r))
            self.assertTrue(r.json()["verified"], (env, r))
            self.assertEqual(self.emu.boundaries(t), BINARY_KEYS)

    def test_create__shell_error_of_2_0_to_2_3_quotes_jrubys_report(self):
        r = self.shell("nons:events_user_clicks_20261128", "--hex-splits", "4", "--wait", "1",
                       env={"HBEMU_SHELL_RELEASE": "2.3", "HBEMU_SHELL_NO_NATIVE": "1"})
        self.assertFails(r, 4, r"shell create 'nons:events_user_clicks_20261128' failed \(exit "
                               r"1\): RuntimeError: Unknown namespace nons!")
        self.assertNotIn("stty", r.err)
        self.assertNotIn("hirb.rb", r.err)

    def test_create__shell_failure_shows_output_and_leaves_no_script(self):
        probe = os.path.join(self.tmp, "probe.py")
        with open(probe, "w") as f:
            f.write("import os, stat, sys\n"
                    "p = sys.argv[1]\n"
                    "print('mode=%%o' %% stat.S_IMODE(os.stat(p).st_mode))\n"
                    "open(%r, 'w').write(p)\n"
                    "sys.exit(3)\n" % os.path.join(self.tmp, "path.txt"))
        r = self.shell("t1", "--hex-splits", "4", shell_cmd="%s '%s'" % (sys.executable, probe))
        self.assertEqual(r.rc, 4, r)
        self.assertIn("failed (exit 3): mode=600", r.err)
        with open(os.path.join(self.tmp, "path.txt")) as f:
            self.assertFalse(os.path.exists(f.read()))
        self.assertIsNone(self.emu.table("t1"))

    def test_create__shell_timeout_kills_the_process_group(self):
        pidfile = os.path.join(self.tmp, "grandchild.pid")
        script = os.path.join(self.tmp, "hang.py")
        with open(script, "w") as f:
            f.write("import subprocess, sys, time\n"
                    "g = subprocess.Popen(['sleep', '600'])\n"
                    "open(%r, 'w').write(str(g.pid))\n"
                    "time.sleep(600)\n" % pidfile)
        # the shell gets --timeout + --wait: long enough once it has written the pid file
        r, _ = self.until_done(pidfile, lambda t: self.shell(
            "t1", "--hex-splits", "4", "--wait", "1", "--timeout", str(t),
            shell_cmd="%s '%s'" % (sys.executable, script)))
        self.assertEqual(r.rc, 3, r)
        self.assertIn("timed out", r.err)
        with open(pidfile) as f:
            grandchild = int(f.read())
        self.assertTrue(gone(grandchild), "the shell's grandchild %d survived" % grandchild)

    def test_create__shell_command_quoting_and_missing_command(self):
        r = self.shell("t1", "--hex-splits", "4", shell_cmd="'/no such/hbase' shell -n")
        self.assertEqual(r.rc, 2, r)
        self.assertIn("/no such/hbase", r.err)
        r = self.shell("t1", "--hex-splits", "4", shell_cmd="hbase 'shell")
        self.assertEqual(r.rc, 2, r)
        self.assertIn("unterminated", r.err)


if __name__ == "__main__":
    hbtest.main()
