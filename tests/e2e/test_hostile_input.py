"""End-to-end: hostile input from the command line, files, config, the terminal and servers.

Every bad input must end with one clear 'hbtab: ...' line on stderr and the documented exit
status (2 bad input, 3 network, 4 server, 5 refused), never a crash, a sanitizer report, a
hang, a success claimed over lost output, or a partial destructive action."""
import base64
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest
from lib import fakehttp

SANITIZER = r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:"


def b64(data):
    return base64.b64encode(data).decode()


def no_sanitizer(test, r):
    test.assertNotRegex(r.err, SANITIZER, repr(r))


def raw(args, stdout=subprocess.PIPE, preexec=None, timeout=30, env=None):
    """Run hbtab with a caller-chosen stdout (a file, /dev/full, or closed)."""
    home = tempfile.mkdtemp(prefix="hbtab-home-")
    try:
        p = subprocess.run([hbtest.HBTAB] + list(args), stdout=stdout, stderr=subprocess.PIPE,
                           env=hbtest.clean_env(home, env), timeout=timeout, preexec_fn=preexec)
        return hbtest.Result(p.returncode, p.stdout or b"", p.stderr)
    finally:
        shutil.rmtree(home, ignore_errors=True)


class HostileNumbers(OfflineTest):
    BAD_COUNTS = ["", "1e30", "1" + "0" * 30, "-1", "0", "1e3", "0x10", " 5", "5 ", "abc",
                  "18446744073709551616", "10000001"]

    def test_hostile__splits_rejects_every_malformed_region_count(self):
        for flag in ("--hex-splits", "--decimal-splits", "--partition-splits", "--salt-splits"):
            for v in self.BAD_COUNTS:
                with self.subTest(flag=flag, value=v):
                    r = self.hb("splits", flag, v)
                    self.assertFails(r, 2, flag)
                    self.assertEqual(r.out, "")
                    no_sanitizer(self, r)

    def test_hostile__splits_with_huge_region_count_is_rejected(self):
        r = self.hb("splits", "--hex-splits", "1" + "0" * 30)
        self.assertFails(r, 2, r"at most 10000000 regions")

    def test_hostile__splits_rejects_two_algorithms_and_foreign_flags(self):
        self.assertFails(self.hb("splits", "--hex-splits", "5", "--decimal-splits", "6"), 2,
                         "cannot be used together")
        self.assertFails(self.hb("splits", "--hex-splits", "5", "--start", "00"), 2,
                         "--start cannot be used with --hex-splits")
        self.assertFails(self.hb("splits", "--hex-splits", "5", "--seed", "1"), 2, "--seed")
        self.assertFails(self.hb("splits"), 2, "no split specification")
        self.assertFails(self.hb("splits", "extra", "--hex-splits", "5"), 2,
                         "unexpected argument 'extra'")

    def test_hostile__splits_rejects_bad_bounds(self):
        cases = [
            (["--hex-splits", "5", "--first", ""], "not a hex number"),
            (["--hex-splits", "5", "--first", "zz"], "not a hex number"),
            (["--hex-splits", "5", "--last", "+-5"], "not a hex number"),
            (["--hex-splits", "5", "--first", "-5"], "negative"),
            (["--decimal-splits", "3", "--first", "5", "--last", "5"], "less than first row"),
            (["--uniform-splits", "3", "--first", "b", "--last", "a"], "less than first row"),
            (["--range-splits", "5", "--start", "a"], "needs both --start and --end"),
            (["--range-splits", "5", "--start", "a", "--end", "a"], "Start key must be smaller"),
            (["--range-splits", "2", "--start", "a", "--end", "b"], "at least three regions"),
            (["--book-hex-splits", "5", "--start", "ff", "--end", "-1ff"], "makes the keys negative"),
            (["--salt-splits", "257"], "at most 256"),
            (["--salt-splits", "5", "--salt-width", "3"], "--salt-width"),
            (["--salt-splits", "5", "--format", ""], "--format"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                r = self.hb("splits", *args)
                self.assertFails(r, 2, pattern)
                no_sanitizer(self, r)

    def test_hostile__sampled_splits_rejects_bad_generator_values(self):
        cases = [
            (["--generator", "bogus"], "unknown generator"),
            (["--generator", ""], "unknown generator"),
            (["--generator", "partition:0"], "partition count"),
            (["--generator", "partition:"], "partition count is missing"),
            (["--generator", "partition:99999999999999999999999"], "partition count"),
            (["--generator", "md5", "--sample-size", "0"], "--sample-size"),
            (["--generator", "md5", "--sample-size", "20000001"], "--sample-size"),
            (["--generator", "md5", "--seed", "9223372036854775808"], "Java long"),
            (["--generator", "md5", "--sample-size", "2"], "too small"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                self.assertFails(self.hb("splits", "--sampled-splits", "3", *args), 2, pattern)

    def test_hostile__sampled_splits_time_overflow_is_not_undefined_behaviour(self):
        r = self.hb("splits", "--sampled-splits", "3", "--generator", "md5", "--start-time",
                    "9223372036854775807", "--sample-size", "100")
        self.assertOk(r)
        no_sanitizer(self, r)


class HostileFiles(OfflineTest):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hbtab-hostile-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def file(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_hostile__splits_file_rejects_unusable_files(self):
        cases = [
            (os.path.join(self.dir, "missing"), r"cannot read --splits-file .*No such file"),
            (self.dir, r"cannot read .*Is a directory"),
            ("", r"cannot read --splits-file ''"),
            (self.file("empty", b""), "no keys in the file"),
            ("/dev/null", "no keys in the file"),
            ("/proc/self/mem", r"cannot read '/proc/self/mem'"),
            (self.file("garbage", bytes(range(256)) * 4000), r"garbage:\d+: "),
            (self.file("badutf", b"a\xff\nb\n"), r"badutf:1: invalid UTF-8"),
            (self.file("emptyline", b"a\n\nb\n"), r"emptyline:2: empty line"),
            (self.file("unordered", b"b\na\n"), r"unordered:2: key 'a' is not greater"),
            (self.file("dup", b"a\na\n"), r"dup:2: key 'a' is not greater"),
            (self.file("long", b"k" * 40000 + b"\n"), r"long:1: key is 40000 bytes long"),
        ]
        for path, pattern in cases:
            with self.subTest(path=path):
                r = self.hb("splits", "--splits-file", path)
                self.assertFails(r, 2, pattern)
                self.assertEqual(r.out, "")
                no_sanitizer(self, r)

    def test_hostile__splits_file_with_100mb_line_is_rejected_with_its_length(self):
        path = self.file("huge", b"a" * 100_000_000)
        r = self.hb("splits", "--splits-file", path, timeout=600)  # a hang guard only
        self.assertFails(r, 2, r"key is 100000000 bytes long")

    def test_hostile__splits_file_escapes_follow_to_bytes_binary(self):
        path = self.file("esc", b"\\x\n\\xZ\n\\xff\n\\xFF\n")
        r = self.hb("splits", "--splits-file", path)
        self.assertOk(r)
        self.assertEqual(r.out, "\\x5Cx\n\\x5CxZ\nxff\n\\xFF\n")
        r = self.hb("splits", "--splits-file", self.file("bs", b"a\\\n"))
        self.assertOk(r)
        self.assertEqual(r.out, "a\\x5C\n")

    def test_hostile__sample_file_rejects_unusable_files(self):
        for path, pattern in [(self.dir, "Is a directory"),
                              (self.file("g", b"\xff\xfe\x00"), "invalid UTF-8"),
                              (self.file("e", b""), "no keys")]:
            with self.subTest(path=path):
                self.assertFails(self.hb("splits", "--sampled-splits", "3", "--sample-file", path),
                                 2, pattern)


class HostileOutput(OfflineTest):
    def test_hostile__sigpipe_on_head_exits_quietly(self):
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            p = subprocess.Popen([hbtest.HBTAB, "splits", "--hex-splits", "1000000"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=hbtest.clean_env(home))
            first = p.stdout.readline()
            p.stdout.close()
            err = p.stderr.read().decode("utf-8", "replace")
            p.stderr.close()
            rc = p.wait(30)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        self.assertEqual(first, b"000010c6\n")
        # 9 MB of keys cannot fit in the pipe: the write after the reader left gets SIGPIPE;
        # a shell sees 128 + 13 whether hbtab dies of it or exits with that status
        self.assertEqual(128 + -rc if rc < 0 else rc, 128 + signal.SIGPIPE, err)
        self.assertEqual(err, "")

    def test_hostile__epipe_with_sigpipe_ignored_is_reported_once(self):
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            p = subprocess.Popen([hbtest.HBTAB, "splits", "--hex-splits", "1000000"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=hbtest.clean_env(home),
                                 preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
            p.stdout.readline()
            p.stdout.close()
            err = p.stderr.read().decode("utf-8", "replace")
            p.stderr.close()
            rc = p.wait(30)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        self.assertNotEqual(rc, 0)
        self.assertNotRegex(err, SANITIZER)
        lines = err.splitlines()
        self.assertLessEqual(len(lines), 1, err)
        for line in lines:
            self.assertRegex(line, r"^hbtab: cannot write to standard output")

    def check_write_failure(self, args, **kw):
        r = raw(args, **kw)
        self.assertNotEqual(r.rc, 0, repr(r))
        self.assertTrue(r.err.startswith("hbtab: "), repr(r))
        self.assertRegex(r.err, "cannot write to standard output")
        no_sanitizer(self, r)
        return r

    def test_hostile__dev_full_is_an_error(self):
        for args in (["splits", "--hex-splits", "5"], ["splits", "--hex-splits", "100000"],
                     ["splits", "--hex-splits", "5", "--format", "json"],
                     ["splits", "--hex-splits", "5", "--format", "shell"],
                     ["splits", "--help"]):
            with self.subTest(args=args):
                with open("/dev/full", "wb") as full:
                    self.check_write_failure(args, stdout=full)

    def test_hostile__closed_stdout_is_an_error(self):
        for args in (["splits", "--hex-splits", "5"], ["splits", "--hex-splits", "100000"]):
            with self.subTest(args=args):
                self.check_write_failure(args, stdout=None, preexec=lambda: os.close(1))

    def test_hostile__write_error_is_reported_once(self):
        with open("/dev/full", "wb") as full:
            r = self.check_write_failure(["splits", "--hex-splits", "100000"], stdout=full)
        self.assertEqual(len(r.err.splitlines()), 1, r.err)

    def test_hostile__help_and_version_to_dev_full_fail(self):
        for args in (["--help"], ["--version"], ["help"]):
            with self.subTest(args=args):
                with open("/dev/full", "wb") as full:
                    self.check_write_failure(args, stdout=full)

    def test_hostile__version_to_closed_stdout_fails(self):
        self.check_write_failure(["--version"], stdout=None, preexec=lambda: os.close(1))


class HostileGlobals(OfflineTest):
    REFUSED = "http://127.0.0.1:1"

    def test_hostile__bad_timeout_and_retries_are_usage_errors(self):
        for flag, v in [("--timeout", ""), ("--timeout", "-1"), ("--timeout", "0"),
                        ("--timeout", "1e30"), ("--timeout", "abc"), ("--timeout", "nan"),
                        ("--timeout", "inf"), ("--timeout", "5 "), ("--retries", "-1"),
                        ("--retries", "1e30"), ("--retries", "100000000"), ("--retries", "")]:
            with self.subTest(flag=flag, value=v):
                self.assertFails(self.hb(flag, v, "--rest", self.REFUSED, "tables"), 2, flag)

    def test_hostile__bad_rest_url_scheme_is_a_usage_error(self):
        for url in ("", "notaurl", "ftp://x/", "file:///etc/passwd"):
            with self.subTest(url=url):
                self.assertFails(self.hb("--rest", url, "tables"), 2, "REST URL")

    def test_hostile__malformed_rest_url_is_bad_input_not_a_network_error(self):
        for url in ("http://[::1", "http://127.0.0.1:99999"):
            with self.subTest(url=url):
                self.assertFails(self.hb("--rest", url, "--retries", "0", "tables"), 2, "URL")

    def test_hostile__bad_global_choices_and_commands(self):
        self.assertFails(self.hb("-o", "xml", "tables"), 2, "--output")
        self.assertFails(self.hb("--color", "purple", "tables"), 2, "--color")
        self.assertFails(self.hb("--bogus"), 2, "unknown option '--bogus'")
        self.assertFails(self.hb(), 2, "no command given")
        self.assertFails(self.hb("nosuchcmd"), 2, "unknown command 'nosuchcmd'")
        self.assertFails(self.hb("help", "nosuch"), 2, "unknown command 'nosuch'")

    def test_hostile__bad_environment_values_are_usage_errors(self):
        for env, pattern in [({"HBTAB_TIMEOUT": "abc"}, "timeout"),
                             ({"HBTAB_RETRIES": "-3"}, "retries"),
                             ({"HBTAB_OUTPUT": "xml"}, "output"),
                             ({"HBTAB_INSECURE": "maybe"}, "HBTAB_INSECURE"),
                             ({"HBTAB_COLOR": "x"}, "color")]:
            with self.subTest(env=env):
                self.assertFails(self.hb("--rest", self.REFUSED, "tables", env=env), 2, pattern)


class HostileConfig(OfflineTest):
    REFUSED = "http://127.0.0.1:1"

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hbtab-cfg-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def config(self, data):
        path = os.path.join(self.dir, "config")
        with open(path, "wb") as f:
            f.write(data)
        return {"HBTAB_CONFIG": path}

    def test_hostile__malformed_config_files_are_usage_errors(self):
        cases = [
            (b"[default\nrest = x\n", r"config:1: section header"),
            (b"[default]\nrest\n", r"config:2: expected 'key = value'"),
            (b"[default]\nbogus = 1\n", r"config:2: unknown setting 'bogus'"),
            (b"[default]\npassword = x\n", r"config:2: passwords are not read"),
            (b"[default]\ninsecure = maybe\n", r"config:2: 'insecure'"),
            (bytes(range(256)) * 100, r"config:\d+: "),
            (b"[default]\nrest = http://" + b"a" * 10_000_000 + b"\n", r"config"),
        ]
        for data, pattern in cases:
            with self.subTest(data=data[:40]):
                r = self.hb("--rest", self.REFUSED, "--retries", "0", "tables",
                            env=self.config(data))
                self.assertFails(r, 2, pattern)
                no_sanitizer(self, r)

    def test_hostile__bad_value_in_config_is_a_usage_error(self):
        r = self.hb("--retries", "0", "tables", env=self.config(b"[default]\ntimeout = -5\n"))
        self.assertFails(r, 2, "timeout")

    def test_hostile__config_key_given_twice_does_not_leak(self):
        env = self.config(b"[default]\nrest = http://127.0.0.1:2\nrest = http://127.0.0.1:1\n")
        r = self.hb("--retries", "0", "tables", env=env)
        self.assertFails(r, 3, r"http://127\.0\.0\.1:1/: connection refused")
        no_sanitizer(self, r)

    def test_hostile__profile_given_twice_does_not_leak(self):
        env = self.config(b"[profile x]\nrest = http://127.0.0.1:2\n"
                          b"[profile x]\nrest = http://127.0.0.1:1\n")
        r = self.hb("--profile", "x", "--retries", "0", "tables", env=env)
        self.assertEqual(r.rc, 3, repr(r))
        no_sanitizer(self, r)

    def test_hostile__nul_byte_does_not_hide_the_rest_of_the_config(self):
        r = self.hb("--rest", self.REFUSED, "--retries", "0", "tables",
                    env=self.config(b"\x00[default]\nbogus = 1\n"))
        self.assertFails(r, 2, "config")

    def test_hostile__config_that_is_a_directory_is_an_error(self):
        r = self.hb("--rest", self.REFUSED, "--retries", "0", "tables",
                    env={"HBTAB_CONFIG": self.dir})
        self.assertFails(r, 2, "config")

    def test_hostile__missing_config_file_is_an_error(self):
        r = self.hb("--rest", self.REFUSED, "tables",
                    env={"HBTAB_CONFIG": os.path.join(self.dir, "nope")})
        self.assertFails(r, 2, r"cannot read config file .*No such file")

    def test_hostile__setting_outside_any_section_is_not_silently_ignored(self):
        r = self.hb("--retries", "0", "tables", env=self.config(b"rest = http://127.0.0.1:1\n"))
        # either applied (the refused port) or rejected as malformed; never silently dropped
        if r.rc == 3:
            self.assertIn("127.0.0.1:1/", r.err)
        else:
            self.assertFails(r, 2, "config")


BAD_TABLE_NAMES = [
    ("", "empty"), ("bad name", "not allowed"), (":t", "empty namespace"),
    ("t:", "empty qualifier"), ("a:b:c", "not allowed"), (".x", "cannot start with '.'"),
    ("t/../x", "not allowed"), ("t?x", "not allowed"), ("t#x", "not allowed"),
    ("t%2F", "not allowed"), ("t1\n", "not allowed"), ("t\udcff", "not UTF-8"),
    ("version", "collides with a REST resource"), ("status", "collides with a REST resource"),
    ("namespaces", "collides with a REST resource"),
]


class HostileTables(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"g", b"p"])
        self.emu.clear_requests()

    def hb(self, *args, **kw):
        return super().hb("--retries", "0", *args, **kw)

    def writes(self):
        return [q for q in self.emu.requests() if q["method"] not in ("GET",)
                and not q["path"].endswith("/scanner") and "/scanner/" not in q["path"]]

    def test_hostile__invalid_table_names_are_rejected_before_any_request(self):
        for name, pattern in BAD_TABLE_NAMES:
            for cmd in (["regions"], ["regions", "--source", "meta"], ["describe"], ["audit"],
                        ["meta", "get"], ["drop", "--yes"]):
                with self.subTest(cmd=cmd, name=name):
                    args = cmd[:1] + [name] + cmd[1:] if cmd[0] != "meta" else cmd + [name]
                    r = self.hb(*args)
                    self.assertFails(r, 2, pattern)
                    no_sanitizer(self, r)
        self.assertEqual(self.emu.requests(), [])

    def test_hostile__create_refuses_invalid_and_system_names(self):
        for name, pattern in BAD_TABLE_NAMES:
            with self.subTest(name=name):
                self.assertFails(self.hb("create", name, "--hex-splits", "4", "--family", "cf"),
                                 2, pattern)
        # a system table is refused for safety (exit 5), like every other write to one
        self.assertFails(self.hb("create", "hbase:x", "--hex-splits", "4", "--family", "cf"),
                         5, "'hbase' namespace")
        self.assertEqual(self.writes(), [])

    def test_hostile__huge_table_name_gives_a_complete_message(self):
        r = self.hb("regions", "a" * 70000)
        # HBase sets no length limit on names: the request goes out and the gateway refuses it
        self.assertEqual(r.rc, 4, repr(r))
        self.assertTrue(r.err.startswith("hbtab: "), repr(r))
        # the reason must survive: not a message cut off in the middle of the name
        self.assertRegex(r.err, r"(not found|too long|HTTP \d{3}[^\n]*)\s*$")
        self.assertLess(len(r.err), 4000)

    def test_hostile__drop_of_system_table_or_without_yes_is_refused_and_sends_nothing(self):
        self.assertFails(self.hb("drop", "hbase:meta", "--yes"), 5, "system table")
        self.assertFails(self.hb("drop", "hbase:meta"), 5, "system table")
        self.assertFails(self.hb("drop", "t1"), 5, "without --yes")
        self.assertFails(self.hb("drop", "t1", "t2", "--yes"), 2, "unexpected argument 't2'")
        self.assertFails(self.hb("drop", "--yes"), 2, "missing TABLE")
        self.assertEqual([q for q in self.emu.requests() if q["method"] == "DELETE"], [])

    def test_hostile__drop_is_not_retried_after_503(self):
        self.emu.fault(server="rest", kind="503", method="DELETE", path="^/t1/schema", count=1)
        r = super().hb("--retries", "3", "drop", "t1", "--yes")
        self.assertFails(r, 4, "503")
        self.assertEqual(len([q for q in self.emu.requests() if q["method"] == "DELETE"]), 1)

    def test_hostile__default_namespace_prefix_works_with_meta_source(self):
        rest = self.hb("regions", "default:t1")
        self.assertOk(rest)
        meta = self.hb("regions", "default:t1", "--source", "meta")
        self.assertOk(meta)
        self.assertEqual(len(meta.out.splitlines()), 3, repr(meta))

    def test_hostile__meta_set_rejects_malformed_n(self):
        for n in ["", "0", "2147483648", "1e3", "0x10", " 5", "5 ", "abc", "9" * 30]:
            with self.subTest(n=n):
                self.assertFails(self.hb("meta", "set", "t1", n), 2, "N must be")
        self.assertFails(self.hb("meta", "set", "t1"), 2)
        self.assertFails(self.hb("meta", "set", "t1", "5", "6"), 2, "unexpected argument '6'")
        self.assertFails(self.hb("meta", "bogus", "t1"), 2, "unknown meta subcommand")
        self.assertFails(self.hb("meta"), 2)
        self.assertEqual(self.writes(), [])

    def test_hostile__meta_row_longer_than_hbase_allows_is_rejected(self):
        row = "k" * 40000
        self.assertFails(self.hb("meta", "set", "t1", "5", "--metadata-row", row), 2,
                         "metadata-row")
        self.assertFails(self.hb("meta", "get", "t1", "--metadata-row", row), 2, "metadata-row")
        self.assertEqual(self.writes(), [])

    def test_hostile__meta_row_and_family_bad_forms(self):
        self.assertFails(self.hb("meta", "get", "t1", "--metadata-row", ""), 2, "empty")
        self.assertFails(self.hb("meta", "get", "t1", "--metadata-row", "\udcff"), 2, "UTF-8")
        self.assertFails(self.hb("meta", "set", "t1", "5", "--metadata-family", ""), 2)
        self.assertFails(self.hb("meta", "set", "t1", "5", "--metadata-family", "a:b"), 2)
        self.assertEqual(self.writes(), [])

    def test_hostile__binary_metadata_row_round_trips(self):
        row = "\\x00\\xFF/..?#"
        self.assertOk(self.hb("meta", "set", "t1", "5", "--metadata-row", row))
        r = self.hb("meta", "get", "t1", "--metadata-row", row)
        self.assertOk(r)
        self.assertIn("N\t5", r.out)

    def test_hostile__malformed_keyspaces_name_the_column(self):
        for ks, pattern in [("", "empty key space"), ("hex{", "column 5"),
                            ("hex{1,}", "column 7"), ("hex{0}", "at least 1"),
                            ("hex{5,2}", "larger than the maximum"),
                            ("hex{99999999999999999999}", "32767"), ("u8<0", "at least 1"),
                            ("u8<257", "too large"), ("u64<18446744073709551617", "too large"),
                            ("* hex", "must be the last field"), ("[", "expected ']'"),
                            ("[z-a]", "bad range"), ("[\\xZZ]", "two hex digits"),
                            ("bogus", "unknown field"), ("\udcff", "column 1"),
                            ("byte{32767} byte{32767}", "maximum row length")]:
            with self.subTest(keyspace=ks):
                r = self.hb("audit", "t1", "--keyspace", ks)
                self.assertFails(r, 2, pattern)
                no_sanitizer(self, r)

    def test_hostile__create_rejects_bad_families_attrs_and_wait(self):
        base = ["create", "t2", "--hex-splits", "4"]
        cases = [
            (["--family", ""], "invalid family name"),
            (["--family", ":"], "invalid family name"),
            (["--family", ".cf"], "cannot start with '.'"),
            (["--family", "cf\udcff"], "UTF-8"),
            (["--family", "cf:VERSIONS="], "VERSIONS"),
            (["--family", "cf:VERSIONS=-1"], "VERSIONS"),
            (["--family", "cf:VERSIONS=1e30"], "VERSIONS"),
            (["--family", "cf:=5"], "--family"),
            (["--family", "cf:VERSIONS=1,VERSIONS=2"], "given twice"),
            (["--family", "cf:TTL=99999999999999999999"], "TTL"),
            (["--family", "cf:COMPRESSION=ZIP"], "COMPRESSION"),
            (["--family", "cf", "--family", "cf"], "given twice"),
            (["--family", "cf", "--attr", ""], "--attr"),
            (["--family", "cf", "--attr", "=V"], "--attr"),
            (["--family", "cf", "--wait", ""], "--wait"),
            (["--family", "cf", "--wait", "-1"], "--wait"),
            (["--family", "cf", "--wait", "1e30"], "--wait"),
            (["--family", "cf", "--via", "bogus"], "--via"),
            (["--family", "cf", "--via", "rest"], "cannot create 4 regions"),
            (["--family", "cf", "--keyspace", "hex{"], "keyspace"),
            (["--family", "cf", "--metadata-family", "nosuch"], "nosuch"),
            (["--family", "cf", "--metadata-row", "k" * 40000], "metadata-row"),
        ]
        for extra, pattern in cases:
            with self.subTest(extra=[e[:20] for e in extra]):
                r = self.hb(*(base + extra))
                self.assertFails(r, 2, pattern)
                no_sanitizer(self, r)
        self.assertFails(self.hb("create", "--hex-splits", "4", "--family", "cf"), 2,
                         "missing TABLE")
        self.assertEqual(self.writes(), [])
        self.assertNotIn("t2", json.dumps(self.emu.state()))

    def test_hostile__create_rejects_non_numeric_table_sizes(self):
        r = self.hb("create", "t2", "--hex-splits", "4", "--family", "cf",
                    "--attr", "MAX_FILESIZE=abc", "--via", "print")
        self.assertFails(r, 2, "MAX_FILESIZE")

    def test_hostile__create_on_existing_table_with_other_boundaries_changes_nothing(self):
        before = self.emu.state()
        for extra in ([], ["--via", "thrift2"], ["--via", "shell"]):
            with self.subTest(extra=extra):
                r = self.hb("create", "t1", "--hex-splits", "4", "--family", "cf", *extra)
                self.assertFails(r, 5, "already exists with other region boundaries")
        self.assertEqual(self.writes(), [])
        self.assertEqual(self.emu.state(), before)

    def test_hostile__server_faults_give_documented_exit_codes(self):
        cmds = [(["status"], "^/status"), (["tables"], "^/$"), (["describe", "t1"], "^/t1/schema"),
                (["regions", "t1", "--source", "rest"], "^/t1/regions"),
                (["regions", "t1", "--source", "meta"], "^/hbase%3Ameta/")]
        for kind, rc, pattern in [("500", 4, "HTTP 500"),
                                  ("truncated_json", 4, "malformed response|HTTP 200"),
                                  ("invalid_json", 4, "malformed response|HTTP 200"),
                                  ("wrong_ctype", 4, "content type|HTTP 200")]:
            for cmd, path in cmds:
                with self.subTest(kind=kind, cmd=cmd):
                    self.emu.clear_faults()
                    self.emu.fault(server="rest", kind=kind, path=path, count=-1)
                    r = self.hb(*cmd)
                    self.assertFails(r, rc, pattern)
                    self.assertEqual(len(r.err.splitlines()), 1, r.err)
                    no_sanitizer(self, r)

    def test_hostile__reset_metadata_scan_is_a_network_error_not_a_missing_row(self):
        self.assertOk(self.hb("meta", "set", "t1", "5"))
        # the row key is printable: it is read with GET /t1/totalPartition/cf
        self.emu.fault(server="rest", kind="reset_body", method="GET", path="^/t1/totalPartition",
                       count=-1)
        self.assertFails(self.hb("meta", "get", "t1"), 3, "connection reset")
        self.emu.clear_faults()
        self.emu.fault(server="rest", kind="truncated_json", method="GET",
                       path="^/t1/totalPartition", count=-1)
        self.assertFails(self.hb("meta", "set", "t1", "6", "--force"), 4, "malformed")
        self.emu.clear_faults()
        self.assertIn("N\t5", self.hb("meta", "get", "t1").out)


# the gateway's answers by path, set by each test
Hostile = fakehttp.route_handler()


J = "application/json"
REGION = {"startKey": "", "endKey": "", "id": 1, "name": "t1,,1.x.", "location": "h:1"}
STATUS_OK = {"regions": 1, "requests": 1, "averageLoad": 1.0, "LiveNodes": [], "DeadNodes": []}


class HostileServer(OfflineTest):
    """A tiny gateway that answers with crafted, hostile documents."""

    @classmethod
    def setUpClass(cls):
        cls.srv = fakehttp.Server(Hostile)
        cls.url = cls.srv.url

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def setUp(self):
        Hostile.routes.clear()
        self.route("/version/rest", {"REST": "0.0.3", "Server": "jetty"})
        self.route("/version/cluster", {"Version": "2.5.8"})
        self.route("/status/cluster", STATUS_OK)

    def route(self, path, doc, status=200, ctype=J):
        body = doc if isinstance(doc, (bytes, str)) and not path.startswith("/version/cluster") \
            else json.dumps(doc)
        Hostile.routes[path] = (status, ctype, body)

    def hb(self, *args, **kw):
        return run_at(self.url, args, **kw)

    def regions(self, regions, name="t1"):
        self.route("/t1/regions", json.dumps({"name": name, "Region": regions}))

    def test_hostile__status_rejects_wrong_types(self):
        cases = [
            ("/version/cluster", {"version": "2.5"}, "/version/cluster"),
            ("/status/cluster", json.dumps(dict(STATUS_OK, LiveNodes={"a": 1})), "LiveNodes"),
            ("/status/cluster", json.dumps(dict(STATUS_OK, LiveNodes=[{"name": None}])),
             "LiveNodes"),
            ("/status/cluster", "[" * 100000 + "]" * 100000, "invalid JSON"),
            ("/status/cluster", json.dumps(STATUS_OK)[:-3], "invalid JSON"),
        ]
        for path, doc, pattern in cases:
            with self.subTest(path=path, doc=str(doc)[:40]):
                self.setUp()
                if path == "/version/cluster":
                    Hostile.routes[path] = (200, J, json.dumps(doc))
                else:
                    self.route(path, doc)
                r = self.hb("status")
                self.assertFails(r, 4, pattern)
                no_sanitizer(self, r)

    def test_hostile__status_reads_the_cluster_version_object_and_a_bare_string(self):
        for body, ctype in (('{"Version":"2.6.1"}', J), ('"2.6.1"', J), ("2.6.1\r\n", J)):
            with self.subTest(body=body):
                Hostile.routes["/version/cluster"] = (200, ctype, body)
                r = self.hb("-o", "json", "status")
                self.assertEqual(r.rc, 0, repr(r))
                self.assertEqual(r.json()["cluster_version"], "2.6.1")
                r = self.hb("status")
                self.assertEqual(r.rc, 0, repr(r))
                self.assertRegex(r.out, r"cluster version\s+2\.6\.1\n")

    def test_hostile__status_refuses_a_cluster_version_of_another_shape(self):
        for body in ('{"version":"2.5.8"}', '{"Version":258}', '{"Version":""}', '["2.5.8"]',
                     "258 x", '{"Version":"2.5.8\\n"}', "{"):
            with self.subTest(body=body):
                Hostile.routes["/version/cluster"] = (200, J, body)
                r = self.hb("status")
                self.assertFails(r, 4, r"^hbtab: malformed response from GET /version/cluster: ")
                self.assertEqual(r.out, "")
                no_sanitizer(self, r)

    def test_hostile__status_with_giant_numbers_does_not_crash(self):
        doc = dict(STATUS_OK, regions=10 ** 40, requests=-5, averageLoad=1e308,
                   LiveNodes=[{"name": "h:1", "startCode": 10 ** 30, "requests": 10 ** 30,
                               "Region": [{"name": "!!!", "storefiles": -1}]}],
                   DeadNodes=[None, 1])
        self.route("/status/cluster", json.dumps(doc))
        r = self.hb("status")
        # "!!!" is not base64: the region name is refused; the huge numbers are not the reason
        self.assertFails(r, 4, r"^hbtab: malformed response from GET /status/cluster: "
                               r"LiveNodes\[0\]\.Region\[0\]\.name is not valid base64\n$")
        no_sanitizer(self, r)

    def test_hostile__50mb_body_is_handled(self):
        big = '{"regions": 1, "requests": 1, "averageLoad": 1.0, "LiveNodes": [], ' \
              '"DeadNodes": [], "pad": "' + "a" * 50_000_000 + '"}'
        self.route("/status/cluster", big)
        # the request timeout and the subprocess limit are hang guards: a loaded machine
        # running the sanitizer build may take minutes over 50 MB from a Python server
        r = self.hb("--timeout", "600", "status", timeout=900)
        self.assertOk(r)
        no_sanitizer(self, r)

    def test_hostile__tables_rejects_wrong_types_and_html(self):
        for doc, pattern in [({"table": [{"name": 5}]}, "not a string"),
                             ({"table": "notalist"}, "not an array")]:
            with self.subTest(doc=doc):
                self.route("/", json.dumps(doc))
                self.assertFails(self.hb("tables"), 4, pattern)
        self.route("/", "<html>", ctype="text/html")
        self.assertFails(self.hb("tables"), 4, "unexpected content type")

    def test_hostile__tables_with_control_characters_are_escaped(self):
        self.route("/", json.dumps({"table": [{"name": "x\n\x1b[31mred"}]}))
        r = self.hb("tables")
        self.assertNotIn("\x1b", r.out + r.err)
        if r.rc:
            self.assertFails(r, 4)

    def test_hostile__json_output_stays_valid_with_non_utf8_server_strings(self):
        Hostile.routes["/"] = (200, J, b'{"table":[{"name":"ok"},{"name":"bad\xff\xfe"}]}')
        Hostile.routes["/t1/schema"] = (200, J, b'{"name":"t1","ColumnSchema":'
                                                b'[{"name":"c\xfff","VERSIONS":"1"}]}')
        for args in (["-o", "json", "tables"], ["-o", "json", "describe", "t1"]):
            with self.subTest(args=args):
                r = self.hb(*args)
                if r.rc:
                    self.assertFails(r, 4, "malformed|UTF-8")
                else:
                    try:
                        json.loads(r.out_bytes.decode("utf-8"))
                    except ValueError as e:
                        self.fail("not valid UTF-8 JSON (%s): %r" % (e, r.out_bytes[:200]))

    def test_hostile__nul_in_server_string_is_not_silently_truncated(self):
        self.route("/", json.dumps({"table": [{"name": "a\u0000b"}]}))
        r = self.hb("-o", "json", "tables")
        if r.rc:
            self.assertFails(r, 4, "malformed")
        else:
            self.assertNotEqual(json.loads(r.out)["tables"], ["a"], repr(r))

    def test_hostile__regions_rejects_malformed_documents(self):
        cases = [
            ([dict(REGION, startKey="!!!")], "not valid base64"),
            ([dict(REGION, id="abc")], "id"),
            ([dict(REGION, id=10 ** 30)], "id"),
            ([{"id": 1, "name": "x", "location": "h:1"}], "startKey is missing"),
            ([dict(REGION, startKey=None, endKey=None)], "startKey"),
        ]
        for regions, pattern in cases:
            with self.subTest(regions=str(regions)[:60]):
                self.regions(regions)
                r = self.hb("regions", "t1")
                self.assertFails(r, 4, pattern)
                no_sanitizer(self, r)
        for body in ('{"name": "t1", "Region": {"a": 1}}', '{"Region":' + "[" * 50000,
                     '{"name": "t1", "Region": [' + json.dumps(REGION)):
            with self.subTest(body=body[:40]):
                self.route("/t1/regions", body)
                self.assertFails(self.hb("regions", "t1"), 4, "malformed response")

    def test_hostile__negative_region_id_is_malformed(self):
        self.regions([dict(REGION, id=-1)])
        r = self.hb("regions", "t1")
        self.assertNotIn("18446744073709551615", r.out)
        self.assertFails(r, 4, "id")

    def test_hostile__regions_out_of_order_are_printed_in_key_order(self):
        self.regions([dict(REGION, startKey=b64(b"g"), name="t1,g,1.x."),
                      dict(REGION, endKey=b64(b"g"))])
        r = self.hb("regions", "t1")
        # this gateway has no hbase:meta and there is no Thrift2: the table's state is unknown
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.err, r"^hbtab: state_unknown: ")
        starts = [line.split("\t")[0] for line in r.out.splitlines()]
        self.assertEqual(starts, ["", "g"])

    def test_hostile__regions_of_another_table_are_not_accepted(self):
        self.regions([REGION], name="zzz")
        self.assertFails(self.hb("regions", "t1"), 4, "zzz|table")

    def test_hostile__describe_rejects_wrong_attribute_types(self):
        for doc, pattern in [({"name": "t1", "ColumnSchema": [{"name": "cf"}], "IS_META": {}},
                              "IS_META"),
                             ({"name": "t1", "ColumnSchema": [{"name": "cf", "VERSIONS": [1]}]},
                              "VERSIONS")]:
            with self.subTest(doc=doc):
                self.route("/t1/schema", json.dumps(doc))
                self.assertFails(self.hb("describe", "t1"), 4, pattern)

    def thrift_create(self, reply, ctype="application/x-thrift"):
        Hostile.routes["/thrift"] = (200, ctype, reply)
        return run_at(self.url, ["--thrift", self.url + "/thrift", "create", "t1",
                                 "--hex-splits", "4", "--family", "cf", "--wait", "1"])

    def test_hostile__thrift_reply_with_huge_or_negative_lengths_is_malformed(self):
        hdr = struct.pack(">I", 0x80010002) + struct.pack(">I", 11) + b"createTable" + \
            struct.pack(">i", 1)
        cases = [
            (b"", "empty body"),
            (b"\xff" * 100, "bad protocol version"),
            (struct.pack(">I", 0x80010002) + struct.pack(">I", 0x7fffffff) + b"createTable",
             "truncated"),
            (struct.pack(">I", 0x80010002) + struct.pack(">i", -5) + b"createTable",
             "negative length"),
            (hdr + b"\x0c\x00\x01\x0b\x00\x01" + struct.pack(">i", 0x7ffffff0) + b"abc",
             "truncated"),
            (hdr + b"\x0c\x00\x01\x0b\x00\x01" + struct.pack(">i", -1), "negative length"),
            (hdr + b"\x0f\x00\x00\x0c" + struct.pack(">i", 0x7fffffff), "does not fit"),
            (hdr + b"\x0c\x00\x00" * 20000, "nested too deeply"),
        ]
        for reply, pattern in cases:
            with self.subTest(reply=reply[:24]):
                r = self.thrift_create(reply)
                self.assertFails(r, 4, "thrift2 createTable: malformed thrift reply: .*" + pattern)
                no_sanitizer(self, r)


def run_at(url, args, **kw):
    return hbtest.run(["--rest", url, "--retries", "0", "--timeout", "10", "--no-progress"]
                      + list(args), **kw)


if __name__ == "__main__":
    hbtest.main()
