"""REST resources: status codes, headers and JSON shapes (docs/hbase-wire.md §0-§5)."""
import base64
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from emu_harness import Emu, EmuTestCase, b64, unb64


class ClusterResources(EmuTestCase):
    def test_version_json_has_the_five_keys_and_no_cache(self):
        st, h, b = self.emu.rest("GET", "/version")
        self.assertEqual(st, 200)
        self.assertEqual(set(json.loads(b)), {"REST", "JVM", "OS", "Server", "Jersey"})
        self.assertEqual(json.loads(b)["REST"], "0.0.3")
        self.assertEqual(h["cache-control"], "no-cache")
        st2, _, b2 = self.emu.rest("GET", "/version/rest")
        self.assertEqual((st2, b2), (st, b))

    def test_cluster_version_is_an_object_with_a_version_attribute(self):
        st, h, b = self.emu.rest("GET", "/version/cluster")
        self.assertEqual((st, json.loads(b)), (200, {"Version": "2.5.8"}))
        st, h, b = self.emu.rest("GET", "/version/cluster", accept=None)
        self.assertEqual((st, h["content-type"], b), (200, "text/plain", b"2.5.8"))

    def test_no_server_or_date_header_and_security_headers_present(self):
        st, h, b = self.emu.rest("GET", "/version")
        self.assertNotIn("server", h)
        self.assertNotIn("date", h)
        self.assertEqual(h["x-content-type-options"], "nosniff")

    def test_no_accept_gives_text_plain_on_listed_resources(self):
        self.emu.create("t1")
        for p in ("/", "/version", "/version/cluster", "/status/cluster", "/t1/schema",
                  "/t1/regions", "/namespaces"):
            st, h, b = self.emu.rest("GET", p, accept=None)
            self.assertEqual(st, 200, p)
            self.assertEqual(h["content-type"], "text/plain", p)

    def test_table_list_excludes_system_tables_and_prints_ns(self):
        self.emu.rest("POST", "/namespaces/ns1", {})
        self.emu.create("t1")
        self.emu.create("ns1:t2")
        st, h, b = self.emu.rest("GET", "/")
        self.assertEqual(json.loads(b), {"table": [{"name": "ns1:t2"}, {"name": "t1"}]})
        self.assertEqual(h["cache-control"], "no-cache")
        st, h, b = self.emu.rest("GET", "/", accept=None)
        self.assertEqual(b, b"ns1:t2\nt1\n")

    def test_status_cluster_shape_and_counters_grow_with_puts_and_gets(self):
        self.emu.create("t1", [b"m"])
        m = self.emu.rest_json("/status/cluster")
        self.assertEqual(set(m), {"regions", "requests", "averageLoad", "LiveNodes", "DeadNodes"})
        self.assertEqual(len(m["LiveNodes"]), 3)
        self.assertEqual(m["DeadNodes"], [])
        node = m["LiveNodes"][0]
        self.assertEqual(set(node), {"name", "startCode", "requests", "heapSizeMB", "maxHeapSizeMB", "Region"})
        self.assertTrue(node["name"].endswith(":16020"))
        for i in range(5):
            self.emu.put("t1", b"z%d" % i, b"cf:a", b"v")
        self.emu.put("t1", b"a", b"cf:a", b"v")
        self.emu.rest("GET", "/t1/z1")
        self.emu.rest("GET", "/t1/z2")
        m = self.emu.rest_json("/status/cluster")
        regs = {}
        for n in m["LiveNodes"]:
            for r in n["Region"]:
                regs[unb64(r["name"])] = r
        z = [r for k, r in regs.items() if k.startswith(b"t1,m,")][0]
        a = [r for k, r in regs.items() if k.startswith(b"t1,,")][0]
        self.assertEqual(z["writeRequestsCount"], 5)
        self.assertEqual(z["readRequestsCount"], 2)
        self.assertEqual(a["writeRequestsCount"], 1)
        self.assertIn("memStoreSizeMB", z)
        self.assertIn("storefileIndexSizeKB", z)

    def test_stopped_server_is_a_dead_node_and_its_regions_keep_a_stale_location(self):
        self.emu.create("t1", [b"g", b"p"])
        self.emu.control("POST", "/control/server", {"index": 1, "state": "stop"})
        m = self.emu.rest_json("/status/cluster")
        self.assertEqual(m["DeadNodes"], ["rs2.emu.local,16020,1700000000002"])
        self.assertEqual(len(m["LiveNodes"]), 2)
        names = [unb64(r["name"]) for n in m["LiveNodes"] for r in n["Region"]]
        self.assertEqual(len([x for x in names if x.startswith(b"t1,")]), 2)
        # info:server keeps the dead server: /regions still lists it there (200)
        regs = self.emu.rest_json("/t1/regions")["Region"]
        self.assertEqual([r["location"] for r in regs],
                         ["rs1.emu.local:16020", "rs2.emu.local:16020", "rs3.emu.local:16020"])
        state = self.emu.control("GET", "/control/state")[1]["tables"][0]["regions"]
        self.assertEqual([r["state"] for r in state], ["OPEN", "ABNORMALLY_CLOSED", "OPEN"])
        self.emu.control("POST", "/control/server", {"index": 1, "state": "start"})
        state = self.emu.control("GET", "/control/state")[1]["tables"][0]["regions"]
        self.assertEqual([r["state"] for r in state], ["OPEN", "OPEN", "OPEN"])

    def test_gzip_response_when_accept_encoding_gzip(self):
        st, h, b = self.emu.rest("GET", "/version", headers={"Accept-Encoding": "gzip"})
        self.assertEqual(h["content-encoding"], "gzip")
        self.assertEqual(json.loads(gzip.decompress(b))["REST"], "0.0.3")

    def test_trace_is_refused(self):
        st, h, b = self.emu.rest("TRACE", "/version")
        self.assertEqual(st, 405)


