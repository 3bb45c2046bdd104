"""Exit statuses as hbtab(1) documents them, checked against a live emulator: a family that
does not exist is a server-side not-found (4); a local file that does not exist is bad input
(2), found before a single request is sent."""
import os
import tempfile
import threading

import hbtest
from hbtest import EmulatorTest, OfflineTest

# Seconds after which a step counts as hung.
HANG_GUARD = 60


class MissingFamily(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"5"], families=("cf", "d"))

    def test_meta_get__missing_family_exits_4(self):
        r = self.hb("meta", "get", "t1", "--metadata-family", "nope")
        self.assertFails(r, 4, "table 't1' has no column family 'nope'")
        r = self.hb("-o", "json", "meta", "get", "t1", "--metadata-family", "nope")
        self.assertEqual(r.json()["exit"], 4, repr(r))
        # an existing family without the row is the documented finding, not an error
        self.assertFails(self.hb("meta", "get", "t1", "--metadata-family", "d"), 1,
                         "no metadata row")

    def test_meta_set__missing_family_exits_4_and_writes_nothing(self):
        r = self.hb("meta", "set", "t1", "4", "--metadata-family", "nope")
        self.assertFails(r, 4, "no column family 'nope'")
        self.assertEqual([q for q in self.emu.requests() if q["method"] != "GET"], [])

    def test_audit__missing_metadata_family_exits_4(self):
        self.assertFails(self.hb("audit", "t1", "--metadata-family", "nope"), 4,
                         "no column family 'nope'")


class MissingLocalFiles(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"5"])
        self.emu.clear_requests()

    def assert_bad_input_before_any_request(self, args, pattern, env=None):
        r = self.hb(*args, env=env)
        self.assertFails(r, 2, pattern)
        self.assertEqual(self.emu.requests(), [], "requests were sent for %s" % (args,))

    def test_missing_input_files_exit_2_before_any_request(self):
        missing = "/nonexistent/keys.txt"
        cases = [
            (["create", "t2", "--splits-file", missing], "--splits-file"),
            (["create", "t2", "--sampled-splits", "auto", "--regions-per-server", "2",
              "--sample-file", missing], "--sample-file"),
            (["splits", "--splits-file", missing], "--splits-file"),
            (["audit", "--splits-file", missing, "--keyspace", "hex{4}"], "--splits-file"),
            (["simulate", "--table", "t1", "--keys-file", missing], "--keys-file"),
            (["rotate", "--template", "t_%Y%m%d", "--splits-file", missing], "--splits-file"),
        ]
        for args, flag in cases:
            with self.subTest(args=args):
                self.assert_bad_input_before_any_request(
                    args, r"cannot read %s '%s': No such file" % (flag, missing))

    def test_directory_as_input_file_is_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            self.assert_bad_input_before_any_request(
                ["create", "t2", "--splits-file", d], "Is a directory")

    def test_fifo_as_input_file_is_accepted_and_read(self):
        # process substitution hands over a pipe: the check must neither consume nor refuse it
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "splits")
            os.mkfifo(path)

            def feed():
                with open(path, "wb") as f:
                    f.write(b"m\nt\n")
            t = threading.Thread(target=feed, daemon=True)
            t.start()
            r = self.hb("splits", "--splits-file", path)
            t.join(HANG_GUARD)
            self.assertOk(r)
            self.assertEqual(r.out, "m\nt\n")

    def test_explicit_config_file_missing_exits_2_before_any_request(self):
        self.assert_bad_input_before_any_request(
            ["tables"], "cannot read config file '/nonexistent/config'",
            env={"HBTAB_CONFIG": "/nonexistent/config"})



class ExitCodes(OfflineTest):
    """Consistent exit codes and refusal of odd input (-V, --tz '', --now year)."""

    def test_version_after_the_command_word_prints_the_version(self):
        for args in (["splits", "-V"], ["rotate", "--version"], ["status", "-V"]):
            r = self.hb(*args)
            self.assertOk(r)
            self.assertRegex(r.out, r"^hbtab \d+\.\d+\.\d+\n$", args)

    def test_empty_tz_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2", "--tz", "",
                    "--now", "2026-11-01", "--dry-run", "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"empty --tz")

    def test_now_whose_tables_ahead_reach_a_five_digit_year_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2",
                    "--now", "9999-12-31T23:59Z", "--ahead", "2", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")
        r = self.hb("rotate", "--template", "ev_%Y%m%d%H", "--period", "hour", "--hex-splits",
                    "2", "--now", "9999-12-31T23:30Z", "--ahead", "1", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")


if __name__ == "__main__":
    hbtest.main()
