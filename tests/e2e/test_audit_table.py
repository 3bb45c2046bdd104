"""End-to-end: hbtab audit TABLE against the emulator (chain defects, drift, hot-spots)."""
import struct
import subprocess
import time

import hbtest
from hbtest import EmulatorTest, b64, run
from lib.rows import put_rows

# the cell of each row the tests write
CELL = {"column": b"cf:q", "value": b"v"}

HEX10 = [b"%08x" % (i * (2 ** 32 // 10)) for i in range(1, 10)]
PART20 = [struct.pack(">q", i) for i in range(1, 20)]


def kinds(doc):
    return sorted((f["kind"], f["region"] if f["region"] is not None else -1)
                  for f in doc["findings"])


class AuditTable(EmulatorTest):
    def put_meta(self, table, n=None, keyspace=None, splits=None, family="cf"):
        cells = []
        for q, v in (("N", n), ("keyspace", keyspace), ("splits", splits)):
            if v is not None:
                cells.append({"column": b64("%s:%s" % (family, q)), "value": b64(str(v))})
        st, body = self.emu.control("POST", "/control/put", {
            "table": table, "rows": [{"key": b64("totalPartition"), "cells": cells}]})
        self.assertIn(st, (200, 201), body)

    def audit(self, *args):
        r = self.hb("-o", "json", "audit", *args)
        doc = r.json()
        # exactly one status for the document: 0 when healthy, 1 with findings
        self.assertEqual(r.rc, 0 if doc["healthy"] else 1, repr(r))
        self.assertEqual(doc["healthy"], not doc["findings"])
        return r, doc

    def test_audit_table__regions_piled_on_one_server_are_a_placement_finding(self):
        # servers 2 and 3 down while the table is created: all 6 regions open on server 1;
        # restarted servers get none of them back (no balancer run)
        for i in (1, 2):
            self.emu.control("POST", "/control/server", {"index": i, "state": "stop"})
        self.emu.create("piled", splits=[b"%d" % i for i in range(1, 6)])
        for i in (1, 2):
            self.emu.control("POST", "/control/server", {"index": i, "state": "start"})
        r, doc = self.audit("piled")
        placed = [f for f in doc["findings"] if f["kind"] == "placement"]
        self.assertEqual(len(placed), 1, doc["findings"])
        self.assertIsNone(placed[0]["region"])
        self.assertRegex(placed[0]["message"],
                         r"^server \S+ holds 6 of the table's 6 regions; an even spread over "
                         r"3 live servers is 2\.0")
        self.assertEqual(r.rc, 1)
        # a wide enough margin accepts it: ceil(3 x 2) = 6
        r, doc = self.audit("piled", "--placement-factor", "3")
        self.assertNotIn("placement", [f["kind"] for f in doc["findings"]])
        bad = self.hb("audit", "piled", "--placement-factor", "0.5")
        self.assertFails(bad, 2, r"invalid --placement-factor '0\.5'")

    def test_audit_table__even_round_robin_placement_is_no_finding(self):
        self.emu.create("even", splits=HEX10)
        r, doc = self.audit("even", "--keyspace", "hex{8}")
        self.assertNotIn("placement", [f["kind"] for f in doc["findings"]])

    def test_audit_table__hex_table_with_metadata_is_healthy_from_rest_and_meta(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}", "--hex-splits 10")
        for source in ("rest", "meta"):
            r, doc = self.audit("t1", "--source", source)
            self.assertEqual(r.rc, 0, repr(r))
            self.assertEqual(doc["table"], "t1")
            self.assertEqual(doc["source"], source)
            self.assertEqual(doc["keyspace"], "hex{8}")
            self.assertEqual(len(doc["regions"]), 10)
            self.assertTrue(all(x["reachable"] for x in doc["regions"]))
        r = self.hb("audit", "t1")
        self.assertEqual(r.rc, 0, repr(r))
        self.assertTrue(r.out.startswith("healthy: 10 regions, 0 findings, keyspace 'hex{8}'"))

    def test_audit_table__without_keyspace_a_region_no_row_can_reach_is_flagged(self):
        # No key space anywhere: regions are checked against any row key (1+ bytes). A
        # region holds its own start key, so only ['', \x00) can never hold a row.
        self.emu.create("t1", [b"\x00", b"m", b"m\x00"])
        self.put_meta("t1", 4)
        r, doc = self.audit("t1")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertIsNone(doc["keyspace"])
        self.assertEqual([x["reachable"] for x in doc["regions"]], [False, True, True, True])
        self.assertTrue(all(x["share"] is None for x in doc["regions"]))
        self.assertEqual(kinds(doc), [("unreachable", 0)])

    def test_audit_table__stored_keyspace_finds_seed001_unreachable_regions(self):
        keys = [hbtest.unb64(k["base64"]) for k in run(
            ["-o", "json", "splits", "--range-splits", "10", "--start", "0000000000000000",
             "--end", "ffffffffffffffff"]).json()["splits"]]
        self.emu.create("t1", keys)
        self.put_meta("t1", 10, "hex{16}")
        r, doc = self.audit("t1")
        self.assertEqual(r.rc, 1)
        self.assertEqual(kinds(doc), [("unreachable", i) for i in (0, 3, 4, 5, 6, 7)])
        # --keyspace overrides the stored one, and the difference is drift.
        r, doc = self.audit("t1", "--keyspace", "hex{1,16}")
        self.assertEqual(kinds(doc), [("drift", -1)] + [("unreachable", i) for i in range(3, 8)])

    def test_audit_table__missing_metadata_and_n_drift(self):
        self.emu.create("t1", HEX10)
        # a healthy table hbtab did not create: no metadata row is no finding by default
        r, doc = self.audit("t1", "--keyspace", "hex{8}")
        self.assertEqual(r.rc, 0, repr(r))
        self.assertEqual(kinds(doc), [])
        self.assertIs(doc["metadata_row"], False)
        r = self.hb("audit", "t1")
        self.assertOk(r)
        self.assertIn("no metadata row", r.out)
        r, doc = self.audit("t1", "--keyspace", "hex{8}", "--require-metadata")
        self.assertEqual(r.rc, 1)
        self.assertEqual(kinds(doc), [("missing_metadata", -1)])
        self.put_meta("t1", 5, "hex{8}")
        r, doc = self.audit("t1")
        self.assertEqual(kinds(doc), [("drift", -1)])
        self.assertIn("stored N is 5 but the table has 10 live regions",
                      doc["findings"][0]["message"])

    def test_audit_table__split_parent_is_reported_not_an_overlap(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}")
        st, body = self.emu.control("POST", "/control/split",
                                    {"table": "t1", "key": b64("40000000"), "leave_parent": True})
        self.assertEqual(st, 200, body)
        r, doc = self.audit("t1", "--source", "meta")
        k = kinds(doc)
        self.assertIn("split_parent", [x[0] for x in k])
        for bad in ("overlap", "hole", "duplicate", "meta_rest_mismatch"):
            self.assertNotIn(bad, [x[0] for x in k], repr(r))
        self.assertIn(("drift", -1), k)  # 11 live regions, N = 10

    def test_audit_table__offline_region_leaves_a_hole(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}")
        self.emu.control("POST", "/control/offline", {"table": "t1", "index": 4})
        r, doc = self.audit("t1", "--source", "meta")
        k = [x[0] for x in kinds(doc)]
        self.assertIn("offline", k, repr(r))
        self.assertIn("hole", k, repr(r))
        r, doc = self.audit("t1")  # REST does not list the offline region at all
        self.assertIn("hole", [x[0] for x in kinds(doc)])

    def test_audit_table__hole_and_overlap(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}")
        self.emu.control("POST", "/control/hole", {"table": "t1", "index": 3})
        r, doc = self.audit("t1")
        self.assertIn(("hole", 3), kinds(doc), repr(r))
        self.emu.reset()
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}")
        self.emu.control("POST", "/control/overlap",
                         {"table": "t1", "start": b64("20000000"), "end": b64("50000000")})
        r, doc = self.audit("t1", "--source", "meta")
        self.assertIn("overlap", [x[0] for x in kinds(doc)], repr(r))

    def test_audit_table__unassigned_region_is_not_open_but_keeps_its_server(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8}")
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 2})
        r, doc = self.audit("t1", "--source", "meta")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertIn(("not_open", 2), kinds(doc), repr(r))
        self.assertNotIn(("no_server", 2), kinds(doc), repr(r))
        # meta keeps the closed region's last server, so REST lists it the same
        self.assertNotIn("meta_rest_mismatch", [k for k, _ in kinds(doc)])

    def test_audit_table__never_opened_regions_have_no_server(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        self.emu.create("t1", HEX10[:2])
        r, doc = self.audit("t1", "--source", "meta")
        self.assertEqual(sorted(k for k in kinds(doc) if k[0] == "no_server"),
                         [("no_server", 0), ("no_server", 1), ("no_server", 2)])
        self.assertIn("cannot compare with REST", r.err)

    def test_audit_table__partition_table_boundaries_and_split_drift(self):
        self.emu.create("p", PART20)
        self.put_meta("p", 20, "u64<20 byte{8}", "--partition-splits 20")
        r, doc = self.audit("p")
        self.assertEqual(r.rc, 0, repr(r))
        self.emu.control("POST", "/control/split",
                         {"table": "p", "key": b64(struct.pack(">qq", 7, 5))})
        r, doc = self.audit("p")
        k = kinds(doc)
        self.assertIn(("drift", -1), k)
        self.assertTrue(any(kind == "drift" and reg >= 0 for kind, reg in k), repr(r))

    def test_audit_table__sequential_writes_are_named(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8} *")
        put_rows(self.emu, "t1", [b"f%07d" % i for i in range(600)], **CELL)
        put_rows(self.emu, "t1", [b"1%07d" % i for i in range(10)], **CELL)
        r, doc = self.audit("t1", "--hotspots", "--window", "0")
        self.assertEqual(r.rc, 1, repr(r))
        # The region, and the server holding it (3 servers: fair share 1/3).
        self.assertEqual(kinds(doc), [("hotspot", -1), ("hotspot", 9)])
        self.assertIn("sequential", doc["findings"][0]["message"])
        self.assertRegex(doc["findings"][1]["message"], r"^server \S+ takes \d+\.\d% of the table.s writes")
        self.assertEqual(doc["hotspots"]["sequential_region"], 9)
        # The metadata row 'totalPartition' is one more write, to the last region.
        self.assertEqual(doc["hotspots"]["total_writes"], 611)
        self.assertEqual(doc["regions"][9]["writes"], 601)

    def test_audit_table__window_measures_only_writes_during_it(self):
        self.emu.create("t1", HEX10)
        self.put_meta("t1", 10, "hex{8} *")
        put_rows(self.emu, "t1", [b"f%07d" % i for i in range(600)], **CELL)  # before the window
        # a generous window: the writes below only have to land before it closes
        args = [hbtest.HBTAB, "--rest", self.emu.rest, "--no-progress", "-o", "json",
                "audit", "t1", "--hotspots", "--window", "20", "--hot-min-writes", "50"]
        home = hbtest.tempfile.mkdtemp()
        self.emu.clear_requests()
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=hbtest.clean_env(home))
        # write only once the first counter reading is taken (the window has opened)
        deadline = time.monotonic() + 120  # a guard against a hang, not a speed limit
        while not any(q["path"] == "/status/cluster" for q in self.emu.requests()):
            self.assertIsNone(p.poll(), "audit ended before its first counter reading")
            self.assertLess(time.monotonic(), deadline, "no counter reading")
            time.sleep(0.05)
        put_rows(self.emu, "t1", [b"3%07d" % i for i in range(100)], **CELL)  # region 1 [19999999, 33333332)
        put_rows(self.emu, "t1", [b"8%07d" % i for i in range(10)], **CELL)
        out, err = p.communicate(timeout=60)
        hbtest.shutil.rmtree(home, ignore_errors=True)
        doc = hbtest.json.loads(out)
        self.assertEqual(doc["hotspots"]["total_writes"], 110, err)
        self.assertEqual(kinds(doc), [("hotspot", -1), ("hotspot", 1)])
        self.assertIsNone(doc["hotspots"]["sequential_region"])

    def test_audit_table__missing_table_and_bad_input(self):
        r = self.hb("audit", "nope", "--keyspace", "hex{8}")
        self.assertFails(r, 4, "not found")
        r = self.hb("audit", "t1", "--keyspace", "hex{")
        self.assertFails(r, 2, "column 5: expected a number")
        r = self.hb("audit", "t1", "--window", "5")
        self.assertFails(r, 2, "--window needs --hotspots")


if __name__ == "__main__":
    hbtest.main()
