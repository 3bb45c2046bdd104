"""truncate never loses hbtab's metadata row (N, key space, rotate mark), whatever fails.

While the row is out of the table it is kept in a state file under $XDG_STATE_HOME/hbtab
(here HOME/.local/state/hbtab, HOME kept across a test's runs); a failure, a signal or
--deadline prints its cells, the file and the command that writes it back; a rerun writes it
back first. Faults come from the emulator (a 500 on the row's PUT, a lost truncateTable answer,
a 504) or from a shell stand-in that lingers after the truncate took effect."""
import base64
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.error
import urllib.request

import hbtest
from hbtest import EmulatorTest

T = "ns_events:user_clicks_20261128"
SPLITS = [b"4", b"8", b"c"]
ROWS = [b"1a", b"5b", b"9c", b"dd"]
META = {"cf:N": "4", "cf:keyspace": "hex{16}", "cf:rotate": "user_clicks_%Y%m%d",
        "cf:creator": "hbtab 0.1.0"}
STANDIN = "ruby %s -n" % hbtest.SHELL_STANDIN
GUARD = 300  # seconds: a guard against a hang only


def make_namespace(rest, ns):
    """Creates namespace ns through the REST gateway (201), unless it is there (a 4xx)."""
    req = urllib.request.Request("%s/namespaces/%s" % (rest, ns), data=b"", method="POST",
                                 headers={"X-XSRF-HEADER": "1"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
    except urllib.error.HTTPError as e:
        if e.code >= 500:
            raise


class TruncateKeepsMetadata(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.dir = tempfile.mkdtemp(prefix="hbtab-trunc-")
        make_namespace(self.emu.rest, T.split(":")[0])
        self.emu.create(T, splits=SPLITS, families=("cf",))
        st, body = self.emu.control("POST", "/control/put", {"table": T, "rows": [
            {"key": hbtest.b64(k), "cells": [{"column": hbtest.b64("cf:q"),
                                              "value": hbtest.b64(b"v" + k)}]}
            for k in ROWS] + [{"key": hbtest.b64("totalPartition"), "cells": [
                {"column": hbtest.b64(c), "value": hbtest.b64(v)} for c, v in META.items()]}]})
        self.assertEqual(st, 200, body)
        self.emu.clear_requests()

    def tearDown(self):
        self.emu.control("POST", "/control/release")
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        super().tearDown()

    # ------------------------------------------------------------ plumbing
    def argv(self, *args, shell=STANDIN):
        return [hbtest.HBTAB, "--rest", self.emu.rest, "--thrift", self.emu.thrift,
                "--no-progress", "--hbase-shell", shell] + list(args)

    def env(self):
        return hbtest.clean_env(self.home, {"HBEMU_CONTROL": self.emu.control_url})

    def run_hb(self, *args, shell=STANDIN):
        p = subprocess.run(self.argv(*args, shell=shell), capture_output=True, env=self.env(),
                           timeout=GUARD)
        return hbtest.Result(p.returncode, p.stdout, p.stderr)

    def state_files(self):
        return glob.glob(os.path.join(self.home, ".local", "state", "hbtab", "*"))

    def lingering_shell(self, seconds, then=""):
        """A shell that truncates, then stays (a JVM slow to exit, a hung connection), the
        first time it runs only; then is a shell command run after that first truncate."""
        path = os.path.join(self.dir, "lingering-shell")
        mark = os.path.join(self.dir, "lingered")
        with open(path, "w") as f:
            f.write("#!/bin/sh\nruby '%s' \"$@\"\nif [ ! -e '%s' ]; then\n: > '%s'\n%s\n"
                    "sleep %d\nfi\n" % (hbtest.SHELL_STANDIN, mark, mark, then, seconds))
        os.chmod(path, 0o755)
        return path + " -n"

    def present(self, key):
        return self.emu.rest_get("/%s/%s" % (T.replace(":", "%3A"), key.decode()))[0] == 200

    def rows_left(self):
        return [k for k in ROWS if self.present(k)]

    def assert_truncated_with_row(self):
        self.assertEqual(self.emu.metadata_row(T), META)
        self.assertEqual(self.rows_left(), [])
        self.assertEqual(self.emu.boundaries(T), SPLITS)
        self.assertEqual(self.state_files(), [], "the state file outlived the write-back")

    def assert_kept(self, err):
        """The state file holds the row exactly; stderr shows it and the command."""
        files = self.state_files()
        self.assertEqual(len(files), 1, err)
        st = os.stat(files[0])
        self.assertEqual(st.st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(os.path.dirname(files[0])).st_mode & 0o777, 0o700)
        with open(files[0]) as f:
            doc = json.load(f)
        self.assertEqual(doc["table"], T)
        self.assertEqual(doc["cluster"], self.emu.rest)
        self.assertEqual(base64.b64decode(doc["row"]), b"totalPartition")
        self.assertEqual({base64.b64decode(c["column"]).decode(): base64.b64decode(
            c["value"]).decode() for c in doc["cells"]}, META)
        # in the order HBase keeps the columns (bytes: 'N' sorts before 'c')
        self.assertIn("row 'totalPartition': cf:N='4' cf:creator='hbtab 0.1.0' "
                      "cf:keyspace='hex{16}' cf:rotate='user_clicks_%Y%m%d'\n", err)
        self.assertIn("kept in %s\n" % files[0], err)
        m = re.search(r"run the same command again: (.*)\n", err)
        self.assertIsNotNone(m, err)
        return m.group(1)

    def rerun_restores(self, command, recovered=True):
        """The printed command, run as a shell would: the row back first, then truncated.
        recovered None: either (the rerun says which, and its message agrees)."""
        self.emu.clear_faults()
        # the table took a write after the interrupted truncate
        self.emu.control("POST", "/control/put", {"table": T, "rows": [{
            "key": hbtest.b64("5x"), "cells": [{"column": hbtest.b64("cf:q"),
                                                "value": hbtest.b64("late")}]}]})
        p = subprocess.run(command + " -o json", shell=True, capture_output=True,
                           env=self.env(), timeout=GUARD)
        r = hbtest.Result(p.returncode, p.stdout, p.stderr)
        self.assertEqual(r.rc, 0, r)
        j = r.json()
        if recovered is None:
            recovered = j["metadata_recovered"]
        self.assertEqual((j["verified"], j["metadata_restored"], j["metadata_recovered"]),
                         (True, True, recovered), j)
        said = "had no metadata row: the one an interrupted truncate kept in"
        if recovered:
            self.assertIn(said, r.err)
        else:
            self.assertNotIn(said, r.err)
        self.assert_truncated_with_row()
        return j

    # ------------------------------------------------------------ the write-back
    def test_one_500_on_the_rows_write_back_is_retried(self):
        self.emu.fault(server="rest", method="PUT", path="^/ns_events%3Auser_clicks_20261128/",
                       kind="500", count=1)
        r = self.run_hb("truncate", T, "--yes", "--via", "shell", "--wait", "30")
        self.assertOk(r)
        self.assertIn("metadata row written back", r.out)
        puts = [q for q in self.emu.requests() if q["method"] == "PUT"]
        self.assertEqual([q["status"] for q in puts], [500, 200], puts)
        self.assert_truncated_with_row()

    def test_a_write_back_that_keeps_failing_leaves_the_row_in_a_state_file_and_a_rerun_restores_it(self):
        self.emu.fault(server="rest", method="PUT", path="^/ns_events%3Auser_clicks_20261128/",
                       kind="500", count=-1)
        r = self.run_hb("truncate", T, "--yes", "--via", "thrift2", "--wait", "30")
        self.assertFails(r, 4, "table '%s' was truncated, but its metadata row could not be "
                               "written back" % T)
        self.assertIsNone(self.emu.metadata_row(T))
        command = self.assert_kept(r.err)
        self.rerun_restores(command)

    # ------------------------------------------------------------ lost answers
    def test_a_lost_truncateTable_answer_is_settled_by_the_table_and_the_row_written_back(self):
        # the 5th Thrift2 call is truncateTable (isTableEnabled, disableTable, the wait's
        # isTableEnabled and isTableDisabled before it); the server truncates, the answer
        # is cut
        self.emu.fault(server="thrift", kind="reset_body", count=1, skip=4)
        r = self.run_hb("--retries", "0", "truncate", T, "--yes", "--via", "thrift2")
        self.assertOk(r)
        self.assertRegex(r.err, r"warning: thrift2 truncateTable: .*connection reset.*; table "
                                r"'%s' was found ENABLED with every region online and every "
                                r"region new: the truncate took effect" % T)
        self.assert_truncated_with_row()

    def test_a_timed_out_truncateTable_that_hbase_finishes_is_settled_and_the_row_written_back(self):
        # Admin.truncateTable's wait runs out while the master's procedure goes on: here the
        # emulator truncates at once and holds the answer until hbtab gives up
        self.emu.fault(server="thrift", kind="delay", until="gone", seconds=120, count=1,
                       skip=4)
        r = self.run_hb("--timeout", "1", "truncate", T, "--yes", "--via", "thrift2",
                        "--wait", "1")
        self.assertOk(r)
        self.assertIn("the truncate took effect", r.err)
        self.assert_truncated_with_row()

    def test_a_timed_out_disableTable_that_hbase_finishes_is_waited_for_and_the_truncate_goes_on(self):
        # the disable before truncateTable (the 2nd Thrift2 call) is done, its answer lost
        self.emu.fault(server="thrift", kind="delay", until="gone", seconds=120, count=1,
                       skip=1)
        r = self.run_hb("--timeout", "1", "truncate", T, "--yes", "--via", "thrift2",
                        "--wait", "3")
        self.assertOk(r)
        self.assert_truncated_with_row()

    def test_a_shell_that_fails_without_truncating_is_not_reported_as_a_truncate(self):
        r = self.run_hb("truncate", T, "--yes", "--via", "shell", "--wait", "5", shell="false")
        self.assertFails(r, 4, "table '%s' is ENABLED with the regions it had before: it was "
                               "not truncated" % T)
        self.assertEqual(self.rows_left(), ROWS)
        self.assertEqual(self.emu.metadata_row(T), META)
        self.assertEqual(self.state_files(), [], "a state file for a row that never left")

    def test_a_failed_truncate_that_leaves_the_table_disabled_says_so_and_a_rerun_recovers(self):
        self.emu.fault(server="thrift", kind="504", count=1, skip=4)
        r = self.run_hb("--retries", "0", "truncate", T, "--yes", "--via", "thrift2",
                        "--wait", "2")
        self.assertFails(r, 4, "thrift2 truncateTable: HTTP 504")
        self.assertIn("table '%s' is left DISABLED: its rows can be neither read nor written "
                      "until it is enabled" % T, r.err)
        self.assertIn("'hbtab enable %s'" % T, r.err)
        self.assertFalse(self.emu.table(T)["enabled"])
        command = self.assert_kept(r.err)
        # the row had not left the table: nothing to recover, the file's copy was the same
        j = self.rerun_restores(command, recovered=False)
        self.assertEqual(j["before"], "DISABLED")

    # ------------------------------------------------------------ signals and --deadline
    def test_deadline_after_hbase_truncated_prints_the_row_and_a_rerun_restores_it(self):
        # the deadline passes once HBase has truncated: the --deadline timer's signal
        # (SIGALRM), sent to hbtab by the shell right after the truncate, not by a clock
        r = self.run_hb("--deadline", "600", "truncate", T, "--yes", "--via", "shell",
                        shell=self.lingering_shell(120, "kill -ALRM $PPID"))
        self.assertFails(r, 4, r"^hbtab: deadline of 600 s passed \(--deadline\)")
        self.assertIsNone(self.emu.metadata_row(T))
        self.assertIn("truncate of table '%s' stopped before its metadata row was written back"
                      % T, r.err)
        command = self.assert_kept(r.err)
        self.assertNotIn("--deadline", command)
        self.rerun_restores(command)

    def test_sigterm_after_hbase_truncated_prints_the_row_and_a_rerun_restores_it(self):
        p = subprocess.Popen(self.argv("truncate", T, "--yes", "--via", "shell",
                                       shell=self.lingering_shell(120)),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env())
        try:
            hbtest.wait_for(lambda: self.emu.metadata_row(T) is None or p.poll() is not None,
                            "the truncate")
            self.assertIsNone(p.poll(), "hbtab ended before the signal")
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate(timeout=GUARD)
        except BaseException:
            p.kill()
            p.communicate()
            raise
        err = err.decode()
        self.assertEqual(p.returncode, 143, err)
        self.assertTrue(err.startswith("hbtab: terminated (SIGTERM)\n"), err)
        command = self.assert_kept(err)
        # a write-back the signal cut short may have landed before its answer came, or even
        # after hbtab ended (the request was on its way): then the rerun finds the row in the
        # table and has nothing to recover. Either way the row ends in the truncated table.
        self.rerun_restores(command, recovered=None)

    def test_sigterm_before_the_truncate_is_sent_leaves_no_state_file(self):
        # the disable that comes before truncateTable is held: the row is still in the table
        self.emu.fault(server="thrift", kind="hold", count=1, skip=1)
        p = subprocess.Popen(self.argv("truncate", T, "--yes", "--via", "thrift2"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env())
        try:
            hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] == 1
                            or p.poll() is not None, "the held disableTable")
            self.assertIsNone(p.poll(), "hbtab ended before the signal")
            self.assertEqual(len(self.state_files()), 1, "no state file before the truncate")
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate(timeout=GUARD)
        except BaseException:
            p.kill()
            p.communicate()
            raise
        self.assertEqual((p.returncode, err.decode()), (143, "hbtab: terminated (SIGTERM)\n"))
        self.assertEqual(self.state_files(), [])
        self.emu.control("POST", "/control/release")
        # the disable hbtab sent runs to its end; enabled again, the table has every row
        hbtest.wait_for(lambda: not self.emu.table(T)["enabled"], "the released disable")
        self.emu.control("POST", "/control/enable", {"table": T})
        self.assertEqual(self.rows_left(), ROWS)
        self.assertEqual(self.emu.metadata_row(T), META)

    # ------------------------------------------------------------ the state file itself
    def test_without_a_state_directory_a_table_with_a_metadata_row_is_not_truncated(self):
        env = self.env()
        del env["HOME"]  # as under some cron daemons; XDG_STATE_HOME unset too
        p = subprocess.run(self.argv("truncate", T, "--yes", "--via", "thrift2"),
                           capture_output=True, env=env, timeout=GUARD)
        r = hbtest.Result(p.returncode, p.stdout, p.stderr)
        self.assertFails(r, 2, "refusing to truncate table '%s': its metadata row cannot be "
                               "kept while it is out of the table: no state directory" % T)
        self.assertEqual(self.rows_left(), ROWS)
        self.assertTrue(self.emu.table(T)["enabled"])
        # a table without one has nothing to keep: truncated as ever
        self.emu.create("ns_events:no_metadata_row", splits=SPLITS)
        p = subprocess.run(self.argv("truncate", "ns_events:no_metadata_row", "--yes"),
                           capture_output=True, env=env, timeout=GUARD)
        self.assertEqual(p.returncode, 0, p)

    def test_a_rerun_keeps_a_row_written_since_over_the_state_files(self):
        self.emu.fault(server="rest", method="PUT", path="^/ns_events%3Auser_clicks_20261128/",
                       kind="500", count=-1)
        r = self.run_hb("truncate", T, "--yes", "--via", "thrift2")
        self.assertEqual(r.rc, 4, r)
        self.emu.clear_faults()
        r = self.run_hb("meta", "set", T, "5", "--force")
        self.assertOk(r)
        r = self.run_hb("truncate", T, "--yes", "--via", "thrift2")
        self.assertOk(r)
        self.assertIn("has a metadata row other than the one kept in", r.err)
        self.assertEqual(self.emu.metadata_row(T), {"cf:N": "5"})
        self.assertEqual(self.state_files(), [])

    def test_a_damaged_state_file_stops_the_truncate_before_anything_is_sent(self):
        self.emu.fault(server="rest", method="PUT", path="^/ns_events%3Auser_clicks_20261128/",
                       kind="500", count=-1)
        r = self.run_hb("truncate", T, "--yes", "--via", "thrift2")
        self.assertEqual(r.rc, 4, r)
        self.emu.clear_faults()
        path = self.state_files()[0]
        with open(path, "w") as f:
            f.write("{\"cluster\": ")
        self.emu.control("POST", "/control/put", {"table": T, "rows": [{
            "key": hbtest.b64("5x"), "cells": [{"column": hbtest.b64("cf:q"),
                                                "value": hbtest.b64("late")}]}]})
        r = self.run_hb("truncate", T, "--yes", "--via", "thrift2")
        self.assertFails(r, 2, "the state file '%s' cannot be used: it is not JSON" % path)
        self.assertTrue(self.emu.table(T)["enabled"])
        self.assertTrue(self.present(b"5x"), "the table was truncated")
        self.assertEqual(self.state_files(), [path], "the damaged file was dropped")


if __name__ == "__main__":
    hbtest.main()
