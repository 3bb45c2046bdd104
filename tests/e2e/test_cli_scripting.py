"""Behaviour an operator can script (cron, pipelines): -q, colour, exit statuses, stdout
failures, configuration errors that name their source, JSON errors, drop and tables options."""
import os
import shutil
import subprocess
import tempfile
import time

import hbtest
from hbtest import EmulatorTest, OfflineTest

# No reachable server: a command that sent anything would fail with exit 3 (network).
DEAD_REST = ["--rest", "http://127.0.0.1:9", "--timeout", "2", "--retries", "0"]

# Seconds after which a command counts as hung.
HANG_GUARD = 60

UNHEALTHY_SET = ["audit", "--hex-splits", "4", "--keyspace", "dec{4}"]


def run_raw(args, **popen):
    """Runs hbtab with the given stdio arrangement; returns (rc, stderr text)."""
    home = tempfile.mkdtemp(prefix="hbtab-home-")
    try:
        p = subprocess.run([hbtest.HBTAB] + args, env=hbtest.clean_env(home),
                           stderr=subprocess.PIPE, timeout=HANG_GUARD, **popen)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return p.returncode, p.stderr.decode("utf-8", "replace")


class StdoutFailures(OfflineTest):
    def test_stdout__full_disk_is_one_status_with_a_message(self):
        with open("/dev/full", "wb") as full:
            rc, err = run_raw(["splits", "--hex-splits", "10"], stdout=full)
        self.assertEqual(rc, 141, err)
        self.assertRegex(err, "^hbtab: cannot write to standard output: No space left")

    def test_stdout__failure_is_not_hidden_behind_findings(self):
        r = self.hb(*UNHEALTHY_SET)
        self.assertEqual(r.rc, 1, repr(r))  # findings when stdout works
        with open("/dev/full", "wb") as full:
            rc, err = run_raw(UNHEALTHY_SET, stdout=full)
        self.assertEqual(rc, 141, err)

    def test_stdout__closed_descriptor_is_reported_not_reused(self):
        rc, err = run_raw(["splits", "--hex-splits", "10"], stdout=None,
                          preexec_fn=lambda: os.close(1))
        self.assertEqual(rc, 141, err)
        self.assertIn("cannot write to standard output: Bad file descriptor", err)

    def test_stdout__closed_pipe_is_the_same_status_without_a_message(self):
        with tempfile.TemporaryDirectory() as home:
            p = subprocess.Popen([hbtest.HBTAB, "splits", "--hex-splits", "200000"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=hbtest.clean_env(home))
            p.stdout.readline()
            p.stdout.close()
            err = p.stderr.read().decode()
            p.stderr.close()
            self.assertEqual(p.wait(timeout=HANG_GUARD), 141)
        self.assertEqual(err, "")


class LocalFilesAndConfig(OfflineTest):
    def test_missing_local_files_are_bad_input_before_any_request(self):
        for flag in ("--cacert", "--cert", "--key"):
            with self.subTest(flag=flag):
                extra = ["--cert", "/etc/hostname"] if flag == "--key" else \
                        ["--key", "/etc/hostname"] if flag == "--cert" else []
                r = self.hb(*(DEAD_REST + extra + [flag, "/nonexistent/x.pem", "tables"]))
                self.assertFails(r, 2, r"%s '/nonexistent/x\.pem' \(No such file" % flag)
        r = self.hb(*(DEAD_REST + ["create", "t", "--splits-file", "/nonexistent/s"]))
        self.assertFails(r, 2, "/nonexistent/s")
        r = self.hb(*(DEAD_REST + ["tables"]), env={"HBTAB_CACERT": "/nonexistent/ca"})
        self.assertFails(r, 2, "cacert '/nonexistent/ca' from HBTAB_CACERT")

    def test_config__environment_errors_name_the_variable(self):
        r = self.hb("tables", env={"HBTAB_TIMEOUT": "abc"})
        self.assertFails(r, 2, "invalid timeout 'abc' from HBTAB_TIMEOUT")
        r = self.hb("tables", env={"HBTAB_RETRIES": "-1"})
        self.assertFails(r, 2, "invalid retries '-1' from HBTAB_RETRIES")
        r = self.hb("--timeout", "abc", "tables")
        self.assertFails(r, 2, "invalid --timeout 'abc'")

    def write_config(self, d, data):
        path = os.path.join(d, "config")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_config__file_errors_name_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.write_config(d, b"[default]\nrest = http://127.0.0.1:9\ntimeout = soon\n")
            r = self.hb("tables", env={"HBTAB_CONFIG": path})
            self.assertFails(r, 2, "%s:3: invalid timeout 'soon'" % path)

    def test_config__bom_crlf_and_quotes_are_read(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.write_config(
                d, b"\xef\xbb\xbf[default]\r\nrest = \"http://127.0.0.1:9\"\r\n"
                   b"retries = '0'\r\ntimeout = 2\r\n")
            r = self.hb("tables", env={"HBTAB_CONFIG": path})
            # the URL was read without its quotes: the request went to the dead port
            self.assertFails(r, 3, r"http://127\.0\.0\.1:9/")

    def test_config__fifo_is_refused_without_blocking(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config")
            os.mkfifo(path)
            t = time.monotonic()
            r = self.hb("tables", env={"HBTAB_CONFIG": path})
            self.assertLess(time.monotonic() - t, HANG_GUARD)
            self.assertFails(r, 2, "is not a regular file")


class JsonErrorsAndColour(OfflineTest):
    def test_json__errors_are_also_a_json_object_on_stdout(self):
        r = self.hb(*(DEAD_REST + ["-o", "json", "tables"]))
        self.assertFails(r, 3)
        doc = r.json()
        self.assertEqual(doc["exit"], 3)
        self.assertIn("connection refused", doc["error"])
        r = self.hb("-o", "json", "describe")
        self.assertFails(r, 2, "missing TABLE")
        self.assertEqual(r.json(), {"error": "missing TABLE", "exit": 2})
        r = self.hb("tables", "-o", "json", "a", "b")
        self.assertEqual(r.json()["exit"], 2)

    def test_json__findings_are_the_document_not_an_error(self):
        r = self.hb("-o", "json", *UNHEALTHY_SET)
        self.assertEqual(r.rc, 1, repr(r))
        self.assertIn("healthy", r.json())
        self.assertNotIn("error", r.json())

    def test_color__always_never_and_no_color(self):
        healthy = ["audit", "--hex-splits", "4", "--keyspace", "hex{8}"]
        r = self.hb("--color", "always", *healthy)
        self.assertOk(r)
        self.assertIn("\x1b[32mhealthy\x1b[0m", r.out)
        r = self.hb("--color", "always", *UNHEALTHY_SET)
        self.assertIn("\x1b[31munreachable\x1b[0m:", r.out)
        for args, env in ((["--color", "never"], None), ([], None), ([], {"NO_COLOR": "1"})):
            with self.subTest(args=args, env=env):
                r = self.hb(*(args + healthy), env=env)
                self.assertOk(r)
                self.assertNotIn("\x1b", r.out)

    def test_hot_options_without_hotspots_say_so(self):
        for flag, val in (("--hot-factor", "3"), ("--hot-min-writes", "5"), ("--window", "1")):
            with self.subTest(flag=flag):
                self.assertFails(self.hb(*(DEAD_REST + ["audit", "t1", flag, val])), 2,
                                 "%s needs --hotspots" % flag)

    def test_create_print_json_has_the_create_fields(self):
        r = self.hb("-o", "json", "create", "t1", "--hex-splits", "4", "--via", "print")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual((doc["table"], doc["created"], doc["verified"], doc["regions"],
                          doc["via"]), ("t1", False, False, 4, "print"))


class QuietAndDrop(EmulatorTest):
    def test_quiet__changes_print_nothing_data_still_prints(self):
        r = self.hb("-q", "create", "t1", "--hex-splits", "4", "--via", "thrift2")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        r = self.hb("-q", "meta", "set", "t1", "4")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        r = self.hb("-q", "meta", "get", "t1")
        self.assertOk(r)
        self.assertIn("N\t4", r.out)
        r = self.hb("-q", "drop", "t1", "--yes")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        r = self.hb("create", "t2", "--hex-splits", "2", "--via", "thrift2")
        self.assertOk(r)
        self.assertIn("created table 't2'", r.out)

    def test_drop__dry_run_and_if_exists(self):
        self.emu.create("t1", [b"m"])
        self.emu.clear_requests()
        r = self.hb("drop", "t1", "--dry-run")
        self.assertOk(r)
        self.assertEqual(r.out, "would drop t1\n")
        self.assertEqual([q["method"] for q in self.emu.requests()], ["GET"])
        self.assertFails(self.hb("drop", "nope", "--dry-run"), 4, "not found")
        r = self.hb("drop", "nope", "--yes", "--if-exists")
        self.assertOk(r)
        self.assertIn("does not exist", r.out)
        r = self.hb("-o", "json", "drop", "nope", "--yes", "--if-exists")
        self.assertEqual(r.json(), {"table": "nope", "dropped": False, "existed": False,
                                    "dry_run": False})
        self.assertFails(self.hb("drop", "nope", "--yes"), 4, "not found")
        r = self.hb("-o", "json", "drop", "t1", "--yes")
        self.assertOk(r)
        self.assertEqual(r.json()["dropped"], True)

    def test_tables__glob_filter_text_and_json(self):
        for t in ("events_1", "events_2", "users"):
            self.emu.create(t, [])
        r = self.hb("tables", "events_*")
        self.assertOk(r)
        self.assertEqual(r.out, "events_1\nevents_2\n")
        r = self.hb("-o", "json", "tables", "u*")
        self.assertEqual(r.json(), {"tables": ["users"]})
        r = self.hb("tables", "none*")
        self.assertOk(r)
        self.assertEqual(r.out, "")


if __name__ == "__main__":
    hbtest.main()
