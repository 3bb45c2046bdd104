"""Unattended (cron-style) runs never report success they have not earned: unknown state,
refusals before DDL, leaked scanners, idempotent reruns, dry runs that predict, rotation that
keeps its promise, and plain messages for missing namespaces."""
import os
import subprocess
import tempfile

import hbtest
from hbtest import b64, unb64


def put_rows(emu, table, keys):
    rows = [{"key": b64(k), "cells": [{"column": b64("cf:v"), "value": b64(b"x")}]} for k in keys]
    for i in range(0, len(rows), 500):
        st, body = emu.control("POST", "/control/put", {"table": table, "rows": rows[i:i + 500]})
        assert st == 200, body


class StateUnknown(hbtest.EmulatorTest):
    def test_audit_and_regions_report_state_unknown_never_healthy_when_meta_and_thrift_fail(self):
        self.assertOk(self.hb("create", "fx", "--hex-splits", "4", "--keyspace", "hex{8}", "-q"))
        self.emu.control("POST", "/control/disable", {"table": "fx"})
        # a user without READ on hbase:meta, and Thrift2 failing
        self.emu.fault(server="rest", path="hbase%3Ameta", kind="403", count=-1)
        self.emu.fault(server="thrift", kind="500", count=-1)
        r = self.hb("-q", "audit", "fx")
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.out, r"^state_unknown: cannot learn whether table 'fx' is enabled "
                                r"and its regions open: .*HTTP 403.*thrift2 isTableEnabled.*"
                                r"HTTP 500.*the table may be disabled")
        self.assertEqual(len(r.out.splitlines()), 1, r)
        j = self.hb("-o", "json", "audit", "fx")
        self.assertEqual(j.rc, 1, j)
        doc = j.json()
        self.assertFalse(doc["healthy"])
        self.assertIsNone(doc["metadata_row"])  # not "missing": a disabled table hides it
        self.assertEqual([f["kind"] for f in doc["findings"]], ["state_unknown"])
        t = self.hb("audit", "fx")
        self.assertIn("unhealthy: 4 regions, 1 finding, metadata row unknown", t.out)
        self.assertNotIn("no metadata row", t.out)
        g = self.hb("-q", "regions", "fx")
        self.assertEqual(g.rc, 1, g)
        self.assertEqual(len(g.out.splitlines()), 4)
        self.assertRegex(g.err, r"^hbtab: state_unknown: cannot learn whether table 'fx' is "
                                r"enabled")
        gj = self.hb("-o", "json", "regions", "fx")
        self.assertEqual(gj.rc, 1, gj)
        self.assertIsNone(gj.json()["table_state"])
        self.assertEqual([f["kind"] for f in gj.json()["findings"]], ["state_unknown"])
        # without --thrift the message says there was nothing else to ask
        r = hbtest.run(["--rest", self.emu.rest, "-q", "audit", "fx"])
        self.assertEqual(r.rc, 1, r)
        self.assertIn("no --thrift server to ask instead", r.out)
        # once meta is readable the state is known: the finding is the real one
        self.emu.clear_faults()
        r = self.hb("-q", "audit", "fx")
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.out, r"^disabled: table 'fx' is disabled")


class CreateKeyspaceRefusal(hbtest.EmulatorTest):
    def test_create_keyspace_refuses_an_unreachable_design_before_any_ddl_unless_allowed(self):
        argv = ("create", "t1", "--hex-splits", "4", "--keyspace", "dec{8}")
        r = self.hb(*argv)
        self.assertFails(r, 1, r"^hbtab: refusing to create 't1': 1 of 4 regions cannot hold "
                               r"any key of keyspace 'dec\{8\}'; nothing was sent "
                               r"\(--allow-unreachable creates it anyway\)")
        self.assertIn("region 3 starting at 'c0000000'", r.err)
        self.assertEqual(r.out, "")
        self.assertIsNone(self.emu.table("t1"))
        self.assertEqual([q for q in self.emu.requests() if q["method"] != "GET"], [])
        # the explicit flag creates it; under -q the findings alone are printed
        r = self.hb("-q", *argv, "--allow-unreachable")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.out.splitlines(), ["1 region no key of 'dec{8}' can reach:",
                                              "  region 3 starting at 'c0000000'"])
        self.assertEqual(len(self.emu.live_regions("t1")), 4)
        self.assertFails(self.hb("create", "t2", "--hex-splits", "4", "--allow-unreachable"), 2,
                         "--allow-unreachable needs --keyspace")


