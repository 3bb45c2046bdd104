"""hbtab snapshot against the emulator and the shell stand-in: names, refusals, output."""
import os
import pty
import re
import select
import shutil
import tempfile
import time

import hbtest


class Snapshot(hbtest.EmulatorTest):
    def snap(self, *args, shell=None, env=None):
        sh = shell or "ruby %s -n" % hbtest.SHELL_STANDIN
        e = {"HBEMU_CONTROL": self.emu.control_url}
        e.update(env or {})
        return self.hb("--hbase-shell", sh, *args, env=e)

    def snapshots(self):
        return {x["name"]: x["table"] for x in self.emu.control("GET", "/control/snapshots")[1]}

    def test_snapshot__default_name_maps_the_namespace_and_says_how_to_restore(self):
        self.emu.create("t1", [])
        r = self.snap("snapshot", "t1")
        self.assertOk(r)
        name = re.fullmatch(r"snapshot '(t1-\d{8}T\d{6}Z)' of t1 taken; restore it with the "
                            r"hbase shell's clone_snapshot '\1', 't1'\n", r.out).group(1)
        self.assertEqual(self.snapshots(), {name: "t1"})
        # -q: the name alone, the one handle that restores the table
        self.assertEqual(self.snap("-q", "snapshot", "t1", "again").out, "again\n")
        self.assertOk(self.hb("create", "ns1:ev", "--hex-splits", "2", "--via", "thrift2",
                              "--create-namespace"))
        r = self.snap("-o", "json", "snapshot", "ns1:ev")
        self.assertOk(r)
        self.assertRegex(r.json()["snapshot"], r"^ns1-ev-\d{8}T\d{6}Z$")
        self.assertEqual(self.snapshots()[r.json()["snapshot"]], "ns1:ev")

    def test_snapshot__bad_name_missing_table_and_name_in_use(self):
        self.emu.create("t2", [])
        for bad in ("bad:name", ".x", "x y", ""):
            self.assertFails(self.snap("snapshot", "t2", bad), 2, r"snapshot name")
        self.assertFails(self.snap("snapshot", "nope"), 4, r"table 'nope' not found")
        self.assertOk(self.snap("snapshot", "t2", "s2"))
        r = self.snap("snapshot", "t2", "s2")
        self.assertFails(r, 4, r"SnapshotExistsException: Snapshot 's2' already stored")
        # a shell that goes on after the error lists the older s2: still not this run's
        r = self.snap("snapshot", "t2", "s2", env={"HBEMU_SHELL_EXIT0": "1"})
        self.assertFails(r, 4, r"Snapshot 's2' already stored")
        self.assertFails(self.snap("snapshot", "hbase:meta"), 5)

    def test_snapshot__a_shell_that_lists_nothing_is_not_a_snapshot(self):
        self.emu.create("t3", [])
        r = self.snap("snapshot", "t3", shell="/bin/true")
        self.assertFails(r, 4, r"the shell printed no listing of snapshots")
        self.assertEqual(self.snapshots(), {})

    def test_drop__snapshot_failure_keeps_the_table_and_sends_no_delete(self):
        self.emu.create("t4", [])
        self.assertOk(self.snap("snapshot", "t4", "taken"))
        # a shell that runs the script but whose snapshot fails: the listing never shows it
        r = self.snap("drop", "t4", "--yes", "--snapshot", shell="/bin/false")
        self.assertFails(r, 4, r"^hbtab: table 't4' not dropped: shell snapshot")
        self.assertIn("t4", [t["name"] for t in self.emu.state()["tables"]])
        self.assertEqual([x for x in self.emu.requests() if x["method"] == "DELETE"], [])
        r = self.snap("-o", "json", "drop", "t4", "--yes", "--snapshot")
        self.assertOk(r)
        self.assertTrue(r.json()["dropped"])
        self.assertEqual(self.snapshots()[r.json()["snapshot"]], "t4")

    # Every release's shell, with and without JRuby's native support (its formatter then lays
    # out for an 80-column terminal): the snapshot of a long name is proven the same way.
    RELEASES = ("2.0", "2.3", "2.4", "2.5.8", "2.5.9", "2.6.0", "2.6.1", "3.0")

    def test_snapshot__long_names_are_proven_with_every_release_and_terminal(self):
        tables = ["events_user_clicks_20261128", "analytics_ns:events_user_clicks_20261128",
                  "events_user_clicks_20261128_".ljust(200, "x")]
        self.assertOk(self.hb("create", tables[1], "--hex-splits", "2", "--via", "thrift2",
                              "--create-namespace"))
        for t in (tables[0], tables[2]):
            self.emu.create(t, [b"5"])
        n = 0
        for release in self.RELEASES:
            for native in ("0", "1"):
                for t in tables:
                    n += 1
                    name = "%s.v%d" % (t.replace(":", "-")[:200], n)
                    r = self.snap("-o", "json", "snapshot", t, name,
                                  env={"HBEMU_SHELL_RELEASE": release,
                                       "HBEMU_SHELL_NO_NATIVE": native})
                    self.assertOk(r, (release, native, r))
                    self.assertEqual(r.json()["snapshot"], name)
                    self.assertEqual(self.snapshots()[name], t)

    def test_drop__with_snapshot_of_a_long_name_with_every_release(self):
        for i, release in enumerate(self.RELEASES):
            t = "events_user_clicks_2026112%d" % i
            self.emu.create(t, [b"5"])
            r = self.snap("-o", "json", "drop", t, "--yes", "--snapshot",
                          env={"HBEMU_SHELL_RELEASE": release, "HBEMU_SHELL_NO_NATIVE": "1"})
            self.assertOk(r)
            self.assertTrue(r.json()["dropped"], r)
            self.assertRegex(r.json()["snapshot"], r"^%s-\d{8}T\d{6}Z$" % t)
            self.assertNotIn(t, [x["name"] for x in self.emu.state()["tables"]])

    def test_snapshot__a_failed_step_says_why_in_every_release(self):
        # the shell's own message, never a stack frame or stty's complaint
        for release in self.RELEASES:
            for native in ("0", "1"):
                env = {"HBEMU_SHELL_RELEASE": release, "HBEMU_SHELL_NO_NATIVE": native}
                self.emu.create("events_user_clicks_20261128", [])
                self.assertOk(self.snap("snapshot", "events_user_clicks_20261128", "evt.taken",
                                        env=env))
                r = self.snap("snapshot", "events_user_clicks_20261128", "evt.taken", env=env)
                self.assertFails(r, 4, r"failed \(.*exit 1\): .*Snapshot 'evt.taken' already "
                                       r"stored on the filesystem")
                self.assertNotIn("stty", r.err)
                self.assertNotIn(" at ", r.err.split("): ", 1)[1])
                self.emu.reset()

    def test_snapshot__at_a_terminal_a_shell_that_probes_it_does_not_hang(self):
        # hbtab run at a terminal (its controlling terminal); the shell, without JRuby's
        # native support, lets jline set the terminal's modes with stty, which stops a
        # process outside the terminal's foreground group (SIGTTOU): the shell step must not
        # share hbtab's terminal (seen from 2.4.17: the step hung until killed).
        self.emu.create("events_user_clicks_20261128", [])
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.addCleanup(shutil.rmtree, home, True)
        env = hbtest.clean_env(home, {"HBEMU_CONTROL": self.emu.control_url,
                                      "HBEMU_SHELL_NO_NATIVE": "1"})
        argv = [hbtest.HBTAB, "--rest", self.emu.rest, "--no-progress", "--timeout", "60",
                "--hbase-shell", "ruby %s -n" % hbtest.SHELL_STANDIN, "snapshot",
                "events_user_clicks_20261128", "evt.at.terminal"]
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        out = b""
        deadline = time.monotonic() + 600  # a guard against hangs, not a speed check
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 1.0)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # EIO: hbtab and its children are gone
                    break
                if not chunk:
                    break
                out += chunk
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, out)
        self.assertIn(b"snapshot 'evt.at.terminal' of events_user_clicks_20261128 taken", out)
        self.assertEqual(self.snapshots()["evt.at.terminal"], "events_user_clicks_20261128")


if __name__ == "__main__":
    hbtest.main()
