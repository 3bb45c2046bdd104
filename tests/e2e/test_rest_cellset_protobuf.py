"""End-to-end: scanner batches and row GETs are read as protobuf (one CellSet message,
docs/hbase-wire.md §4.1) and, from a gateway or proxy that refuses it or answers JSON, as
JSON, with the same output; a refused scanner batch is never lost."""
import base64

import hbtest
from hbtest import EmulatorTest

PB = "application/x-protobuf"
JSON = "application/json"
ROWS = 2500  # three scanner batches of 1,000 cells


class CellSetProtobuf(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"0800", b"1600"], families=("info",))
        rows = [{"key": base64.b64encode(b"%04d" % i).decode(),
                 "cells": [{"column": base64.b64encode(b"info:q").decode(),
                            "value": base64.b64encode(b"v%d" % i).decode()}]}
                for i in range(ROWS)]
        st, _ = self.emu.control("POST", "/control/put", {"table": "t1", "rows": rows})
        self.assertEqual(st, 200)
        r = self.hb("meta", "set", "t1", "3")
        self.assertOk(r)

    def gateway(self, answer):
        st, _ = self.emu.control("POST", "/control/protobuf", {"answer": answer})
        self.assertEqual(st, 200)

    def sample(self):
        """Every row sampled (the chance is 1), so the split keys are the same every run."""
        self.emu.clear_requests()
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "t1",
                    "--sample-rows", "100000", "--format", "json")
        self.assertOk(r)
        return r.out

    def scanner_requests(self):
        return [(q["method"], q["accept"] if q["method"] == "GET" else None, q["status"])
                for q in self.emu.requests() if "/scanner" in q["path"]]

    def scanner_gets(self):
        return [(a, s) for m, a, s in self.scanner_requests() if m == "GET"]

    def test_scanner_batches_are_protobuf_and_give_what_json_gives(self):
        self.gateway("json")
        want = self.sample()
        self.assertEqual(self.scanner_gets(), [(PB, 200)] * 3 + [(PB, 204)])
        self.gateway("protobuf")
        self.assertEqual(self.sample(), want)
        self.assertEqual(self.scanner_gets(), [(PB, 200)] * 3 + [(PB, 204)])
        self.assertIn('"splits"', want)

    def test_406_reopens_the_scanner_as_json_and_reads_every_row(self):
        want = self.sample()
        for answer in ("406", "406-after-read"):
            self.gateway(answer)
            self.assertEqual(self.sample(), want, answer)
            # the refused scanner is deleted; a new one is read as JSON from the start
            self.assertEqual(self.scanner_requests(),
                             [("POST", None, 201), ("GET", PB, 406), ("DELETE", None, 200),
                              ("POST", None, 201)] + [("GET", JSON, 200)] * 3 +
                             [("GET", JSON, 204), ("DELETE", None, 200)], answer)

    def test_a_foreign_answer_mid_scan_goes_on_as_json_after_the_last_whole_row(self):
        want = self.sample()
        self.emu.fault(kind="wrong_ctype", path="/t1/scanner/", method="GET", skip=1, count=1)
        self.assertEqual(self.sample(), want)
        gets = self.scanner_gets()
        self.assertEqual(gets[:2], [(PB, 200), (PB, 200)])  # the second one was text/html
        self.assertEqual(set(gets[2:]), {(JSON, 200), (JSON, 204)})
        self.assertEqual([m for m, _, _ in self.scanner_requests()].count("POST"), 2)

    def test_html_from_every_scanner_get_is_named(self):
        self.emu.fault(kind="wrong_ctype", path="/t1/scanner/", method="GET", count=-1)
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "t1",
                    "--sample-rows", "100000")
        self.assertFails(r, 4, r"unexpected content type 'text/html;charset=utf-8' from "
                               r"GET /t1/scanner/")
        self.assertEqual([a for a, _ in self.scanner_gets()], [PB, JSON])

    def row_gets(self):
        return [(q["accept"], q["status"]) for q in self.emu.requests()
                if q["method"] == "GET" and q["path"] == "/t1/totalPartition/info"]

    def test_row_gets_are_protobuf_and_give_what_json_gives(self):
        out = {}
        for answer, asked in (("protobuf", [(PB, 200)]), ("json", [(PB, 200)]),
                              ("406", [(PB, 406), (JSON, 200)])):
            self.gateway(answer)
            self.emu.clear_requests()
            r = self.hb("-o", "json", "meta", "get", "t1")
            self.assertOk(r)
            out[answer] = r.out
            self.assertEqual(self.row_gets(), asked, answer)
        self.assertEqual(len(set(out.values())), 1, out)
        self.assertIn("3", out["protobuf"])

    def test_missing_row_is_a_404_in_either_type(self):
        for answer in ("protobuf", "406"):
            self.gateway(answer)
            r = self.hb("meta", "get", "t1", "--metadata-row", "noSuchRow")
            self.assertFails(r, 1)


if __name__ == "__main__":
    hbtest.main()
