"""regions, audit, status, tables, describe and sampling against a cluster: the emulator, or
real HBase (HBTAB_BACKEND=real)."""
import re

import backend
import hbtest
from hbtest import tsb, unb64

BINARY_SPLITS = [b"\x00\x01", b"\x10\\", b"\x7f\xff", b"a,b", b"\xff\x00\xfe"]



class ReadAgainstCluster(backend.BackendTest):
    def made(self, table, spec=("--hex-splits", "6"), *extra):
        r = self.hb("create", table, *spec, "--family", "info", *extra)
        self.assertOk(r)

    def regions(self, table, source):
        r = self.hb("regions", table, "--source", source, "-o", "json")
        self.assertOk(r)
        return r.json()["regions"]

    def audit(self, table, *args):
        return self.hb("audit", table, *args, "-o", "json")

    def test_regions_from_both_sources_agree_with_the_gateway(self):
        t = self.name()
        self.made(t)
        want = [tsb(k) for k in self.be.boundaries(t)]
        for source in ("rest", "meta"):
            regs = self.regions(t, source)
            self.assertEqual([r["start"] for r in regs], [""] + want, source)
            self.assertEqual([r["end"] for r in regs], want + [""], source)
            for r in regs:
                self.assertTrue(r["name"].startswith(t + ","), r)
                self.assertTrue(r["server"], r)

    def test_audit_of_a_healthy_table_from_both_sources(self):
        t = self.name()
        self.made(t, ("--hex-splits", "6"), "--keyspace", "hex{8} byte{8}")
        for source in ("rest", "meta"):
            r = self.audit(t, "--source", source)
            self.assertOk(r)
            j = r.json()
            self.assertTrue(j["healthy"], r)
            self.assertEqual(len(j["regions"]), 6)
            self.assertTrue(all(x["reachable"] for x in j["regions"]), r)

    def test_audit_finds_the_regions_a_keyspace_cannot_reach(self):
        t = self.name()
        planned = self.hb("splits", "--range-splits", "10", "--start", "0000000000000000",
                          "--end", "ffffffffffffffff", "--format", "json").json()["splits"]
        self.be.create(t, families=["info"], splits=[unb64(k["base64"]) for k in planned])
        for source in ("rest", "meta"):
            r = self.audit(t, "--source", source, "--keyspace", "hex{16}")
            self.assertEqual(r.rc, 1, r)
            j = r.json()
            unreachable = [x["index"] for x in j["regions"] if not x["reachable"]]
            self.assertEqual(unreachable, [0, 3, 4, 5, 6, 7], source)
            self.assertIn("unreachable", {f["kind"] for f in j["findings"]})

    def test_disabled_table_is_a_finding_not_health(self):
        t = self.name()
        self.made(t)
        self.be.disable(t)
        for source in ("rest", "meta"):
            r = self.audit(t, "--source", source)
            self.assertEqual(r.rc, 1, r)
            self.assertFalse(r.json()["healthy"], r)
            self.assertRegex(r.out + r.err, "disabled", source)
        self.be.enable(t)
        self.assertOk(self.audit(t))

    def test_region_replicas_are_listed_once(self):
        t = self.name()
        r = self.hb("create", t, "--hex-splits", "3", "--family", "info", "--attr",
                    "REGION_REPLICATION=2", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["regions"], 3, r)
        # the gateway itself lists every replica (the primary's name twice)
        st, body = self.be.rest_get("/%s/regions" % t)
        self.assertEqual((st, len(body["Region"])), (200, 6))
        for source in ("rest", "meta"):
            regs = self.regions(t, source)
            self.assertEqual(len(regs), 3, source)
            self.assertEqual(len({x["name"] for x in regs}), 3, source)
        r = self.audit(t)
        self.assertOk(r)
        self.assertEqual(len(r.json()["regions"]), 3, r)

    def test_hotspot_from_the_region_servers_write_counters(self):
        t = self.name()
        self.made(t, ("--hex-splits", "4"))
        # every write goes to region 2 ([80000000, c0000000))
        self.be.put(t, [(b"9%07d" % i, {"info:q": b"v"}) for i in range(300)])

        def reported():
            # region servers report their counters every few seconds (docs/hbase-wire.md §1)
            r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
            return r.rc == 1 and "hotspot" in [f["kind"] for f in r.json()["findings"]]
        hbtest.wait_for(reported, "the writes to show in /status/cluster")
        r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
        j = r.json()
        self.assertEqual([(f["kind"], f["region"]) for f in j["findings"]
                          if f["region"] is not None], [("hotspot", 2)], r)
        self.assertGreaterEqual(j["regions"][2]["writes"], 300)

    def test_sampling_a_disabled_or_missing_table_says_so(self):
        t = self.name()
        self.made(t, ("--hex-splits", "2"))
        self.be.disable(t)
        r = self.hb("splits", "--sampled-splits", "3", "--sample-table", t)
        self.assertFails(r, 4, "table '%s' is disabled" % t)
        self.be.enable(t)
        r = self.hb("splits", "--sampled-splits", "3", "--sample-table", t + "_none")
        self.assertFails(r, 4, "not found")

    def test_closed_region_is_a_finding(self):
        t = self.name()
        self.made(t)
        self.be.unassign(t, 2)
        for source in ("rest", "meta"):
            r = self.audit(t, "--source", source)
            self.assertEqual(r.rc, 1, r)
            j = r.json()
            self.assertFalse(j["healthy"], r)
            self.assertIn((2, "not_open"), [(f["region"], f["kind"]) for f in j["findings"]],
                          r)
        r = self.hb("regions", t, "--source", "meta", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([x["state"] for x in r.json()["regions"]],
                         ["OPEN", "OPEN", "CLOSED", "OPEN", "OPEN", "OPEN"], r)
        # from /T/regions, meta is asked only for the states that are not OPEN (and the last
        # region's row), and the gateway applies that filter: one scan, the same states
        r = self.hb("-v", "regions", t, "-o", "json", "--source", "rest")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([x["state"] for x in r.json()["regions"]],
                         ["OPEN", "OPEN", "CLOSED", "OPEN", "OPEN", "OPEN"], r)
        scans = re.findall(r"^hbtab: GET (/hbase%3Ameta/\*\?[^ ]*): HTTP 200, (\d+) bytes$",
                           r.err, re.M)
        self.assertEqual(len(scans), 1, r.err)
        self.assertIn("&filter=SingleColumnValueFilter", scans[0][0])

    def test_a_table_hbtab_did_not_create_has_no_metadata_row(self):
        t = self.name()
        self.be.create(t, families=["cf"], splits=[b"g", b"p"])
        for source in ("rest", "meta"):
            regs = self.regions(t, source)
            self.assertEqual([r["start"] for r in regs], ["", "g", "p"])
        r = self.audit(t)
        self.assertOk(r)
        self.assertTrue(r.json()["healthy"], r)
        self.assertEqual((r.json()["metadata_row"], r.json()["keyspace"]), (False, None), r)
        self.assertFails(self.hb("meta", "get", t), 1)

    def test_binary_boundaries_read_back_byte_for_byte(self):
        t = self.name()
        self.be.create(t, families=["cf"], splits=BINARY_SPLITS)
        self.assertEqual(self.be.boundaries(t), sorted(BINARY_SPLITS))
        want = [tsb(k) for k in sorted(BINARY_SPLITS)]
        names = {}
        for source in ("rest", "meta"):
            regs = self.regions(t, source)
            self.assertEqual([r["start"] for r in regs], [""] + want, source)
            self.assertEqual([r["end"] for r in regs], want + [""], source)
            names[source] = [r["name"] for r in regs]
        # the gateway mangles a name whose start key is not UTF-8: hbtab takes its MD5 itself
        # (libcrypto opened then) and names the region as hbase:meta does
        self.assertEqual(names["rest"], names["meta"])
        r = self.hb("regions", t)
        self.assertOk(r)
        self.assertIn("\\xFF\\x00\\xFE", r.out)

    def test_status_tables_and_describe(self):
        t = self.name()
        self.made(t, ("--hex-splits", "3"))
        r = self.hb("status", "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertEqual(len(j["live"]), self.be.live_servers(), r)
        # Servers stopped earlier stay listed as dead (host,port,startcode) on real HBase.
        for d in j["dead"]:
            self.assertRegex(d, r"^[^,]+,\d+,\d+$")
        if self.be.kind == "real":
            self.assertEqual(j["cluster_version"], self.be.version, r)
        r = self.hb("tables")
        self.assertOk(r)
        self.assertIn(t, r.out.split())
        r = self.hb("describe", t)
        self.assertOk(r)
        self.assertRegex(r.out, r"(?m)^info\tVERSIONS\t")

    def test_sample_of_a_live_tables_keys(self):
        t = self.name()
        self.made(t, ("--hex-splits", "2"))
        rows = [(b"%04d" % i, {"info:q": b"v"}) for i in range(0, 1000, 5)]
        self.be.put(t, rows)
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", t,
                    "--sample-rows", "1000", "--format", "json")
        self.assertOk(r)
        keys = [unb64(k["base64"]) for k in r.json()["splits"]]
        self.assertEqual(len(keys), 3, r)
        self.assertEqual(keys, sorted(keys))
        written = {k for k, _ in rows}
        self.assertTrue(set(keys) <= written, keys)
        self.assertNotIn(b"totalPartition", keys)

    @staticmethod
    def traced_gets(err, part):
        """(Accept sent, Content-Type answered, status) of each traced GET whose path has
        part, from -v's request and response headers."""
        out = []
        for block in re.split(r"(?m)^hbtab: (?=GET \S+ \(attempt \d+\)$)", err)[1:]:
            path = block.split(" ", 2)[1]
            if part not in path:
                continue
            accept = re.search(r"(?mi)^hbtab: > Accept: (\S+)", block)
            ctype = re.search(r"(?mi)^hbtab: < Content-Type: ([^;\s]+)", block)
            status = re.search(r"(?m)^hbtab: GET \S+: HTTP (\d+), \d+ bytes$", block)
            out.append((accept and accept.group(1), ctype and ctype.group(1),
                        status and int(status.group(1))))
        return out

    def test_row_gets_and_scanner_batches_are_read_as_protobuf(self):
        t = self.name()
        self.made(t, ("--hex-splits", "2"))
        # 1,500 one-cell rows: two scanner batches of 1,000 cells
        keys = [b"%04d" % i for i in range(0, 3000, 2)]
        self.be.put(t, [(k, {"info:q": b"v"}) for k in keys])
        # a row GET: the metadata row, answered as protobuf, reads as the JSON answer does
        r = self.hb("-v", "-o", "json", "meta", "get", t)
        self.assertOk(r)
        self.assertEqual(r.json()["N"], 2, r)
        self.assertEqual(self.traced_gets(r.err, "/totalPartition"),
                         [("application/x-protobuf", "application/x-protobuf", 200)], r.err)
        st, body = self.be.rest_get("/%s/totalPartition/info" % t)
        self.assertEqual(st, 200)
        n = [unb64(c["$"]) for c in body["Row"][0]["Cell"] if unb64(c["column"]) == b"info:N"]
        self.assertEqual(n, [b"2"], body)
        # scanner batches: every row sampled (the chance is 1) gives the split keys the same
        # keys give from a file
        args = ("splits", "--sampled-splits", "4", "--format", "json")
        r = self.hb("-v", *args, "--sample-table", t, "--sample-rows", "100000")
        self.assertOk(r)
        self.assertEqual(self.traced_gets(r.err, "/scanner/"),
                         [("application/x-protobuf", "application/x-protobuf", 200)] * 2 +
                         [("application/x-protobuf", None, 204)], r.err)
        sample = b"".join(k + b"\n" for k in keys)
        want = self.hb(*args, "--sample-file", "-", stdin=sample)
        self.assertOk(want)
        self.assertEqual(r.json()["splits"], want.json()["splits"])


if __name__ == "__main__":
    hbtest.main()
