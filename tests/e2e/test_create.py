"""hbtab create end to end: thrift2, rest and print channels, idempotence, safety, metadata."""
import urllib.parse
import urllib.request

import hbtest
from hbtest import b64, tsb, unb64
from lib.createbase import BINARY_KEYS, CreateTestBase, write_splits_file


class CreateThrift2Test(CreateTestBase):
    def test_create__thrift2_binary_keys_verified_and_metadata_written(self):
        r = self.create("t1", "--splits-file", self.splits_path, "--family", "info:VERSIONS=3",
                        "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertEqual(j["table"], "t1")
        self.assertTrue(j["created"])
        self.assertTrue(j["verified"])
        self.assertEqual(j["regions"], len(BINARY_KEYS) + 1)
        self.assertEqual(j["via"], "thrift2")
        self.assertEqual(self.emu.boundaries("t1"), BINARY_KEYS)
        self.assertEqual(self.emu.table("t1")["families"]["info"]["VERSIONS"], "3")
        meta = self.metadata("t1", "info")
        self.assertEqual(meta["N"], str(len(BINARY_KEYS) + 1))
        self.assertTrue(meta["creator"].startswith("hbtab "))
        self.assertRegex(meta["created"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertIn("--splits-file", meta["splits"])

    def test_create__rerun_is_verified_noop_without_ddl(self):
        self.assertOk(self.create("t1", "--hex-splits", "8"))
        self.emu.clear_requests()
        r = self.create("t1", "--hex-splits", "8", "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertFalse(j["created"])
        self.assertTrue(j["verified"])
        self.assertEqual(j["metadata"], "present")
        self.assertEqual(self.ddl_requests(), [])

    def test_create__text_summary_on_stdout(self):
        r = self.create("t1", "--hex-splits", "4")
        self.assertOk(r)
        self.assertIn("created table 't1' with 4 regions via thrift2", r.out)
        self.assertEqual(r.err, "")

    def test_create__namespace_table_and_family_attributes_reach_the_server(self):
        self.emu.control("POST", "/control/reset")
        # the namespace must exist: create it over REST
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns1", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=30).read()
        r = self.create("ns1:t2", "--decimal-splits", "5", "--family",
                        "d:VERSIONS=2,COMPRESSION=gz,BLOOMFILTER=rowcol,IN_MEMORY=true,TTL=86400,"
                        "MY_KEY=v",
                        "--family", "e", "--attr", "MAX_FILESIZE=1073741824", "-o", "json")
        self.assertOk(r)
        fam = self.emu.table("ns1:t2")["families"]["d"]
        self.assertEqual(fam["VERSIONS"], "2")
        self.assertEqual(fam["COMPRESSION"], "GZ")
        self.assertEqual(fam["BLOOMFILTER"], "ROWCOL")
        self.assertEqual(fam["IN_MEMORY"], "true")
        self.assertEqual(fam["TTL"], "86400")
        self.assertEqual(fam["MY_KEY"], "v")
        self.assertIn("e", self.emu.table("ns1:t2")["families"])
        self.assertEqual(self.emu.table("ns1:t2")["attrs"]["MAX_FILESIZE"], "1073741824")
        self.assertEqual(self.metadata("ns1:t2", "d")["N"], "5")

    def test_create__existing_table_with_other_boundaries_exit5_untouched(self):
        self.emu.create("t1", splits=[b"m"])
        before = self.emu.table("t1")
        self.emu.clear_requests()
        r = self.create("t1", "--hex-splits", "4")
        self.assertFails(r, 5, "already exists with other region boundaries")
        self.assertIn("missing boundary '40000000'", r.err)
        self.assertIn("unexpected boundary 'm'", r.err)
        self.assertEqual(self.emu.table("t1"), before)
        self.assertEqual(self.ddl_requests(), [])
        self.assertIsNone(self.metadata("t1"))

    def test_create__existing_table_with_other_families_exit5_untouched(self):
        self.emu.create("t1", splits=[b"40000000", b"80000000", b"c0000000"], families=("x",))
        before = self.emu.table("t1")
        self.emu.clear_requests()
        r = self.create("t1", "--hex-splits", "4", "--family", "cf")
        self.assertFails(r, 5, "other families")
        self.assertIn("missing family 'cf'", r.err)
        self.assertIn("unexpected family 'x'", r.err)
        self.assertEqual(self.emu.table("t1"), before)
        self.assertEqual(self.ddl_requests(), [])

    def test_create__existing_table_without_metadata_is_completed(self):
        self.emu.create("t1", splits=[b"40000000", b"80000000", b"c0000000"])
        r = self.create("t1", "--hex-splits", "4", "-o", "json")
        self.assertOk(r)
        self.assertFalse(r.json()["created"])
        self.assertEqual(r.json()["metadata"], "written")
        self.assertEqual(self.metadata("t1")["N"], "4")

    def test_create__metadata_row_is_written_with_put_if_absent(self):
        self.emu.create("t1", splits=[b"40000000", b"80000000", b"c0000000"])
        self.emu.clear_requests()
        r = self.create("t1", "--hex-splits", "4")
        self.assertOk(r)
        puts = [q for q in self.emu.requests() if q["method"] in ("PUT", "POST")
                and not q["path"].endswith("/scanner")]
        # one checkAndPut (expected N empty = absent), no unconditional put
        self.assertEqual(len(puts), 1, puts)
        self.assertIn("check=put", puts[0]["path"])
        self.assertEqual(puts[0]["status"], 200)

    def test_create__different_n_in_metadata_row_is_never_overwritten(self):
        self.emu.create("t1", splits=[b"40000000", b"80000000", b"c0000000"])
        st, body = self.emu.control("POST", "/control/put", {"table": "t1", "rows": [
            {"key": b64("totalPartition"), "cells": [{"column": b64("cf:N"), "value": b64("9")}]}]})
        self.assertIn(st, (200, 201), body)
        r = self.create("t1", "--hex-splits", "4")
        self.assertFails(r, 5, "already holds N = '9'")
        self.assertEqual(self.metadata("t1")["N"], "9")

    def test_create__race_table_appears_between_check_and_ddl(self):
        self.emu.control("POST", "/control/race", {"table": "t1"})
        r = self.create("t1", "--splits-file", self.splits_path, "-o", "json")
        self.assertOk(r)
        self.assertIn("exists now", r.err)
        j = r.json()
        self.assertFalse(j["created"])
        self.assertTrue(j["verified"])
        self.assertEqual(self.emu.boundaries("t1"), BINARY_KEYS)
        for q in self.emu.requests():
            if q["server"] == "rest" and q["method"] != "GET":
                self.assertNotIn("/schema", q["path"])
        self.assertEqual(len([q for q in self.emu.requests() if q["server"] == "thrift"]), 1)

    def test_create__thrift_server_that_ignores_ddl_is_caught(self):
        # branch-1 1.7.x: createTable returns success and does nothing
        self.emu.control("POST", "/control/thrift-legacy-17", {"on": True})
        r = self.create("t1", "--hex-splits", "4", "--wait", "1", "-o", "json")
        self.emu.control("POST", "/control/thrift-legacy-17", {"on": False})
        self.assertEqual(r.rc, 1, r)
        self.assertIn("does not exist after the thrift2 create", r.err)
        self.assertFalse(r.json()["verified"])
        self.assertIsNone(self.emu.table("t1"))

    def test_create__keyspace_reports_unreachable_regions(self):
        r = self.create("t1", "--hex-splits", "4", "--keyspace", "dec{8}", "--allow-unreachable",
                        "-o", "json")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertTrue(j["verified"])
        self.assertEqual(j["unreachable"], [3])
        self.assertEqual(self.metadata("t1")["keyspace"], "dec{8}")
        r = self.create("t2", "--hex-splits", "4", "--keyspace", "hex{8}", "-o", "json")
        self.assertOk(r)
        self.assertTrue(r.json()["reachable"])

    def test_create__metadata_family_and_row_options(self):
        r = self.create("t1", "--hex-splits", "2", "--family", "a", "--family", "m",
                        "--metadata-family", "m", "--metadata-row", "meta")
        self.assertOk(r)
        self.assertEqual(self.metadata("t1", "m", "meta")["N"], "2")
        self.assertIsNone(self.metadata("t1", "a", "totalPartition"))

    def test_create__no_metadata(self):
        r = self.create("t1", "--hex-splits", "2", "--no-metadata", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["metadata"], "skipped")
        self.assertIsNone(self.metadata("t1"))


class CreateRestAndPrintTest(CreateTestBase):
    def test_create__rest_single_region(self):
        r = self.create("t1", "--via", "rest", "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertTrue(j["created"])
        self.assertEqual(j["regions"], 1)
        self.assertEqual(j["via"], "rest")
        self.assertEqual(self.emu.boundaries("t1"), [])
        self.assertEqual(self.metadata("t1")["N"], "1")
        # the schema PUT came after an exists check
        reqs = [(q["method"], q["path"]) for q in self.emu.requests() if q["server"] == "rest"]
        put = [i for i, (m, p) in enumerate(reqs) if m in ("PUT", "POST") and p.endswith("/schema")]
        ex = [i for i, (m, p) in enumerate(reqs) if p.endswith("/exists")]
        self.assertEqual(len(put), 1)
        self.assertTrue(ex and ex[0] < put[0])

    def test_create__rest_existing_table_gets_no_schema_put(self):
        self.emu.create("t1", families=("cf", "other"))
        self.emu.clear_requests()
        r = self.create("t1", "--via", "rest")
        self.assertFails(r, 5, "other families")
        self.assertEqual(self.ddl_requests(), [])
        self.assertIn("other", self.emu.table("t1")["families"])

    def test_create__rest_race_is_not_harmful(self):
        self.emu.control("POST", "/control/race", {"table": "t1"})
        r = self.create("t1", "--via", "rest", "-o", "json")
        self.assertOk(r)
        self.assertFalse(r.json()["created"])
        self.assertTrue(r.json()["verified"])

    def test_create__rest_refuses_presplit_with_exit2(self):
        r = self.create("t1", "--via", "rest", "--hex-splits", "4")
        self.assertFails(r, 2, "REST gateway")
        self.assertIn("--via print", r.err)
        self.assertEqual(self.emu.requests(), [])
        self.assertIsNone(self.emu.table("t1"))

    def test_create__auto_without_thrift_or_shell_fails_with_exit2(self):
        r = hbtest.run(["--rest", self.emu.rest, "--hbase-shell", "no-such-hbase-cmd shell -n",
                        "create", "t1", "--hex-splits", "4"])
        self.assertFails(r, 2, "cannot create a pre-split table")
        self.assertIn("--via print", r.err)
        self.assertIn("single region", r.err)
        # only the read that finds the table absent: nothing is written
        self.assertEqual([q["method"] for q in self.emu.requests()], ["GET"])

    def test_create__print_then_plain_create_adopts_on_a_rest_only_host(self):
        r = self.create("t1", "--hex-splits", "4", "--via", "print")
        self.assertOk(r)
        self.run_printed_script(r.out_bytes)
        self.emu.clear_requests()
        # no --thrift, no hbase shell on PATH: the table exists, so it is verified and adopted
        r = hbtest.run(["--rest", self.emu.rest, "--hbase-shell", "no-such-hbase-cmd shell -n",
                        "create", "t1", "--hex-splits", "4", "-o", "json"])
        self.assertOk(r)
        j = r.json()
        self.assertEqual((j["created"], j["verified"], j["regions"], j["via"]),
                         (False, True, 4, "none"))
        self.assertEqual(self.metadata("t1")["N"], "4")
        self.assertEqual(self.ddl_requests(), [])

    def test_create__print_script_accepted_by_standin_then_noop(self):
        r = self.create("t1", "--splits-file", self.splits_path, "--family",
                        "info:VERSIONS=3,NOTE=it's a \\ test", "--attr", "OWNER=o'hara",
                        "--via", "print")
        self.assertOk(r)
        self.assertEqual(self.emu.requests(), [])
        self.assertTrue(r.out.rstrip().endswith("exit"))
        self.run_printed_script(r.out_bytes)
        self.assertEqual(self.emu.boundaries("t1"), BINARY_KEYS)
        self.assertEqual(self.emu.table("t1")["families"]["info"]["NOTE"], "it's a \\ test")
        self.assertEqual(self.emu.table("t1")["attrs"]["OWNER"], "o'hara")
        self.emu.clear_requests()
        r = self.create("t1", "--splits-file", self.splits_path, "--family",
                        "info:VERSIONS=3,NOTE=it's a \\ test", "--attr", "OWNER=o'hara",
                        "-o", "json")
        self.assertOk(r)
        self.assertFalse(r.json()["created"])
        self.assertTrue(r.json()["verified"])
        self.assertEqual(self.ddl_requests(), [])
        self.assertEqual(self.metadata("t1", "info")["N"], str(len(BINARY_KEYS) + 1))

    def test_create__print_json_plan(self):
        r = self.create("t1", "--splits-file", self.splits_path, "--via", "print", "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertEqual(j["table"], "t1")
        self.assertEqual(j["regions"], len(BINARY_KEYS) + 1)
        self.assertEqual([unb64(s["base64"]) for s in j["splits"]], BINARY_KEYS)
        self.assertEqual([s["key"] for s in j["splits"]], [tsb(k) for k in BINARY_KEYS])
        self.assertEqual(j["families"], [{"name": "cf", "attrs": {}}])
        self.assertEqual(self.emu.requests(), [])


class CreateOfflineValidationTest(CreateTestBase):
    def check_refused(self, pattern, *args):
        r = self.create(*args)
        self.assertFails(r, 2, pattern)
        self.assertEqual(self.emu.requests(), [])

    def test_create__bad_names_refused_before_any_request(self):
        self.check_refused("invalid table name", ".bad", "--hex-splits", "4")
        self.check_refused("invalid table name", "a b", "--hex-splits", "4")
        self.check_refused("reserved", "zookeeper", "--hex-splits", "4")
        self.check_refused("invalid family name", "t", "--hex-splits", "4", "--family", "a/b")
        self.check_refused("invalid family name", "t", "--hex-splits", "4", "--family", ".x")

    def test_create__system_table_refused_with_exit_5_before_any_request(self):
        r = self.create("hbase:x", "--hex-splits", "4")
        self.assertFails(r, 5, "system table")
        self.assertEqual(self.emu.requests(), [])

    def test_create__bad_family_attributes_refused(self):
        self.check_refused("COMPRESSION", "t", "--family", "cf:COMPRESSION=LZMA2")
        self.check_refused("VERSIONS", "t", "--family", "cf:VERSIONS=0")
        self.check_refused("given twice", "t", "--family", "cf", "--family", "cf")
        self.check_refused("not a table attribute", "t", "--attr", "SPLITS=a")

    def test_create__typed_table_attributes_are_checked_offline(self):
        # HBase parses these with Long.parseLong / Boolean.parseBoolean / an enum: a typo
        # would fail at DDL time or, for booleans, silently mean false.
        self.check_refused("MAX_FILESIZE must be a whole number", "t", "--attr", "MAX_FILESIZE=10G")
        self.check_refused("REGION_REPLICATION", "t", "--attr", "REGION_REPLICATION=0")
        self.check_refused("NORMALIZATION_ENABLED must be true or false", "t",
                           "--attr", "NORMALIZATION_ENABLED=no")
        self.check_refused("DURABILITY must be", "t", "--attr", "DURABILITY=FAST")
        self.check_refused("Java class name", "t", "--attr", "SPLIT_POLICY=Key Prefix")
        self.check_refused("prefix_length", "t", "--attr", "KeyPrefixRegionSplitPolicy.prefix_length=-2")
        r = self.hb("create", "t", "--hex-splits", "4", "--via", "print",
                    "--attr", "NORMALIZATION_ENABLED=false", "--attr", "MAX_FILESIZE=1073741824",
                    "--attr", "SPLIT_POLICY=org.apache.hadoop.hbase.regionserver.KeyPrefixRegionSplitPolicy",
                    "--attr", "KeyPrefixRegionSplitPolicy.prefix_length=8")
        self.assertOk(r)
        self.assertIn("'NORMALIZATION_ENABLED' => 'false'", r.out)

    def test_create__bad_split_keys_refused(self):
        dup = write_splits_file([b"a", b"a"], self.tmp)
        self.check_refused("not greater|duplicate", "t", "--splits-file", dup)
        self.check_refused(".", "t", "--hex-splits", "0")
        self.check_refused("metadata-family", "t", "--metadata-family", "nope")
        self.check_refused("wait", "t", "--wait", "-1")


if __name__ == "__main__":
    hbtest.main()
