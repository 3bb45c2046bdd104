# -*- coding: utf-8 -*-
"""The ruby hbase-shell stand-in: toBytesBinary, SPLITS_FILE trimming,
error output and exit codes."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from emu_harness import SHELL, EmuTestCase, unb64


@unittest.skipUnless(shutil.which("ruby"), "ruby not installed")
class Shell(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_script(self, text, env=None, args=("-n",)):
        path = os.path.join(self.dir, "script.rb")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        e = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
             "HBEMU_CONTROL": "http://127.0.0.1:%d" % self.emu.control_port}
        e.update(env or {})
        return subprocess.run([SHELL] + list(args) + [path], env=e, capture_output=True, timeout=60)

    def starts(self, table):
        st, d = self.emu.control("GET", "/control/state")
        t = [x for x in d["tables"] if x["name"] == table][0]
        return [unb64(r["start"]) for r in t["regions"]][1:]

    def test_hex_escapes_upper_case_only_and_bogus_escape_drops_backslash(self):
        p = self.run_script("create 't1', 'cf', SPLITS => ['\\x00', '\\xff', '\\x5C', '\\xZZ', 'a\\x41b']\n")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn(b"Created table t1", p.stdout)
        self.assertEqual(self.starts("t1"), sorted([b"\x00", b"xff", b"\\", b"xZZ", b"aAb"]))

    def test_non_ascii_keeps_low_8_bits_of_utf16_units(self):
        p = self.run_script(u"create 't1', 'cf', SPLITS => ['é', '€', '😀']\n")
        self.assertEqual(p.returncode, 0, p.stdout)
        # U+1F600 is the surrogate pair D83D DE00
        self.assertEqual(self.starts("t1"), sorted([b"\xe9", b"\xac", b"\x3d\x00"]))

    def test_truncated_escape_kept_modern_and_raises_legacy(self):
        p = self.run_script("create 't1', 'cf', SPLITS => ['a\\x4']\n")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(self.starts("t1"), [b"a\\x4"])
        p = self.run_script("create 't2', 'cf', SPLITS => ['a\\x4']\n", env={"HBEMU_TBB_LEGACY": "1"})
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR Java::JavaLang::StringIndexOutOfBoundsException: String index out of range: 4", p.stdout)
        p = self.run_script("create 't2', 'cf', SPLITS => ['a\\x4']\n",
                            env={"HBEMU_TBB_LEGACY": "1", "HBEMU_SHELL_MODERN_ERRORS": "1"})
        self.assertIn(b"ERROR Java::JavaLang::StringIndexOutOfBoundsException: String index out of range: 4",
                      p.stdout)

    def test_splits_file_chomp_keeps_spaces_strip_loses_them(self):
        f = os.path.join(self.dir, "splits.txt")
        with open(f, "wb") as fh:
            fh.write(b" a \r\nb\\x00\n  \n")
        p = self.run_script("create 't1', 'cf', {SPLITS_FILE => '%s'}\n" % f)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(self.starts("t1"), [b"  ", b" a ", b"b\x00"])
        st, d = self.emu.control("GET", "/control/state")
        self.assertEqual(d["tables"][0]["attrs"]["SPLITS_FILE"], f)
        p = self.run_script("create 't2', 'cf', {SPLITS_FILE => '%s'}\n" % f, env={"HBEMU_SHELL_STRIP": "1"})
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR Java::JavaLang::IllegalArgumentException: Empty split key must not be passed in the split keys.", p.stdout)

    def test_duplicate_split_error_exit_1_and_exit0_env_continues_the_script(self):
        script = "create 't1', 'cf', SPLITS => ['b', 'a', 'b']\ncreate 't2', 'cf'\n"
        p = self.run_script(script)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR Java::JavaLang::IllegalArgumentException: All split keys must be unique, found duplicate: b, b", p.stdout)
        self.assertNotIn(b"Created table t2", p.stdout)
        p = self.run_script(script, env={"HBEMU_SHELL_EXIT0": "1"})
        self.assertEqual(p.returncode, 0)
        self.assertIn(b"ERROR: All split keys must be unique", p.stdout)
        self.assertIn(b"Created table t2", p.stdout)
        p = self.run_script(script, env={"HBEMU_SHELL_MODERN_ERRORS": "1"})
        self.assertIn(b"ERROR Java::JavaLang::IllegalArgumentException: All split keys must be unique", p.stdout)

    def test_done_marker_made_once_the_script_has_run_clean_or_failed(self):
        done = os.path.join(self.dir, "done")
        p = self.run_script("create 't1', 'cf'\n", env={"HBEMU_SHELL_DONE": done})
        self.assertEqual(p.returncode, 0)
        self.assertTrue(os.path.exists(done))
        os.unlink(done)
        p = self.run_script("create 't1', 'cf'\n", env={"HBEMU_SHELL_DONE": done})
        self.assertEqual(p.returncode, 1)
        self.assertTrue(os.path.exists(done))
        os.unlink(done)
        # a hanging shell makes it before it hangs
        path = os.path.join(self.dir, "script.rb")
        with open(path, "w") as f:
            f.write("create 't2', 'cf'\n")
        e = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HBEMU_SHELL_HANG": "1",
             "HBEMU_SHELL_DONE": done,
             "HBEMU_CONTROL": "http://127.0.0.1:%d" % self.emu.control_port}
        proc = subprocess.Popen([SHELL, "-n", path], env=e, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120  # a guard against a hang
            while not os.path.exists(done):
                self.assertLess(time.monotonic(), deadline, "no done marker")
                self.assertIsNone(proc.poll(), "the hanging shell exited")
                time.sleep(0.05)
            self.assertEqual(len(self.starts("t2")), 0)  # the create ran first
            self.assertIsNone(proc.poll())
        finally:
            proc.kill()
            proc.wait()

    def test_table_exists_error(self):
        self.emu.create("t1")
        p = self.run_script("create 't1', 'cf'\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR RuntimeError: Table already exists: t1!", p.stdout)

    def test_split_of_a_region_merged_away_is_an_unknown_table(self):
        # 2.x admin.rb: Admin.splitRegion refuses a name not in meta (IllegalArgumentException)
        # and split tries it as a table's name, whose TableNotFoundException the shell says
        # as "Unknown table"
        self.emu.create("t1", [b"g", b"p"])
        st, d = self.emu.control("GET", "/control/state")
        enc = [x for x in d["tables"] if x["name"] == "t1"][0]["regions"][1]["encoded"]
        st, d = self.emu.control("POST", "/control/merge", {"table": "t1", "index": 1})
        self.assertEqual(st, 200, d)
        p = self.run_script("split '%s', 'h'\n" % enc)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR RuntimeError: Unknown table %s!" % enc.encode(), p.stdout)

    def test_family_hashes_metadata_and_table_attributes(self):
        p = self.run_script("create 'ns1:t', {NAME => 'cf', VERSIONS => 3, IN_MEMORY => true}, {NAME => 'f2'}, "
                            "METADATA => {'prefix_length' => 4}, SPLIT_POLICY => 'x.KeyPrefixRegionSplitPolicy', "
                            "MAX_FILESIZE => 1024, SPLITS => ['k']\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR RuntimeError: Unknown namespace ns1!", p.stdout)
        self.emu.rest("POST", "/namespaces/ns1", {})
        p = self.run_script("create 'ns1:t', {NAME => 'cf', VERSIONS => 3, IN_MEMORY => true}, {NAME => 'f2'}, "
                            "METADATA => {'prefix_length' => 4}, SPLIT_POLICY => 'x.KeyPrefixRegionSplitPolicy', "
                            "MAX_FILESIZE => 1024, SPLITS => ['k']\n")
        self.assertEqual(p.returncode, 0, p.stdout)
        d = self.emu.rest_json("/ns1:t/schema")
        self.assertEqual(d["prefix_length"], "4")
        self.assertEqual(d["MAX_FILESIZE"], "1024")
        self.assertEqual(d["SPLIT_POLICY"], "x.KeyPrefixRegionSplitPolicy")
        cf = {c["name"]: c for c in d["ColumnSchema"]}
        self.assertEqual((cf["cf"]["VERSIONS"], cf["cf"]["IN_MEMORY"]), ("3", "true"))
        self.assertEqual(self.starts("ns1:t"), [b"k"])

    def test_string_families_then_options_hash(self):
        p = self.run_script("create 't1', 'cf1', 'cf2', {SPLITS => ['a', 'b']}\nputs exists?('t1')\nexit\n")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn(b"true", p.stdout)
        self.assertEqual(self.starts("t1"), [b"a", b"b"])

    def test_no_family_is_an_error(self):
        p = self.run_script("create 't1', {SPLITS => ['a']}\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"ERROR ArgumentError: Table must have at least one column family", p.stdout)

    def test_double_quoted_ruby_escape_is_already_a_byte(self):
        p = self.run_script('create \'t1\', \'cf\', SPLITS => ["\\x01"]\n')
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(self.starts("t1"), [b"\x01"])


if __name__ == "__main__":
    unittest.main()
