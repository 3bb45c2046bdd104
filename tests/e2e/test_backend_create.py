"""create, meta and drop against a cluster: the emulator, or real HBase (HBTAB_BACKEND=real).

Every boundary a create made is read back from the gateway's own /T/regions by the test (not
by hbtab) and compared byte for byte with the keys `hbtab splits` computes offline.
"""
import concurrent.futures
import os
import shlex
import subprocess
import tempfile

import backend
import hbtest
from hbtest import unb64


class CreateAgainstCluster(backend.BackendTest):
    def planned(self, *spec):
        r = self.hb("splits", *spec, "--format", "json")
        self.assertOk(r)
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def assertCreated(self, table, spec, via):
        r = self.hb("create", table, *spec, "--family", "info", "--via", via, "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertEqual((j["table"], j["created"], j["verified"], j["via"]),
                         (table, True, True, via), r)
        self.assertEqual(self.be.boundaries(table), self.planned(*spec))
        self.assertEqual(j["regions"], len(self.planned(*spec)) + 1)
        return j

    def test_create_through_thrift2_reads_every_boundary_back(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "10"], "thrift2")
        self.assertEqual(self.be.metadata_row(t)["info:N"], "10")

    def test_create_through_the_shell_reads_every_boundary_back(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "10"], "shell")
        self.assertEqual(self.be.metadata_row(t)["info:splits"], "--hex-splits 10")

    def test_create_through_rest_makes_the_one_region_rest_can(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "1"], "rest")
        self.assertEqual(self.be.boundaries(t), [])

    def test_rest_refuses_a_pre_split_table_before_any_ddl(self):
        t = self.name()
        r = self.hb("create", t, "--hex-splits", "4", "--family", "info", "--via", "rest")
        self.assertFails(r, 2)
        self.assertIsNone(self.be.boundaries(t))

    def test_rerun_of_create_is_a_verified_no_op(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "6"], "thrift2")
        for via in ("thrift2", "shell"):
            r = self.hb("create", t, "--hex-splits", "6", "--family", "info", "--via", via,
                        "-o", "json")
            self.assertOk(r)
            self.assertEqual((r.json()["created"], r.json()["verified"]), (False, True), r)
        self.assertEqual(self.be.boundaries(t), self.planned("--hex-splits", "6"))

    def test_rerun_with_other_boundaries_changes_nothing_and_refuses(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "6"], "thrift2")
        r = self.hb("create", t, "--hex-splits", "8", "--family", "info")
        self.assertFails(r, 5, "other region boundaries|differ")
        self.assertEqual(self.be.boundaries(t), self.planned("--hex-splits", "6"))
        self.assertEqual(self.be.metadata_row(t)["info:N"], "6")

    def test_table_made_by_the_printed_script_is_adopted(self):
        t = self.name()
        r = self.hb("create", t, "--salt-splits", "8", "--family", "info", "--via", "print")
        self.assertOk(r)
        self.assertIsNone(self.be.boundaries(t), "--via print must send nothing")
        with tempfile.NamedTemporaryFile("w", suffix=".rb", delete=False) as f:
            f.write(r.out)
        try:
            env = dict(os.environ)
            env.update(getattr(self.be, "shell_env", {}))
            p = subprocess.run(shlex.split(self.be.shell) + [f.name], capture_output=True,
                               env=env, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr.decode("utf-8", "replace")[-3000:])
        finally:
            os.unlink(f.name)
        self.assertEqual(self.be.boundaries(t), self.planned("--salt-splits", "8"))
        r = self.hb("create", t, "--salt-splits", "8", "--family", "info", "-o", "json")
        self.assertOk(r)
        self.assertEqual((r.json()["created"], r.json()["verified"]), (False, True), r)
        self.assertEqual(self.be.metadata_row(t)["info:N"], "8")

    def test_a_bloom_type_hbase_would_refuse_is_refused_before_any_ddl(self):
        t = self.name()
        # HBase's descriptor check refuses ROWPREFIX_FIXED_LENGTH without the family
        # configuration RowPrefixBloomFilter.prefix_length, which no channel of hbtab sets.
        for via in ("thrift2", "shell"):
            r = self.hb("create", t, "--hex-splits", "2", "--family",
                        "info:BLOOMFILTER=ROWPREFIX_FIXED_LENGTH", "--via", via)
            self.assertFails(r, 2, "RowPrefixBloomFilter.prefix_length")
        self.assertIsNone(self.be.boundaries(t))
        self.assertCreated(t, ["--hex-splits", "2"], "thrift2")

    def test_shell_error_is_reported_with_the_shell_text(self):
        t = self.name()
        self.be.create(t, families=["info"])
        # The table exists with one region: the shell's create fails with its own error; hbtab
        # reads the table back and refuses, changing nothing.
        r = self.hb("create", t, "--hex-splits", "4", "--family", "info", "--via", "shell")
        self.assertFails(r, 5)
        self.assertEqual(self.be.boundaries(t), [])

    def test_two_creates_at_once_write_one_metadata_row(self):
        self.race("thrift2")

    def test_two_creates_at_once_through_the_shell_tell_whose_table_it_is(self):
        # The loser's shell prints "Took N secondsERROR RuntimeError: Table already exists:
        # t!" on one line; hbtab must read that error to know another run made the table.
        self.race("shell")

    def test_two_creates_at_once_through_a_shell_without_native_support(self):
        # A shell whose JRuby cannot load its native support lays its output out for an
        # 80-column terminal: the loser's "Took N seconds" is padded before its ERROR, and
        # stty complains on stderr (seen from 2.4.17). The loser must still read the error.
        if self.be.kind == "real":
            env = {"JAVA_TOOL_OPTIONS": "-Djruby.native.enabled=false"}
        else:
            env = {"HBEMU_SHELL_NO_NATIVE": "1"}
        self.race("shell", env=env, table="events_user_clicks_20261128_%x" % os.getpid())

    def race(self, via, env=None, table=None):
        t = table or self.name()
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            runs = list(ex.map(lambda _: self.hb("create", t, "--hex-splits", "5", "--family",
                                                 "info", "--via", via, "-o", "json", env=env),
                               range(2)))
        for r in runs:
            self.assertOk(r)
            self.assertTrue(r.json()["verified"], r)
        self.assertEqual(sorted(r.json()["created"] for r in runs), [False, True], runs)
        self.assertEqual(self.be.boundaries(t), self.planned("--hex-splits", "5"))
        row = self.be.metadata_row(t)
        self.assertEqual(row["info:N"], "5")
        r = self.hb("meta", "get", t, "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["N"], 5, r)

    def test_meta_set_changes_n_and_get_reads_it(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "4"], "thrift2")
        self.assertFails(self.hb("meta", "set", t, "7"), 5, "already stores N=4")
        self.assertOk(self.hb("meta", "set", t, "7", "--force"))
        r = self.hb("meta", "get", t)
        self.assertOk(r)
        self.assertRegex(r.out, r"(?m)^N\t7$")
        self.assertEqual(self.be.metadata_row(t)["info:N"], "7")

    def test_meta_get_of_a_table_without_the_row(self):
        t = self.name()
        self.be.create(t, families=["cf"])
        r = self.hb("meta", "get", t)
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.err, "no metadata row|not found|absent")

    def test_drop_removes_the_table_and_if_exists_is_quiet_after(self):
        t = self.name()
        self.assertCreated(t, ["--hex-splits", "3"], "thrift2")
        self.assertFails(self.hb("drop", t), 5)
        self.assertIsNotNone(self.be.boundaries(t))
        self.assertOk(self.hb("drop", t, "--yes"))
        self.assertIsNone(self.be.boundaries(t))
        self.assertOk(self.hb("drop", t, "--yes", "--if-exists"))
        r = self.hb("drop", t, "--yes")
        self.assertNotEqual(r.rc, 0, r)
        self.assertTrue(r.err.startswith("hbtab: "), r)


if __name__ == "__main__":
    hbtest.main()