class Namespaces(EmuTestCase):
    def test_list_and_get_namespace(self):
        d = self.emu.rest_json("/namespaces")
        self.assertEqual(d, {"Namespace": ["default", "hbase"]})
        st, h, b = self.emu.rest("GET", "/namespaces")
        self.assertNotIn("cache-control", h)
        self.assertEqual(self.emu.rest_json("/namespaces/default"), {"properties": {}})

    def test_missing_namespace_get_and_tables_give_500(self):
        self.assertEqual(self.emu.rest("GET", "/namespaces/nope")[0], 500)
        self.assertEqual(self.emu.rest("GET", "/namespaces/nope/tables")[0], 500)

    def test_create_201_then_403_on_second_post(self):
        st, h, b = self.emu.rest("POST", "/namespaces/ns1", {"properties": {"a": "b"}})
        self.assertEqual(st, 201)
        self.assertTrue(h["location"].endswith("/namespaces/ns1"))
        st, h, b = self.emu.rest("POST", "/namespaces/ns1", {})
        self.assertEqual(st, 403)
        self.assertEqual(b, b"Namespace 'ns1' already exists.  Use REST PUT to alter the existing namespace.")
        self.assertEqual(self.emu.rest_json("/namespaces/ns1"), {"properties": {"a": "b"}})

    def test_put_alters_existing_and_403_when_absent(self):
        self.assertEqual(self.emu.rest("PUT", "/namespaces/ns2", {})[0], 403)
        self.emu.rest("POST", "/namespaces/ns2", {})
        self.assertEqual(self.emu.rest("PUT", "/namespaces/ns2", {"properties": {"x": "y"}})[0], 200)

    def test_tables_lists_qualifiers_only(self):
        self.emu.rest("POST", "/namespaces/ns1", {})
        self.emu.create("ns1:a")
        self.assertEqual(self.emu.rest_json("/namespaces/ns1/tables"), {"table": [{"name": "a"}]})

    def test_delete_200_404_and_503_for_nonempty_or_reserved(self):
        self.emu.rest("POST", "/namespaces/ns1", {})
        self.emu.create("ns1:a")
        self.assertEqual(self.emu.rest("DELETE", "/namespaces/ns1")[0], 503)
        self.assertEqual(self.emu.rest("DELETE", "/namespaces/default")[0], 503)
        self.assertEqual(self.emu.rest("DELETE", "/namespaces/hbase")[0], 503)
        st, h, b = self.emu.rest("DELETE", "/namespaces/zz")
        self.assertEqual(st, 404)
        self.assertEqual(b, b"Namespace 'zz' does not exists.  Cannot drop namespace.")
        self.emu.rest("POST", "/namespaces/ns2", {})
        self.assertEqual(self.emu.rest("DELETE", "/namespaces/ns2")[0], 200)

    def test_read_only_namespace_mutations_403(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.assertEqual(self.emu.rest("POST", "/namespaces/ns9", {})[0], 403)


class Schema(EmuTestCase):
    def test_get_schema_json_with_family_defaults(self):
        self.emu.create("t1", attrs={"OWNER": "me"})
        st, h, b = self.emu.rest("GET", "/t1/schema")
        self.assertEqual(st, 200)
        self.assertEqual(h["cache-control"], "no-cache")
        d = json.loads(b)
        self.assertEqual(d["name"], "t1")
        self.assertEqual(d["OWNER"], "me")
        cf = d["ColumnSchema"][0]
        self.assertEqual(cf["name"], "cf")
        self.assertEqual(cf["VERSIONS"], "3")
        for k, v in (("BLOOMFILTER", "ROW"), ("TTL", "2147483647"), ("BLOCKSIZE", "65536"),
                     ("KEEP_DELETED_CELLS", "FALSE"), ("REPLICATION_SCOPE", "0")):
            self.assertEqual(cf[k], v)

    def test_missing_table_schema_404_with_stack_trace(self):
        st, h, b = self.emu.rest("GET", "/nope/schema")
        self.assertEqual(st, 404)
        self.assertEqual(h["content-type"], "text/plain")
        self.assertTrue(b.startswith(b"Not found\r\norg.apache.hadoop.hbase.TableNotFoundException: nope\r\n\tat "))

    def test_put_creates_single_region_table_201_with_location(self):
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual(st, 201)
        self.assertEqual(h["location"], "http://127.0.0.1:%d/t1/schema" % self.emu.rest_port)
        self.assertEqual(len(self.emu.rest_json("/t1/regions")["Region"]), 1)

    def test_create_without_families_is_the_masters_sanity_check_503(self):
        # TableDescriptorChecker.sanityCheck throws DoNotRetryIOException: an IOException,
        # so ResourceBase.processException answers 503, not 400
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1"})
        self.assertEqual(st, 503)
        self.assertTrue(b.startswith(b"Unavailable\r\norg.apache.hadoop.hbase.DoNotRetryIOException: "
                                     b"Table should have at least one column family."), b)
        self.assertEqual(self.emu.rest("GET", "/t1/exists")[0], 404)

    def test_put_on_existing_replaces_and_drops_unlisted_families_and_their_cells(self):
        self.emu.create("t1", families=[{"name": "a"}, {"name": "b"}], attrs={"K": "V"})
        self.emu.put("t1", b"r1", b"a:x", b"1")
        self.emu.put("t1", b"r1", b"b:x", b"2")
        self.emu.put("t1", b"r2", b"b:x", b"3")
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "a"}]})
        self.assertEqual(st, 201)
        self.assertIn("location", h)
        d = self.emu.rest_json("/t1/schema")
        self.assertEqual([c["name"] for c in d["ColumnSchema"]], ["a"])
        self.assertNotIn("K", d)
        rows = self.emu.rest_json("/t1/*")["Row"]
        self.assertEqual([unb64(r["key"]) for r in rows], [b"r1"])
        self.assertEqual([unb64(c["column"]) for c in rows[0]["Cell"]], [b"a:x"])
        self.assertEqual(self.emu.rest("GET", "/t1/r2")[0], 404)

    def test_post_on_existing_adds_and_modifies_families_200_without_location(self):
        self.emu.create("t1", families=[{"name": "a"}], attrs={"K": "V"})
        st, h, b = self.emu.rest("POST", "/t1/schema", {"name": "t1", "NEWATTR": "x",
                                                      "ColumnSchema": [{"name": "b"}, {"name": "a", "VERSIONS": "5"}]})
        self.assertEqual(st, 200)
        self.assertNotIn("location", h)
        d = self.emu.rest_json("/t1/schema")
        self.assertEqual({c["name"]: c["VERSIONS"] for c in d["ColumnSchema"]}, {"a": "5", "b": "1"})
        self.assertEqual(d["K"], "V")
        self.assertNotIn("NEWATTR", d)

    def test_post_creates_when_absent(self):
        st, h, b = self.emu.rest("POST", "/t9/schema", {"name": "t9", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual(st, 201)

    def test_create_answers_an_empty_201_with_location(self):
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual((st, b), (201, b""))
        self.assertIn("location", h)

    def test_create_answer_knob_puts_a_body_into_the_201(self):
        self.emu.control("POST", "/control/create-answer", {"body": "Created\r\n"})
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual((st, b, h["content-type"]), (201, b"Created\r\n", "text/plain"))
        self.assertEqual(self.emu.rest("GET", "/t1/exists")[0], 200)
        # without the create, and off after a reset
        self.emu.control("POST", "/control/create-answer", {"body": "{}", "ctype": "application/json",
                                                            "execute": False})
        st, h, b = self.emu.rest("PUT", "/t2/schema", {"name": "t2", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual((st, b, h["content-type"]), (201, b"{}", "application/json"))
        self.assertEqual(self.emu.rest("GET", "/t2/exists")[0], 404)
        self.emu.control("POST", "/control/reset")
        st, h, b = self.emu.rest("PUT", "/t2/schema", {"name": "t2", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual((st, b), (201, b""))

    def test_lost_create_race_gives_304(self):
        self.emu.control("POST", "/control/race", {"table": "t1"})
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual(st, 304)
        self.assertEqual(self.emu.rest("GET", "/t1/exists")[0], 200)

    def test_read_only_schema_mutations_403(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        st, h, b = self.emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual((st, b), (403, b"Forbidden\r\n"))
        self.assertEqual(self.emu.rest("DELETE", "/t1/schema")[0], 403)

    def test_invalid_table_name_400(self):
        st, h, b = self.emu.rest("PUT", "/-bad/schema", {"name": "x", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual(st, 400)
        self.assertTrue(b.startswith(b"Bad request\r\n"))

    def test_create_in_missing_namespace_is_503(self):
        st, h, b = self.emu.rest("PUT", "/nons:t/schema", {"name": "x", "ColumnSchema": [{"name": "cf"}]})
        self.assertEqual(st, 503)
        self.assertTrue(b.startswith(b"Unavailable\r\n"))

    def test_delete_schema_200_then_404(self):
        self.emu.create("t1")
        self.assertEqual(self.emu.rest("DELETE", "/t1/schema")[0], 200)
        self.assertEqual(self.emu.rest("DELETE", "/t1/schema")[0], 404)

    def test_exists_200_and_404(self):
        self.emu.create("t1")
        st, h, b = self.emu.rest("GET", "/t1/exists")
        self.assertEqual((st, b, h["cache-control"]), (200, b"", "no-cache"))
        st, h, b = self.emu.rest("GET", "/t2/exists")
        self.assertEqual((st, b), (404, b"Not found\r\n"))


class Regions(EmuTestCase):
    def test_regions_json_shape_and_names(self):
        self.emu.create("t1", [b"m", b"\x00\xff"])
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(h["cache-control"], "no-cache")
        m = json.loads(b)
        self.assertEqual(m["name"], "t1")
        regs = m["Region"]
        self.assertEqual([unb64(r["startKey"]) for r in regs], [b"", b"\x00\xff", b"m"])
        self.assertEqual([unb64(r["endKey"]) for r in regs], [b"\x00\xff", b"m", b""])
        self.assertEqual(regs[0]["startKey"], "")
        import hashlib
        for r in regs:
            self.assertEqual(set(r), {"id", "startKey", "endKey", "location", "name"})
            base = ("t1,%s,%d" % (unb64(r["startKey"]).decode("utf-8", "replace"), r["id"]))
            self.assertTrue(r["name"].startswith(base))
            self.assertRegex(r["location"], r"^rs[123]\.emu\.local:16020$")
        self.assertEqual(regs[2]["name"], "t1,m,%d.%s." % (
            regs[2]["id"], hashlib.md5(b"t1,m,%d" % regs[2]["id"]).hexdigest()))
        self.assertEqual(len({r["location"] for r in regs}), 3)   # round robin

    def test_regions_protobuf_is_table_info_in_field_order(self):
        # TableInfo (TableInfoMessage.proto) as TableInfoModel.messageFromObject writes it
        self.emu.create("t1", [b"m\x00\xff"])
        st, h, b = self.emu.rest("GET", "/t1/regions", headers={"Accept": "application/x-protobuf"})
        self.assertEqual(st, 200)
        self.assertEqual(h["content-type"], "application/x-protobuf")
        _, _, j = self.emu.rest("GET", "/t1/regions")
        regs = json.loads(j)["Region"]

        def ld(field, data):
            n = len(data)
            assert n < 128 * 128
            return bytes([field << 3 | 2]) + (bytes([n]) if n < 128 else bytes([n & 0x7F | 0x80, n >> 7])) + data

        def varint(v):
            out = b""
            while v > 0x7F:
                out += bytes([v & 0x7F | 0x80])
                v >>= 7
            return out + bytes([v])

        want = ld(1, b"t1") + b"".join(
            ld(2, ld(1, r["name"].encode("utf-8")) + ld(2, unb64(r["startKey"]))
               + ld(3, unb64(r["endKey"])) + b"\x20" + varint(r["id"])
               + ld(5, r["location"].encode()))
            for r in regs)
        self.assertEqual(b, want)
        self.assertIn(b"\x12\x00\x1a\x03m\x00\xff", b)  # the first region: empty start present
        st, h, _ = self.emu.rest("GET", "/t1/regions", headers={"Accept": "application/protobuf"})
        self.assertEqual(h["content-type"], "application/protobuf")

    def test_stateless_scan_protobuf_is_cellset_chunks_behind_a_16_bit_length(self):
        # ProtobufStreamingOutput: chunks of fetchsize rows, each behind (short) length
        self.emu.create("t1", [b"%03d" % i for i in range(1, 25)])
        path = "/hbase:meta/*?startrow=t1,,&endrow=t1%20,,&column=info:regioninfo"
        st, h, b = self.emu.rest("GET", path, headers={"Accept": "application/x-protobuf"})
        self.assertEqual((st, h["content-type"]), (200, "application/x-protobuf"))
        sizes, i = [], 0
        while i < len(b):
            n = int.from_bytes(b[i:i + 2], "big")
            self.assertEqual(b[i + 2], 0x0a)   # a CellSet's first Row
            sizes.append(n)
            i += 2 + n
        self.assertEqual(i, len(b))
        self.assertEqual(len(sizes), 3)        # 25 rows: 10, 10, 5
        st, _ = self.emu.control("POST", "/control/protobuf", {"scan_fetch_size": 1000})
        self.emu.create("t2", [b"%04d" % i for i in range(1, 800)])
        path = "/hbase:meta/*?startrow=t2,,&endrow=t2%20,,&column=info:regioninfo"
        st, h, b = self.emu.rest("GET", path, headers={"Accept": "application/x-protobuf"})
        self.assertGreater(len(b), 65538)      # one chunk; its length wrapped
        self.assertEqual(int.from_bytes(b[:2], "big"), (len(b) - 2) & 0xFFFF)

    def test_regions_404_for_missing_table(self):
        st, h, b = self.emu.rest("GET", "/nope/regions")
        self.assertEqual((st, b), (404, b"Not found\r\n"))

    def test_regions_skip_offline_and_split_parents_but_show_overlaps(self):
        self.emu.create("t1", [b"g", b"p"])
        self.emu.control("POST", "/control/offline", {"table": "t1", "index": 0})
        self.emu.control("POST", "/control/split", {"table": "t1", "key": b64(b"k"), "leave_parent": True})
        self.emu.control("POST", "/control/overlap", {"table": "t1", "start": b64(b"a"), "end": b64(b"h")})
        regs = self.emu.rest_json("/t1/regions")["Region"]
        self.assertEqual([(unb64(r["startKey"]), unb64(r["endKey"])) for r in regs],
                         [(b"a", b"h"), (b"g", b"k"), (b"k", b"p"), (b"p", b"")])

    def test_regions_hide_a_hole(self):
        self.emu.create("t1", [b"g", b"p"])
        self.emu.control("POST", "/control/hole", {"table": "t1", "index": 1})
        regs = self.emu.rest_json("/t1/regions")["Region"]
        self.assertEqual([unb64(r["startKey"]) for r in regs], [b"", b"p"])

    def test_regions_keep_the_last_location_of_a_closed_region(self):
        self.emu.create("t1", [b"g"])
        before = self.emu.rest_json("/t1/regions")["Region"]
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 1})
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(st, 200)
        self.assertEqual(json.loads(b)["Region"], before)

    def test_regions_of_a_disabled_table_answer_200_with_stale_locations(self):
        self.emu.create("t1", [b"g", b"p"])
        before = self.emu.rest_json("/t1/regions")["Region"]
        self.emu.control("POST", "/control/disable", {"table": "t1"})
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(st, 200)
        self.assertEqual(json.loads(b)["Region"], before)
        state = self.emu.control("GET", "/control/state")[1]["tables"][0]
        self.assertEqual([r["state"] for r in state["regions"]], ["CLOSED"] * 3)

    def test_regions_500_while_a_region_has_never_opened(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        self.emu.create("t1", [b"g"])
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(st, 500)
        self.assertIn(b"NullPointerException", b)
        self.emu.control("POST", "/control/open-delay", {"seconds": 0})
        self.emu.create("t2", [b"g"])
        self.assertEqual(self.emu.rest("GET", "/t2/regions")[0], 200)

    def test_control_open_ends_the_opening_period_at_once(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        self.emu.create("t1", [b"g"])
        self.assertEqual(self.emu.rest("GET", "/t1/regions")[0], 500)
        st, body = self.emu.control("POST", "/control/open", {"table": "t1"})
        self.assertEqual(st, 200, body)
        self.assertEqual(self.emu.rest("GET", "/t1/regions")[0], 200)
        state = self.emu.control("GET", "/control/state")[1]["tables"][0]
        self.assertEqual([r["state"] for r in state["regions"]], ["OPEN"] * 2)
        self.assertEqual(self.emu.control("POST", "/control/open", {"table": "t9"})[0], 404)

    def test_scans_of_a_disabled_table_fail_at_the_first_read(self):
        self.emu.create("t1", [b"g"])
        self.emu.put("t1", b"a", b"cf:q", b"v")
        self.emu.control("POST", "/control/disable", {"table": "t1"})
        # the scanner opens lazily: 201, then its first GET is 410 and it is gone
        st, h, b = self.emu.rest("POST", "/t1/scanner", {"batch": 10})
        self.assertEqual(st, 201)
        path = h["location"].split(str(self.emu.rest_port), 1)[1]
        self.assertEqual(self.emu.rest("GET", path)[:3:2], (410, b"Gone\r\n"))
        self.assertEqual(self.emu.rest("DELETE", path)[0], 404)
        # a stateless scan fails inside its streamed body: the container's 500 page
        st, h, b = self.emu.rest("GET", "/t1/*")
        self.assertEqual(st, 500)
        self.assertEqual(json.loads(b)["message"], "Request failed.")
        self.emu.control("POST", "/control/enable", {"table": "t1"})
        self.assertEqual(self.emu.rest("POST", "/t1/scanner", {"batch": 10})[0], 201)
        self.assertEqual(self.emu.rest("GET", "/t1/*")[0], 200)

    def test_rowprefix_bloom_without_its_prefix_length_fails_the_sanity_check(self):
        fam = {"name": "cf", "attrs": {"BLOOMFILTER": "ROWPREFIX_FIXED_LENGTH"}}
        st, d = self.emu.control("POST", "/control/create", {"table": "bf", "families": [fam],
                                                             "attrs": {}, "splits": []})
        self.assertNotEqual(st, 201)
        self.assertIn("Failed to get bloom filter param", json.dumps(d))
        fam["attrs"]["RowPrefixBloomFilter.prefix_length"] = "4"
        self.emu.create("bf", families=[fam])

    def test_row_get_of_a_missing_table_or_family_is_a_plain_404(self):
        self.emu.create("t1", [b"g"])
        self.assertEqual(self.emu.rest("GET", "/nope/r1")[:3:2], (404, b"Not found\r\n"))
        st, _, b = self.emu.rest("GET", "/hbase:meta/t1/nofam:q")
        self.assertEqual((st, b), (404, b"Not found\r\n"))

    def test_region_names_omit_the_default_namespace(self):
        self.emu.create("t1", [b"g"])
        a = self.emu.rest_json("/t1/regions")
        b = self.emu.rest_json("/default:t1/regions")
        self.assertEqual(a, b)
        for r in a["Region"]:
            self.assertTrue(r["name"].startswith("t1,"), r)
            prefix = r["name"].rsplit(".", 2)[0]
            self.assertEqual(r["name"], "%s.%s." % (prefix, hashlib.md5(prefix.encode()).hexdigest()))

    def test_merge_joins_two_regions_with_a_new_id(self):
        self.emu.create("t1", [b"g", b"p"])
        before = self.emu.rest_json("/t1/regions")["Region"]
        self.emu.control("POST", "/control/merge", {"table": "t1", "index": 0})
        regs = self.emu.rest_json("/t1/regions")["Region"]
        self.assertEqual([unb64(r["startKey"]) for r in regs], [b"", b"p"])
        self.assertGreater(regs[0]["id"], before[0]["id"])

    def test_region_ids_are_unique_per_create(self):
        self.emu.create("t1")
        self.emu.create("t2")
        a = self.emu.rest_json("/t1/regions")["Region"][0]["id"]
        b = self.emu.rest_json("/t2/regions")["Region"][0]["id"]
        self.assertNotEqual(a, b)


class Rows(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.emu.create("t1", [b"m"])

    def test_put_then_get_cellset(self):
        st, h, b = self.emu.rest("PUT", "/t1/row1/cf:a", {"Row": [{"key": b64(b"row1"), "Cell": [
            {"column": b64(b"cf:a"), "$": b64(b"v1"), "timestamp": 5}]}]})
        self.assertEqual(st, 200)
        st, h, b = self.emu.rest("GET", "/t1/row1")
        self.assertEqual(st, 200)
        self.assertNotIn("cache-control", h)
        self.assertEqual(json.loads(b), {"Row": [{"key": b64(b"row1"), "Cell": [
            {"column": b64(b"cf:a"), "timestamp": 5, "$": b64(b"v1")}]}]})

    def test_body_key_overrides_path_row(self):
        self.emu.put("t1", b"\x00\xffbin", b"cf:a", b"v")
        rows = self.emu.rest_json("/t1/*")["Row"]
        self.assertEqual(unb64(rows[0]["key"]), b"\x00\xffbin")

    def test_missing_key_uses_path_row_and_missing_column_uses_path_column(self):
        st, h, b = self.emu.rest("PUT", "/t1/prow/cf:q", {"Row": [{"Cell": [{"$": b64(b"x")}]}]})
        self.assertEqual(st, 200)
        d = self.emu.rest_json("/t1/prow/cf:q")
        self.assertEqual(unb64(d["Row"][0]["Cell"][0]["column"]), b"cf:q")

    def test_put_errors(self):
        st, h, b = self.emu.rest("PUT", "/t1/r/cf:a", {"Row": [{"key": b64(b"r"), "Cell": [
            {"column": b64(b"nofam:a"), "$": b64(b"x")}]}]})
        self.assertEqual(st, 404)
        st, h, b = self.emu.rest("PUT", "/t1/r", {"Row": [{"key": b64(b"r"), "Cell": [{"$": b64(b"x")}]}]})
        self.assertEqual((st, b), (400, b"Bad request: Column found to be null.\r\n"))
        st, h, b = self.emu.rest("PUT", "/nope/r/cf:a", {"Row": [{"Cell": [{"$": b64(b"x")}]}]})
        self.assertEqual(st, 404)

    def test_get_missing_row_404_without_trace(self):
        st, h, b = self.emu.rest("GET", "/t1/none")
        self.assertEqual((st, b), (404, b"Not found\r\n"))

    def test_versions_kept_up_to_VERSIONS_and_v_param(self):
        for ts in (1, 2, 3, 4):
            self.emu.put("t1", b"r", b"cf:a", b"v%d" % ts, ts)
        d = self.emu.rest_json("/t1/r/cf:a?v=10")
        self.assertEqual([c["timestamp"] for c in d["Row"][0]["Cell"]], [4, 3, 2])
        d = self.emu.rest_json("/t1/r")
        self.assertEqual([c["timestamp"] for c in d["Row"][0]["Cell"]], [4])

    def test_timestamp_segment_is_exclusive_end_of_time_range(self):
        for ts in (1, 2, 3):
            self.emu.put("t1", b"r", b"cf:a", b"v%d" % ts, ts)
        d = self.emu.rest_json("/t1/r/cf:a/3?v=5")
        self.assertEqual([c["timestamp"] for c in d["Row"][0]["Cell"]], [2, 1])
        d = self.emu.rest_json("/t1/r/cf:a/2,4?v=5")
        self.assertEqual([c["timestamp"] for c in d["Row"][0]["Cell"]], [3, 2])

    def test_octet_stream_get_returns_raw_value_with_timestamp(self):
        self.emu.put("t1", b"r", b"cf:a", b"\x00raw", 7)
        st, h, b = self.emu.rest("GET", "/t1/r/cf:a", accept="application/octet-stream")
        self.assertEqual((st, b, h["x-timestamp"]), (200, b"\x00raw", "7"))
        st, h, b = self.emu.rest("GET", "/t1/r", accept="application/octet-stream")
        self.assertEqual(st, 400)

    def test_path_row_is_url_form_decoded_and_mangled(self):
        # '+' is a space, %FF becomes U+FFFD (EF BF BD)
        self.emu.rest("PUT", "/t1/a+b%FF/cf:a", {"Row": [{"Cell": [{"$": b64(b"x")}]}]})
        keys = [unb64(r["key"]) for r in self.emu.rest_json("/t1/*")["Row"]]
        self.assertEqual(keys, [b"a b\xef\xbf\xbd"])

    def test_delete_row_column_and_timestamp(self):
        for ts in (1, 2, 3):
            self.emu.put("t1", b"r", b"cf:a", b"v", ts)
        self.emu.put("t1", b"r", b"cf:b", b"v", 1)
        self.assertEqual(self.emu.rest("DELETE", "/t1/r/cf:a/2")[0], 200)
        d = self.emu.rest_json("/t1/r?v=5")
        self.assertEqual([(unb64(c["column"]), c["timestamp"]) for c in d["Row"][0]["Cell"]],
                         [(b"cf:a", 3), (b"cf:b", 1)])
        self.assertEqual(self.emu.rest("DELETE", "/t1/r")[0], 200)
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 404)

    def test_check_put_passes_200_and_fails_304(self):
        self.emu.put("t1", b"r", b"cf:a", b"old")
        body = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:a"), "$": b64(b"new")},
                                                     {"column": b64(b"cf:a"), "$": b64(b"old")}]}]}
        self.assertEqual(self.emu.rest("PUT", "/t1/r?check=put", body)[0], 200)
        self.assertEqual(self.emu.rest("PUT", "/t1/r?check=put", body)[0], 304)
        d = self.emu.rest_json("/t1/r")
        self.assertEqual(unb64(d["Row"][0]["Cell"][0]["$"]), b"new")

    def test_check_put_validation_400s(self):
        one = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:a"), "$": b64(b"x")}]}]}
        st, h, b = self.emu.rest("PUT", "/t1/r?check=put", one)
        self.assertEqual((st, b), (400, b"Bad request: Either row key is null or no data found for columns specified.\r\n"))
        mism = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:b"), "$": b64(b"x")},
                                                     {"column": b64(b"cf:a"), "$": b64(b"x")}]}]}
        st, h, b = self.emu.rest("PUT", "/t1/r?check=put", mism)
        self.assertEqual((st, b), (400, b"Bad request: The column to put and check do not match.\r\n"))
        st, h, b = self.emu.rest("PUT", "/t1/r?check=bogus", one)
        self.assertEqual((st, b), (400, b"Invalid check value 'bogus'\r\n"))

    def test_check_put_empty_expected_value_means_absent_and_missing_value_is_400(self):
        # "$":"" is Jackson's empty byte[] (base64 of nothing): the check passes while the
        # column is absent; without "$" CellModel.value stays null and ifEquals(null) fails
        # checkNotNull, a RuntimeException → 400
        def body(check_cell):
            return {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:a"), "$": b64(b"v")},
                                                         check_cell]}]}
        st, h, b = self.emu.rest("PUT", "/t1/r?check=put", body({"column": b64(b"cf:a")}))
        self.assertEqual(st, 400)
        self.assertTrue(b.startswith(b"Bad request\r\njava.lang.NullPointerException"), b)
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 404)
        empty = body({"column": b64(b"cf:a"), "$": ""})
        self.assertEqual(self.emu.rest("PUT", "/t1/r?check=put", empty)[0], 200)
        self.assertEqual(self.emu.rest("PUT", "/t1/r?check=put", empty)[0], 304)

    def test_check_delete_passes_200_and_fails_304(self):
        self.emu.put("t1", b"r", b"cf:a", b"v")
        bad = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:a"), "$": b64(b"other")}]}]}
        self.assertEqual(self.emu.rest("DELETE" if False else "PUT", "/t1/r?check=delete", bad)[0], 304)
        good = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"cf:a"), "$": b64(b"v")}]}]}
        self.assertEqual(self.emu.rest("PUT", "/t1/r?check=delete", good)[0], 200)
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 404)

    def test_multiget_returns_existing_rows_or_404(self):
        self.emu.put("t1", b"a", b"cf:a", b"1")
        self.emu.put("t1", b"z", b"cf:a", b"2")
        d = self.emu.rest_json("/t1/multiget?row=a&row=nope&row=z")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"a", b"z"])
        st, h, b = self.emu.rest("GET", "/t1/multiget?row=x&row=y")
        self.assertEqual((st, b), (404, b"No rows found.\r\n"))

    def test_read_only_row_mutations_403(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.assertEqual(self.emu.put("t1", b"r", b"cf:a", b"v")[0], 403)
        self.assertEqual(self.emu.rest("DELETE", "/t1/r")[0], 403)


class Scanners(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.emu.create("t1", [b"m"])
        for k in (b"a", b"b", b"n", b"z"):
            self.emu.rest("PUT", "/t1/x", {"Row": [{"key": b64(k), "Cell": [
                {"column": b64(b"cf:1"), "$": b64(b"1")}, {"column": b64(b"cf:2"), "$": b64(b"2")}]}]})

    def test_scanner_201_location_batches_then_204_and_delete_200(self):
        st, h, b = self.emu.rest("POST", "/t1/scanner", {"batch": 3, "maxVersions": 1})
        self.assertEqual(st, 201)
        self.assertRegex(h["location"], r"^http://127\.0\.0\.1:%d/t1/scanner/\d{13}[0-9a-f]+$" % self.emu.rest_port)
        path = h["location"].split(str(self.emu.rest_port), 1)[1]
        st, h2, b = self.emu.rest("GET", path)
        self.assertEqual(st, 200)
        self.assertEqual(h2["cache-control"], "no-cache")
        d = json.loads(b)
        self.assertEqual(sum(len(r["Cell"]) for r in d["Row"]), 3)
        # the row b is split across two responses
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"a", b"b"])
        d = json.loads(self.emu.rest("GET", path)[2])
        self.assertEqual(unb64(d["Row"][0]["key"]), b"b")
        self.emu.rest("GET", path)
        st, h, b = self.emu.rest("GET", path)
        self.assertEqual((st, b), (204, b""))
        self.assertEqual(self.emu.rest("DELETE", path)[0], 200)
        self.assertEqual(self.emu.rest("GET", path)[0], 404)
        self.assertEqual(self.emu.rest("DELETE", path)[0], 404)

    def test_scanner_and_row_gets_answer_a_bare_cellset_in_protobuf(self):
        # ScannerInstanceResource.get and RowResource.get: the CellSet message, no length
        pb = {"Accept": "application/x-protobuf"}
        st, h, b = self.emu.rest("POST", "/t1/scanner", {"batch": 3, "maxVersions": 1})
        path = h["location"].split(str(self.emu.rest_port), 1)[1]
        st, h, b = self.emu.rest("GET", path, headers=pb)
        self.assertEqual((st, h["content-type"]), (200, "application/x-protobuf"))
        # Row a (two cells), then Row b's first cell: key 1, then the cells
        self.assertEqual(b[:1], b"\x0a")
        self.assertIn(b"\x0a\x01a\x12", b)
        self.assertIn(b"\x0a\x01b\x12", b)
        self.assertEqual(b.count(b"cf:"), 3)
        for _ in range(2):
            self.emu.rest("GET", path, headers=pb)
        self.assertEqual(self.emu.rest("GET", path, headers=pb)[:3:2], (204, b""))
        st, h, b = self.emu.rest("GET", "/t1/n", headers={"Accept": "application/protobuf"})
        self.assertEqual((st, h["content-type"]), (200, "application/protobuf"))
        self.assertTrue(b.startswith(b"\x0a") and b.count(b"cf:") == 2, b)
        self.assertEqual(self.emu.rest("GET", "/t1/nope", headers=pb)[0], 404)

    def test_406_after_read_loses_the_batch_a_plain_406_keeps(self):
        pb = {"Accept": "application/x-protobuf"}
        for answer, first in (("406", b"a"), ("406-after-read", b"b")):
            self.emu.control("POST", "/control/protobuf", {"answer": answer})
            st, h, b = self.emu.rest("POST", "/t1/scanner", {"batch": 2, "maxVersions": 1})
            path = h["location"].split(str(self.emu.rest_port), 1)[1]
            self.assertEqual(self.emu.rest("GET", path, headers=pb)[0], 406)
            d = json.loads(self.emu.rest("GET", path)[2])
            self.assertEqual(unb64(d["Row"][0]["key"]), first, answer)

    def test_scanner_range_and_columns(self):
        rows, _ = self.emu.scan_all("t1", {"startRow": b64(b"b"), "endRow": b64(b"z"),
                                           "column": [b64(b"cf:2")]})
        self.assertEqual([(k, [c[0] for c in cells]) for k, cells in rows],
                         [(b"b", [b"cf:2"]), (b"n", [b"cf:2"])])

    def test_scanned_rows_count_as_reads(self):
        self.emu.scan_all("t1", {})
        m = self.emu.rest_json("/status/cluster")
        reads = {unb64(r["name"]).split(b",")[1]: r["readRequestsCount"]
                 for n in m["LiveNodes"] for r in n["Region"] if unb64(r["name"]).startswith(b"t1,")}
        self.assertEqual(reads, {b"": 2, b"m": 2})

    def test_scanner_unknown_id_404_and_missing_table_404_at_the_first_read(self):
        self.assertEqual(self.emu.rest("GET", "/t1/scanner/12345")[0], 404)
        st, h, _ = self.emu.rest("POST", "/nope/scanner", {})
        self.assertEqual(st, 201)
        path = h["location"].split(str(self.emu.rest_port), 1)[1]
        self.assertEqual(self.emu.rest("GET", path)[0], 404)
        self.assertEqual(self.emu.rest("DELETE", path)[0], 200)

    def test_scanner_bad_filter_400_and_prefix_filter_works(self):
        self.assertEqual(self.emu.rest("POST", "/t1/scanner", {"filter": "{not json"})[0], 400)
        rows, _ = self.emu.scan_all("t1", {"filter": json.dumps({"type": "PrefixFilter", "value": b64(b"n")})})
        self.assertEqual([k for k, _ in rows], [b"n"])

    def test_read_only_scanner_create_and_delete_403_but_stateless_scan_works(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.assertEqual(self.emu.rest("POST", "/t1/scanner", {})[0], 403)
        self.assertEqual(self.emu.rest("DELETE", "/t1/scanner/1")[0], 403)
        self.assertEqual(len(self.emu.rest_json("/t1/*")["Row"]), 4)

    def test_stateless_scan_start_end_limit_and_prefix(self):
        st, h, b = self.emu.rest("GET", "/t1/*?startrow=b&endrow=z&limit=5")
        self.assertEqual(st, 200)
        self.assertNotIn("cache-control", h)
        self.assertEqual([unb64(r["key"]) for r in json.loads(b)["Row"]], [b"b", b"n"])
        d = self.emu.rest_json("/t1/*?limit=1")
        self.assertEqual(len(d["Row"]), 1)
        # 2.x: the path prefix is only the start row unless filter= is given
        d = self.emu.rest_json("/t1/n*")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"n", b"z"])
        d = self.emu.rest_json("/t1/n*?filter=KeyOnlyFilter()")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"n"])
        self.assertEqual(unb64(d["Row"][0]["Cell"][0]["$"]), b"")
        self.assertEqual(self.emu.rest_json("/t1/q*?filter=PrefixFilter('q')"), {"Row": []})
        d = self.emu.rest_json("/t1/*?startrow=n&endrow=a&reversed=true")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"n", b"b"])
        # ParseFilter's IllegalArgumentException reaches the container: 500 (seen on 2.6.1)
        self.assertEqual(self.emu.rest("GET", "/t1/*?filter=Bogus()")[0], 500)


