"""End-to-end fault matrix of rotate, which creates, verifies and drops tables: every
emulator fault kind at every request step (create: test_fault_matrix_create.py; drop:
test_fault_matrix_rest.py). The cells, the expected exit codes and the workers are those
of lib/faultmatrix.py."""
import os

import hbtest
from lib.faultmatrix import HEX4, WAIT, FaultMatrix

TEMPLATE = "ev_%Y%m%d"
DROPPED = ("ev_20261101", "ev_20261102")  # managed and past retention on day 3


class RotateMatrix(FaultMatrix):
    """Day 3 with one day ahead and one retained: ev_20261103 is verified, ev_20261104
    created, and the managed ev_20261101 and ev_20261102 dropped."""
    name = "rotate"
    # The region states come from hbase:meta, and from Thrift2 when meta cannot be read.
    optional = (("GET", r"^/hbase%3Ameta/"),)

    def rotate(self, w, day, *extra):
        return ["rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now",
                "2026-11-%02d" % day, "--lock", os.path.join(w.tmp, "rotate.lock"),
                "--wait", WAIT] + list(extra)

    def prepare(self, w):
        for day in (1, 2):
            r = w.hbm(*self.rotate(w, day, "--retain", "2", "--yes"))
            self.assertEqual(r.rc, 0, r)

    def command(self, w):
        return self.rotate(w, 3, "--ahead", "1", "--retain", "1", "--yes", "--max-drops", "5")

    def ev_tables(self, w):
        return sorted(t["name"] for t in w.emu.state()["tables"] if t["name"].startswith("ev_"))

    def check_steps(self, steps):
        # the run retires both managed tables: a drop is among the steps, each after the
        # listing's read of the table's rotate mark and the re-check right before it
        reqs = [(s["method"], s["path"], s["status"]) for s in steps]
        for t in DROPPED:
            i = reqs.index(("DELETE", "/%s/schema" % t, 200))
            self.assertEqual(reqs[i - 2:i], [("GET", "/%s/totalPartition" % t, 200)] * 2)

    def check_no_harm(self, w, requests):
        drops = [q["path"] for q in requests
                 if q["method"] == "DELETE" and "/scanner/" not in q["path"]]
        self.assertEqual(len(drops), len(set(drops)), "a drop was sent twice")
        for i, q in enumerate(requests):
            if q["method"] == "DELETE" and "/scanner/" not in q["path"]:
                self.assertIn(q["path"], ["/%s/schema" % t for t in DROPPED], q)
                # dropped only on a mark re-check that was answered in full
                mark = "/%s/totalPartition" % q["path"].split("/")[1]
                reads = [p for p in requests[:i] if p["method"] == "GET" and p["path"] == mark]
                self.assertTrue(reads, "dropped without reading its mark")
                self.assertEqual((reads[-1]["status"], reads[-1]["fault"]), (200, None),
                                 "dropped after a failed mark re-check")
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