class ScannerDelete(hbtest.EmulatorTest):
    KEYS = [b"user%04d" % i for i in range(200)]

    def setUp(self):
        super().setUp()
        self.emu.create("samp", [b"user0100"])
        put_rows(self.emu, "samp", self.KEYS)

    def open_scanners(self):
        return self.emu.control("GET", "/control/scanners")[1]

    def deletes(self):
        return [(q["method"], q["status"]) for q in self.emu.requests()
                if q["method"] == "DELETE" and "/scanner/" in q["path"]]

    def test_failed_scanner_delete_is_reported_even_under_q_and_transient_ones_retried(self):
        argv = ("-q", "splits", "--sampled-splits", "4", "--sample-table", "samp")
        clean = self.hb(*argv)
        self.assertOk(clean)
        self.assertEqual(clean.err, "")
        # a 503 is transient: the DELETE is sent again, the scanner is gone, nothing to say
        self.emu.clear_requests()
        self.emu.fault(method="DELETE", path="/scanner/", kind="503", count=1)
        r = self.hb(*argv)
        self.assertOk(r)
        self.assertEqual(r.out, clean.out)
        self.assertEqual(r.err, "")
        self.assertEqual(self.deletes(), [("DELETE", 503), ("DELETE", 200)])
        self.assertEqual(self.open_scanners(), [])
        # a 500, a 403 or an answer that is not HBase's: the scanner may be left open, and
        # cron hears of it (the keys read are complete, so the run itself succeeds)
        for kind, said in (("500", r"HTTP 500"), ("403", r"HTTP 403"),
                           ("wrong_ctype", r"HTTP 200 with a \d+-byte body")):
            self.emu.clear_faults()
            self.emu.clear_requests()
            self.emu.fault(method="DELETE", path="/scanner/", kind=kind, count=1)
            r = self.hb(*argv)
            self.assertOk(r)
            self.assertEqual(r.out, clean.out)
            self.assertRegex(r.err, r"^hbtab: warning: (unexpected answer to )?DELETE "
                                    r"/samp/scanner/\w+: .*%s.*the scanner may stay open on "
                                    r"the gateway" % said)
            self.assertEqual(len(r.err.splitlines()), 1, r)
            self.assertEqual(len(self.deletes()), 1)


class MetadataRowDotSegments(hbtest.EmulatorTest):
    def test_metadata_row_named_dot_or_dotdot_is_written_and_read_back_as_itself(self):
        # libcurl removes dot segments from a URL path: a row GET of '.' or '..' would read
        # another resource, so such rows go through a scanner like other unsafe keys.
        for row in (".", ".."):
            self.emu.reset()
            r = self.hb("create", "mr", "--hex-splits", "2", "--metadata-row", row, "-q")
            self.assertOk(r)
            self.assertEqual(r.out, "")
            self.assertEqual(self.emu.metadata_row("mr", row=row)["cf:N"], "2")
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 2)
            s = self.hb("meta", "set", "mr", "7", "--force", "--metadata-row", row, "-q")
            self.assertOk(s)
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 7)
            self.emu.clear_requests()
            self.hb("meta", "get", "mr", "--metadata-row", row)
            paths = [q["path"] for q in self.emu.requests() if q["method"] == "GET"]
            self.assertFalse([p for p in paths if p.split("?")[0] in ("/mr/cf", "/cf", "/mr", "/")],
                             paths)


if __name__ == "__main__":
    hbtest.main()