class AuthAndTls(unittest.TestCase):
    def test_basic_auth_401_with_challenge_then_200(self):
        emu = Emu("--basic-auth", "u:p")
        try:
            st, h, b = emu.rest("GET", "/version")
            self.assertEqual(st, 401)
            self.assertEqual(h["www-authenticate"], 'Basic realm="hbase"')
            st, h, b = emu.rest("GET", "/version", headers={
                "Authorization": "Basic " + base64.b64encode(b"u:p").decode()})
            self.assertEqual(st, 200)
        finally:
            emu.stop()

    @unittest.skipUnless(shutil.which("openssl"), "openssl not installed")
    def test_tls_serves_https_and_location_uses_https(self):
        d = tempfile.mkdtemp()
        try:
            crt, key = os.path.join(d, "c.pem"), os.path.join(d, "k.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                            "-out", crt, "-days", "1", "-subj", "/CN=127.0.0.1"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            emu = Emu("--tls-cert", crt, "--tls-key", key)
            try:
                st, h, b = emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
                self.assertEqual(st, 201)
                self.assertTrue(h["location"].startswith("https://127.0.0.1:"))
            finally:
                emu.stop()
        finally:
            shutil.rmtree(d)

    def test_data_dir_persists_state_across_restarts(self):
        d = tempfile.mkdtemp()
        try:
            emu = Emu("--data-dir", d)
            emu.create("t1", [b"k"])
            emu.put("t1", b"r", b"cf:a", b"v")
            emu.stop()
            emu = Emu("--data-dir", d)
            try:
                self.assertEqual(len(emu.rest_json("/t1/regions")["Region"]), 2)
                self.assertEqual(emu.rest("GET", "/t1/r")[0], 200)
            finally:
                emu.stop()
        finally:
            shutil.rmtree(d)

    def test_read_only_flag_gives_403(self):
        emu = Emu("--read-only")
        try:
            st, h, b = emu.rest("PUT", "/t1/schema", {"name": "t1", "ColumnSchema": [{"name": "cf"}]})
            self.assertEqual((st, b), (403, b"Forbidden\r\n"))
        finally:
            emu.stop()

    def test_sigterm_exits_cleanly(self):
        emu = Emu()
        emu.proc.terminate()
        self.assertEqual(emu.proc.wait(120), 0)  # a guard against a hang, not a speed bound
        emu.stop()


if __name__ == "__main__":
    unittest.main()
