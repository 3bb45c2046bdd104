"""End-to-end: hbtab against the emulator's HBase 1.x, 2.x and 3.x wire differences and a
read-only REST gateway (tests/emulator/NOTES.md, "Version modes" and "Read-only")."""
import hashlib

import hbtest
from hbtest import EmulatorTest


def md5_encoded(name):
    """RegionInfo.encodeRegionName for a new-format name: the MD5 hex of the name up to the
    '.' before the encoded part."""
    return hashlib.md5(name[:name.rindex(b".", 0, len(name) - 1)]).hexdigest()


def put_metadata(emu, table):
    """The metadata row hbtab's audit expects: N=3, key space hex{1} (all 16 first bytes)."""
    emu.control("POST", "/control/put", {"table": table, "rows": [
        {"key": hbtest.b64(b"totalPartition"),
         "cells": [{"column": hbtest.b64(b"cf:N"), "value": hbtest.b64(b"3")},
                   {"column": hbtest.b64(b"cf:keyspace"), "value": hbtest.b64(b"hex{1}")}]}]})


class RegionInfoFields(EmulatorTest):
    def test_regions_meta__unknown_regioninfo_field_8_is_skipped_and_encoded_name_derived(self):
        # a field 8 (region_encoded_name, 2.2.3+) that disagrees with the region name: HBase
        # 2.3+ ignores it and derives the encoded name from the name, and so must hbtab
        self.emu.control("POST", "/control/regioninfo-extra", {"hex": "4205" + b"bogus".hex()})
        self.emu.create("t1", [b"g", b"p"])
        meta = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertOk(meta)
        regions = meta.json()["regions"]
        self.assertEqual(len(regions), 3)
        for r in regions:
            self.assertEqual(r["encoded"], md5_encoded(r["name"].encode()), r)
        rest = self.hb("-o", "json", "regions", "t1").json()["regions"]
        self.assertEqual([r["name"] for r in regions], [r["name"] for r in rest])


class ReadOnlyGateway(EmulatorTest):
    emulator_args = ("--read-only",)

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"4", b"8"], families=("cf",))
        put_metadata(self.emu, "t1")
        self.emu.clear_requests()

    def no_writes(self):
        self.assertEqual([q for q in self.emu.requests() if q["method"] != "GET"], [])

    def test_read_only__meta_get_reads_the_row_with_a_row_get(self):
        r = self.hb("meta", "get", "t1")
        self.assertOk(r)
        self.assertIn("N\t3\n", r.out)
        self.no_writes()

    def test_read_only__regions_from_meta_use_a_stateless_scan(self):
        r = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertOk(r)
        self.assertEqual(len(r.json()["regions"]), 3)
        self.no_writes()

    def test_read_only__audit_from_both_sources(self):
        for src in ("rest", "meta"):
            r = self.hb("audit", "t1", "--source", src)
            self.assertOk(r)
        self.no_writes()

    def test_read_only__binary_row_needs_a_scanner_and_says_so(self):
        r = self.hb("meta", "get", "t1", "--metadata-row", "\\x00N")
        self.assertFails(r, 4, r"POST /t1/scanner: HTTP 403 .*read-only")
        self.assertIn("printable", r.err)


class HBase1(EmulatorTest):
    emulator_args = ("--cluster-version", "1.4.14")

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"4", b"8"])
        put_metadata(self.emu, "t1")

    def test_hbase1__meta_sources_work_without_a_table_family(self):
        r = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertOk(r)
        regions = r.json()["regions"]
        self.assertEqual([x["start"] for x in regions], ["", "4", "8"])
        self.assertOk(self.hb("audit", "t1", "--source", "meta"))

    def test_hbase1__regions_of_a_missing_table_is_not_found_from_both_sources(self):
        # branch-1 /T/regions answers 200 with no regions for an unknown table
        self.assertFails(self.hb("regions", "nope"), 4, "table 'nope' not found")
        self.assertFails(self.hb("regions", "nope", "--source", "meta"), 4, "not found")

    def test_hbase1__status_reads_the_1x_key_names(self):
        r = self.hb("-o", "json", "status")
        self.assertOk(r)

    def test_hbase1__thrift2_create_is_refused_with_the_reason(self):
        r = self.hb("create", "t2", "--hex-splits", "4", "--via", "thrift2")
        # branch-1 hbase.thrift has no DDL: the server answers UNKNOWN_METHOD
        self.assertFails(r, 4, "Invalid method name: 'createTable'")
        self.assertIn("HBase 2.2 or later", r.err)
        self.assertEqual([t["name"] for t in self.emu.state()["tables"]], ["t1"])


class HBase3(EmulatorTest):
    emulator_args = ("--cluster-version", "3.0.0")

    def test_hbase3__status_works(self):
        self.emu.create("t1", [b"g"])
        r = self.hb("-o", "json", "status")
        self.assertOk(r)


if __name__ == "__main__":
    hbtest.main()
