"""repair's proof that an unreachable region is empty, for regions with binary bounds: a
stateful REST scanner ends with the same 204 when its region server failed as when the rows
did, so a 204 never proves a region empty (docs/hbase-merge-split.md §6). The emulator's
scanner_end fault answers every scanner GET with that 204 while rows are there.

The table: regions [, \\x10), [\\x10, 5\\x01), [5\\x01, \\x80), [\\x80, ) under the key space
dec{4}; the first and the last are unreachable.
"""
import urllib.parse
import urllib.request

import hbtest
from hbtest import EmulatorTest, b64, unb64

TABLE = "ns:device_readings_binary_20261128"
SPLITS = [b"\x10", b"5\x01", b"\x80"]
KEYSPACE = ("--keyspace", "dec{4}")
# "~" * 40 sorts after every decimal key and before \x80: the last region's printable floor
# ("~" * 32) finds it first, so only a scanner over its exact bounds could tell
ROWS = [b"1000", b"4999", b"5\x00binary", b"7000", b"~" * 40, b"\x90\x01device"]


class EmptinessProof(EmulatorTest):
    def seeded(self, rows=ROWS):
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns", method="POST")
        with urllib.request.urlopen(req, timeout=60) as resp:
            self.assertIn(resp.status, (200, 201))
        self.emu.create(TABLE, SPLITS, families=("info",))
        st, body = self.emu.control("POST", "/control/put", {"table": TABLE, "rows": [
            {"key": b64(k), "cells": [{"column": b64("info:q"), "value": b64("v")}]}
            for k in rows]})
        self.assertEqual(st, 200, body)

    def boundaries(self):
        st, body = self.emu.rest_get("/%s/regions" % urllib.parse.quote(TABLE, safe=""))
        self.assertEqual(st, 200, body)
        return sorted(unb64(r.get("startKey", "")) for r in body["Region"])[1:]

    def rows(self):
        st, body = self.emu.rest_get("/%s/*" % urllib.parse.quote(TABLE, safe=""))
        self.assertEqual(st, 200, body)
        return sorted(unb64(r["key"]) for r in body["Row"])

    def plan(self, *extra):
        r = self.hb("repair", TABLE, *KEYSPACE, *extra, "-o", "json")
        self.assertEqual(r.rc, 1, r)
        return r, [(s["finding"], s["action"], [x["index"] for x in s["regions"]])
                   for s in r.json()["steps"]]

    def test_a_binary_region_holding_rows_is_found_by_a_scan_over_its_bounds(self):
        self.seeded()
        r, steps = self.plan()
        self.assertEqual(steps, [("unreachable", "merge", [0, 1]),
                                 ("unreachable_not_empty", "report", [3])], r)

    def test_a_scanner_ending_with_204_never_proves_a_binary_region_empty(self):
        self.seeded()
        # every scanner GET is the 204 of a scan whose region server failed
        self.emu.fault(server="rest", method="GET", path=".*/scanner/.*", kind="scanner_end",
                       count=-1)
        r, steps = self.plan()
        # region 0 is proven empty by a stateless scan from its printable floor (''): its
        # first row, '1000', is past its end; region 3's floor scan finds a row before it,
        # and its scanner's 204 proves nothing
        self.assertEqual(steps, [("unreachable", "merge", [0, 1]),
                                 ("unreachable_unproven", "report", [3])], r)
        r = self.hb("repair", TABLE, *KEYSPACE, "--apply", "-o", "json", "--hbase-shell",
                    "ruby %s -n" % hbtest.SHELL_STANDIN,
                    env={"HBEMU_CONTROL": self.emu.control_url})
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.json()["steps_done"], 1, r)
        self.assertEqual(self.boundaries(), [b"5\x01", b"\x80"])
        self.assertEqual(self.rows(), sorted(ROWS))
        self.assertTrue(any(q["method"] == "GET" and "/scanner/" in q["path"]
                            for q in self.emu.requests()), "the scanner was asked")

    def test_a_binary_region_after_the_last_row_is_proven_empty_without_a_scanner(self):
        self.seeded(ROWS[:4])
        self.emu.fault(server="rest", method="GET", path=".*/scanner/.*", kind="scanner_end",
                       count=-1)
        r, steps = self.plan()
        # the last region's floor scan finds no row at or after '~' * 32
        self.assertEqual(steps, [("unreachable", "merge", [0, 1]),
                                 ("unreachable", "merge", [2, 3])], r)
        self.assertFalse([q for q in self.emu.requests()
                          if "/scanner" in q["path"] and "device_readings" in q["path"]],
                         "no scanner of the table was opened")

if __name__ == "__main__":
    hbtest.main()
