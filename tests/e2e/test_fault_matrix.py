"""End-to-end fault matrix: every emulator fault kind at every request step of
audit --source meta and meta set (rotate: test_fault_matrix_ddl.py; create through Thrift2
and the hbase shell: test_fault_matrix_create.py; create through REST and drop:
test_fault_matrix_rest.py).

A step is one request of the command's fault-free run, in order. The fault targets exactly
that request (same server and method, the path with scanner ids generalised, `skip` = the
matching requests before it) and stays on for every later matching request, retries and
reopened scanners included, so a step that keeps failing cannot be retried into success.
Each cell checks one exit code, that nothing destructive was done, and that a rerun without
the fault completes with the intended end state.
"""
import os
import sys
import unittest

import hbtest
from lib.faultmatrix import HEX4, KINDS, FaultMatrix


class AuditMetaMatrix(FaultMatrix):
    name = "audit --source meta"
    # The REST listing (compared with meta) and the cluster status (region placement) are
    # checks the audit reports as warnings when it cannot read them.
    optional = (("GET", r"^/t1/regions$"), ("GET", r"^/status/cluster$"))
    metadata_row_alone = True

    def prepare(self, w):
        r = w.hbm("create", "t1", "--hex-splits", "4", "--family", "cf")
        self.assertEqual(r.rc, 0, r)

    def command(self, w):
        return ["audit", "t1", "--source", "meta"]

    def check_no_harm(self, w, requests):
        for q in requests:
            ok = q["method"] in ("GET", "HEAD") or (q["method"] == "POST" and q["path"].endswith(
                "/scanner")) or (q["method"] == "DELETE" and "/scanner/" in q["path"])
            self.assertTrue(ok, q)
        self.assertEqual(w.emu.boundaries("t1"), HEX4)

    def check_done(self, w):
        self.assertEqual(w.emu.boundaries("t1"), HEX4)

    def test_fault_matrix__audit_source_meta(self):
        self.run_matrix()


class MetaSetMatrix(FaultMatrix):
    name = "meta set"

    def prepare(self, w):
        w.emu.create("t2", [b"m"])

    def command(self, w):
        return ["meta", "set", "t2", "2"]

    def check_no_harm(self, w, requests):
        for q in requests:
            if q["method"] in ("PUT", "POST") and not q["path"].endswith("/scanner"):
                self.assertEqual(q["path"], "/t2/hbtab-row?check=put", q)
            if q["method"] == "DELETE":
                self.assertIn("/scanner/", q["path"])
        row = w.emu.metadata_row("t2")
        if row is not None:
            self.assertEqual(row["cf:N"], "2")

    def check_done(self, w):
        self.assertEqual(w.emu.metadata_row("t2")["cf:N"], "2")

    def test_fault_matrix__meta_set(self):
        self.run_matrix()


# Emulator kinds that are test machinery, not an answer a server or the network gives:
# "hold" keeps a request waiting until the test releases it (tests/emulator/NOTES.md).
# "scanner_end" is HBase's own end of rows, which no client can tell from a failed region
# server's: what relies on a scan's end checks it itself (test_rest_faults, the sample;
# repair proves emptiness by stateless scans).
NOT_FAULTS = {"hold", "scanner_end"}


class EmulatorKinds(unittest.TestCase):
    def test_fault_matrix__kinds_are_every_kind_the_emulator_has(self):
        sys.path.insert(0, os.path.join(hbtest.SRC, "tests", "emulator"))
        try:
            from hbemu.httpbase import KINDS as EMULATOR_KINDS
        finally:
            sys.path.pop(0)
        self.assertEqual(sorted(KINDS), sorted(set(EMULATOR_KINDS) - NOT_FAULTS))
        self.assertLessEqual(NOT_FAULTS, set(EMULATOR_KINDS))


class BodiedEmptyAnswers(hbtest.EmulatorTest):
    """HBase answers an existence check and a drop with an empty 200 (ExistsResource,
    SchemaResource): a 200 with a body is not taken for "exists" or "dropped"."""

    def exists(self, name):
        return any(t["name"] == name for t in self.emu.state()["tables"])

    def test_drop__bodied_200_not_executed_is_exit_4_table_still_there(self):
        self.emu.create("t1", [b"m"])
        for kind in ("invalid_json", "wrong_ctype"):
            self.emu.clear_faults()
            self.emu.fault(server="rest", method="DELETE", path="^/t1/schema$", kind=kind,
                           count=-1)
            r = self.hb("drop", "t1", "--yes")
            self.assertEqual(r.rc, 4, r)
            self.assertIn("still exists", r.err)
            self.assertTrue(self.exists("t1"))

    def test_drop__bodied_200_after_the_drop_counts_once_the_table_is_gone(self):
        self.emu.create("t1", [b"m"])
        self.emu.fault(server="rest", method="DELETE", path="^/t1/schema$",
                       kind="truncated_json", count=-1)
        r = self.hb("drop", "t1", "--yes")
        self.assertEqual(r.rc, 0, r)
        self.assertFalse(self.exists("t1"))
        # seen to exist before the drop, seen gone after the answer that proves nothing
        self.assertEqual([q["path"] for q in self.emu.requests() if q["method"] == "GET"],
                         ["/t1/exists", "/t1/exists"])

    def test_drop__a_table_that_never_existed_is_not_found_whatever_a_delete_would_say(self):
        self.emu.fault(server="rest", method="DELETE", path="^/t9/schema$", kind="wrong_ctype",
                       count=-1)
        r = self.hb("-o", "json", "drop", "t9", "--yes")
        self.assertEqual(r.rc, 4, r)
        self.assertIn("table 't9' not found", r.err)
        self.assertNotIn("DELETE", [q["method"] for q in self.emu.requests()])
        r = self.hb("-o", "json", "drop", "t9", "--yes", "--if-exists")
        self.assertEqual(r.rc, 0, r)
        self.assertEqual(r.json()["existed"], False)
        self.assertEqual(r.json()["dropped"], False)
        self.assertNotIn("DELETE", [q["method"] for q in self.emu.requests()])

    def test_drop__bodied_200_and_the_check_fails_is_exit_4(self):
        self.emu.create("t1", [b"m"])
        self.emu.fault(server="rest", method="DELETE", path="^/t1/schema$", kind="wrong_ctype",
                       count=-1)
        # the check before the drop is answered; the one after it fails
        self.emu.fault(server="rest", method="GET", path="^/t1/exists$", kind="500", count=-1,
                       skip=1)
        r = self.hb("drop", "t1", "--yes", "--retries", "0")
        self.assertEqual(r.rc, 4, r)
        self.assertIn("cannot be checked", r.err)

    def test_exists__bodied_200_is_a_malformed_answer_not_exists(self):
        for kind in ("invalid_json", "wrong_ctype", "truncated_json"):
            self.emu.clear_faults()
            self.emu.fault(server="rest", method="GET", path="^/t9/exists$", kind=kind,
                           count=-1)
            r = self.hb("drop", "t9", "--dry-run")
            self.assertEqual(r.rc, 4, r)
            self.assertIn("HBase answers an empty 200", r.err)
            r = self.hb("create", "t9", "--hex-splits", "4", "--family", "cf")
            self.assertEqual(r.rc, 4, r)
            self.assertFalse(self.exists("t9"))


if __name__ == "__main__":
    hbtest.main()
