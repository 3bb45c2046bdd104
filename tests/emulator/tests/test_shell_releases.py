# -*- coding: utf-8 -*-
"""The shell stand-in speaks each release's output (HBEMU_SHELL_RELEASE, HBEMU_SHELL_NO_NATIVE):
list_snapshots with and without the TTL column, the formatter's wrap at a terminal's width,
the error forms of 2.0-2.3 and 2.4+, and the line of Ruby hbtab sends to ask the shell's Admin
for a snapshot (@shell.admin.list_snapshot, java.util.regex.Pattern.quote)."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from emu_harness import SHELL, EmuTestCase

TABLE = "events_user_clicks_20261128"
SNAP = TABLE + "-20261128T185003Z"  # 44 characters: wider than a 20-column first column

# The line hbtab's snapshot step sends (rest/snapshot.c), for the name NAME.
ASK = ("hbtab_name = 'NAME'; hbtab_list = @shell.admin.list_snapshot("
       "java.util.regex.Pattern.quote(hbtab_name)).select { |x| x.getName == hbtab_name }; "
       "hbtab_list.each { |x| puts \"HBTAB-SNAPSHOT\\t#{x.getName}\\t#{x.getTableNameAsString}\" }; "
       "puts \"HBTAB-SNAPSHOTS\\t#{hbtab_list.size}\"\n")


@unittest.skipUnless(shutil.which("ruby"), "ruby not installed")
class ShellReleases(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.dir = tempfile.mkdtemp()
        self.emu.create(TABLE)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_script(self, text, **env):
        path = os.path.join(self.dir, "script.rb")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        e = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
             "HBEMU_CONTROL": "http://127.0.0.1:%d" % self.emu.control_port}
        e.update(env)
        return subprocess.run([SHELL, "-n", path], env=e, capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL)

    def snapshots(self, *specs):
        """specs: (name, ttl seconds or None)."""
        lines = []
        for name, ttl in specs:
            opts = ", {TTL => %d}" % ttl if ttl is not None else ""
            lines.append("snapshot '%s', '%s'%s\n" % (TABLE, name, opts))
        p = self.run_script("".join(lines) + "exit\n")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def listing(self, **env):
        p = self.run_script("list_snapshots\nexit\n", **env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return p.stdout.decode().splitlines()

    def test_2_4_list_snapshots_without_a_terminal_is_one_line_per_snapshot(self):
        self.snapshots((SNAP, None))
        out = self.listing()
        self.assertEqual(out[0], "SNAPSHOT  TABLE + CREATION TIME")
        self.assertRegex(out[1], r"^ %s %s \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\)$"
                         % (SNAP, TABLE))
        self.assertEqual(out[2], "1 row(s)")

    def test_2_4_without_native_support_wraps_names_at_the_first_column(self):
        # formatter.rb: a width of 80, the first column a quarter of it, the rest cut
        self.snapshots((SNAP, None))
        out = self.listing(HBEMU_SHELL_NO_NATIVE="1")
        self.assertEqual(out[0], "SNAPSHOT".ljust(20) + "  " + "TABLE + CREATION TIME".ljust(58))
        self.assertEqual(out[1][:22], " " + SNAP[:20] + " ")
        self.assertTrue(out[1][22:].startswith(TABLE + " ("), out[1])
        self.assertEqual(out[2], " " + SNAP[20:40] + " " + " " * 58)
        self.assertEqual(out[3], " " + SNAP[40:].ljust(20) + " " + " " * 58)
        self.assertEqual(out[4], "1 row(s)")
        self.assertEqual(len(out[5]), 80)  # "Took N seconds" padded to the width
        self.assertTrue(out[5].startswith("Took "))

    def test_ttl_column_from_2_5_9_and_2_6_1_on_with_forever_seconds_and_expired(self):
        self.snapshots((SNAP, None), ("evt.day", 86400), ("evt.gone", 1))
        time.sleep(1.2)  # evt.gone: creation + 1 s has passed
        for release in ("2.5.9", "2.5", "2.6.1", "2.6", "3.0"):
            out = self.listing(HBEMU_SHELL_RELEASE=release)
            self.assertEqual(out[0], "SNAPSHOT  TABLE + CREATION TIME + TTL(Sec)", release)
            rows = {ln.split()[0]: ln for ln in out[1:4]}
            self.assertTrue(rows[SNAP].endswith(") FOREVER"), rows)
            self.assertTrue(rows["evt.day"].endswith(") 86400"), rows)
            self.assertTrue(rows["evt.gone"].endswith(") 1 (Expired) "), rows)
            self.assertEqual(out[4], "3 row(s)")
        for release in ("2.4", "2.5.8", "2.6.0", "2.3"):
            out = self.listing(HBEMU_SHELL_RELEASE=release)
            self.assertEqual(out[0], "SNAPSHOT  TABLE + CREATION TIME", release)
            self.assertTrue(all(ln.endswith(")") for ln in out[1:4]), out)

    def test_2_6_1_without_native_support_wraps_both_columns(self):
        self.snapshots((SNAP, None))
        out = self.listing(HBEMU_SHELL_RELEASE="2.6.1", HBEMU_SHELL_NO_NATIVE="1")
        info = "%s (" % TABLE
        self.assertTrue(out[1][22:].startswith(info))
        # the second column (58 wide) cuts "... +0000) FOREVER" too
        self.assertIn("FOREVER", out[1][22:] + out[2][22:])
        self.assertNotIn("FOREVER", out[1])

    def test_hbtabs_line_answers_the_exact_name_in_every_release(self):
        self.snapshots((SNAP, None), ("evt.a", None), ("evtXa", None))
        for release in ("2.0", "2.3", "2.4", "2.5.8", "2.5.9", "2.6.0", "2.6.1", "3.0"):
            for native in ("0", "1"):
                p = self.run_script(ASK.replace("NAME", SNAP) + ASK.replace("NAME", "evt.a") +
                                    ASK.replace("NAME", "nope") + "exit\n",
                                    HBEMU_SHELL_RELEASE=release, HBEMU_SHELL_NO_NATIVE=native)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(p.stdout.decode().splitlines(), [
                    "HBTAB-SNAPSHOT\t%s\t%s" % (SNAP, TABLE), "HBTAB-SNAPSHOTS\t1",
                    # '.' is not a wildcard: evtXa is not evt.a
                    "HBTAB-SNAPSHOT\tevt.a\t%s" % TABLE, "HBTAB-SNAPSHOTS\t1",
                    "HBTAB-SNAPSHOTS\t0"], (release, native))

    def test_error_forms_per_release(self):
        create = "create '%s', 'cf'\nexit\n" % TABLE
        p = self.run_script(create)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"secondsERROR RuntimeError: Table already exists: %s!" % TABLE.encode(),
                      p.stdout)
        p = self.run_script(create, HBEMU_SHELL_NO_NATIVE="1")
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stdout.decode(), r"Took [0-9.]+ seconds +ERROR RuntimeError: Table "
                                            r"already exists")
        self.assertIn(b"stty: 'standard input': Inappropriate ioctl for device", p.stderr)
        # 2.0-2.3 -n: JRuby's report on stderr, nothing on stdout but the unended time
        p = self.run_script(create, HBEMU_SHELL_RELEASE="2.3")
        self.assertEqual(p.returncode, 1)
        self.assertNotIn(b"ERROR", p.stdout)
        err = p.stderr.decode().splitlines()
        self.assertEqual(err[0], "RuntimeError: Table already exists: %s!" % TABLE)
        self.assertRegex(err[1], r"^ +\S+ at \S+:\d+$")
        # a Java exception: 2.4+ add their "java exception" note on stderr
        p = self.run_script("snapshot 'no_such_table_20261128', 'x1'\nexit\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException: "
                      b"org.apache.hadoop.hbase.snapshot.SnapshotCreationException: Table "
                      b"'no_such_table_20261128' doesn't exist", p.stdout)
        self.assertIn(b"java exception", p.stderr)

    def test_script_without_exit_ends_in_jrubys_error_without_native_support(self):
        p = self.run_script("list_snapshots\n", HBEMU_SHELL_NO_NATIVE="1")
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stderr.decode().rstrip().endswith(
            "<main> at classpath:/jar-bootstrap.rb:223"), p.stderr)
        p = self.run_script("list_snapshots\nexit\n", HBEMU_SHELL_NO_NATIVE="1")
        self.assertEqual(p.returncode, 0)
        p = self.run_script("list_snapshots\n")
        self.assertEqual(p.returncode, 0)


if __name__ == "__main__":
    unittest.main()
