"""End-to-end fault matrix for the commands that create and drop tables: every emulator
fault kind at every request step of create and rotate. The cells, the expected exit codes
and the workers are those of test_fault_matrix.py."""
import os

import hbtest
from test_fault_matrix import HEX4, FaultMatrix


class CreateMatrix(FaultMatrix):
    name = "create"
    # The region states come from hbase:meta, and from Thrift2 when meta cannot be read.
    optional = (("GET", r"^/hbase%3Ameta/"),)

    def command(self, w):
        return ["create", "t1", "--hex-splits", "4", "--family", "cf"]

    def check_no_harm(self, w, requests):
        for q in requests:
            if q["method"] == "DELETE":
                self.assertIn("/scanner/", q["path"])
            if q["server"] == "rest" and q["method"] in ("PUT", "POST"):
                self.assertTrue(q["path"] == "/t1/hbtab-row?check=put"
                                or q["path"].endswith("/scanner"), q)
        if w.emu.table("t1") is not None:
            self.assertEqual(w.emu.boundaries("t1"), HEX4)
            row = w.emu.metadata_row("t1")
            if row is not None:
                self.assertEqual(row["cf:N"], "4")

    def check_done(self, w):
        self.assertEqual(w.emu.boundaries("t1"), HEX4)
        self.assertEqual(w.emu.metadata_row("t1")["cf:N"], "4")

    def test_fault_matrix__create(self):
        self.run_matrix()


TEMPLATE = "ev_%Y%m%d"


class RotateMatrix(FaultMatrix):
    """Day 3 with one day ahead and one retained: ev_20261103 is verified, ev_20261104
    created, and the managed ev_20261101 and ev_20261102 dropped."""
    name = "rotate"
    # The region states come from hbase:meta, and from Thrift2 when meta cannot be read.
    optional = (("GET", r"^/hbase%3Ameta/"),)

    def rotate(self, w, day, *extra):
        return ["rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now",
                "2026-11-%02d" % day, "--lock", os.path.join(w.tmp, "rotate.lock")] + list(extra)

    def prepare(self, w):
        for day in (1, 2):
            r = w.hbm(*self.rotate(w, day, "--retain", "2", "--yes"))
            self.assertEqual(r.rc, 0, r)

    def command(self, w):
        return self.rotate(w, 3, "--ahead", "1", "--retain", "1", "--yes", "--max-drops", "5")

    def ev_tables(self, w):
        return sorted(t["name"] for t in w.emu.state()["tables"] if t["name"].startswith("ev_"))

    def check_no_harm(self, w, requests):
        for q in requests:
            if q["method"] == "DELETE" and "/scanner/" not in q["path"]:
                self.assertIn(q["path"], ("/ev_20261101/schema", "/ev_20261102/schema"), q)
            if q["server"] == "rest" and q["method"] in ("PUT", "POST"):
                self.assertTrue(q["path"] == "/ev_20261104/hbtab-row?check=put"
                                or q["path"].endswith("/scanner"), q)
        tables = self.ev_tables(w)
        self.assertIn("ev_20261103", tables)
        for t in tables:
            self.assertEqual(w.emu.boundaries(t), HEX4, t)
        self.assertEqual(w.emu.metadata_row("ev_20261103")["cf:rotate"], TEMPLATE)
        row = w.emu.metadata_row("ev_20261104")
        if row is not None:
            self.assertEqual(row["cf:rotate"], TEMPLATE)

    def check_done(self, w):
        self.assertEqual(self.ev_tables(w), ["ev_20261103", "ev_20261104"])
        for t in ("ev_20261103", "ev_20261104"):
            self.assertEqual(w.emu.boundaries(t), HEX4, t)
            self.assertEqual(w.emu.metadata_row(t)["cf:rotate"], TEMPLATE, t)

    def test_fault_matrix__rotate(self):
        self.run_matrix()


if __name__ == "__main__":
    hbtest.main()
