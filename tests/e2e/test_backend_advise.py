"""hbtab advise and the hot keys of audit --hotspots against a cluster: the emulator, or real
HBase (HBTAB_BACKEND=real).

advise's figures are checked against what the cluster's own /status/cluster, /T/regions and
/T/schema say, read here without hbtab; the hot keys against rows written under one prefix.
"""
import backend
import hbtest

MiB = 1 << 20
DEFAULT_SPLIT_SIZE = 10737418240  # hbase.hregion.max.filesize


def ceil_div(a, b):
    return -(-a // b)


class AdviseAgainstCluster(backend.BackendTest):
    def status(self, table):
        """(live servers, the table's store files + memstores in bytes) from /status/cluster."""
        st, body = self.be.rest_get("/status/cluster")
        self.assertEqual(st, 200)
        name = table[len("default:"):] if table.startswith("default:") else table
        mb = 0
        for node in body["LiveNodes"]:
            for r in node.get("Region", []):
                if hbtest.unb64(r["name"]).startswith(name.encode() + b","):
                    mb += r.get("storefileSizeMB", 0) + r.get("memStoreSizeMB", 0)
        return len(body["LiveNodes"]), mb * MiB

    def test_advice_for_a_table_with_rows_is_the_clusters_own_figures(self):
        t = self.name()
        self.assertOk(self.hb("create", t, "--hex-splits", "10", "--family", "cf",
                              "--keyspace", "hex{8}"))
        rows = [(b"%08x" % (i * 2654435761 % 2**32), {"cf:q": b"v%d" % i}) for i in range(300)]
        # three 700 KiB cells in one region: its memstore passes 2 MiB, which the gateway
        # reports in whole MiB (a smaller region reads 0)
        rows += [(b"a%07d" % i, {"cf:blob": b"x" * (700 << 10)}) for i in range(3)]
        self.be.put(t, rows)
        # every region holding anything reports at least 1 MiB (HRegionServer.roundSize)
        hbtest.wait_for(lambda: self.status(t)[1] >= 11 * MiB,
                        "the region servers to report the table's memstores")
        before = self.be.boundaries(t)
        servers, size0 = self.status(t)
        r = self.hb("advise", t, "-o", "json")
        self.assertOk(r)
        j = r.json()
        size = self.status(t)[1]
        inp = j["inputs"]
        self.assertEqual((inp["servers"], inp["servers_from"]), (servers, "/status/cluster"), r)
        # a report that came in between the two readings may have moved it
        self.assertIn(inp["store_size"], {size0, size}, r)
        size = inp["store_size"]
        self.assertEqual(inp["split_size"], DEFAULT_SPLIT_SIZE, r)
        self.assertIn("hbase.hregion.max.filesize", inp["split_size_from"])
        self.assertEqual((inp["regions_per_server"], inp["target_region_size"]),
                         (2, DEFAULT_SPLIT_SIZE // 2), r)
        # the rule: the servers decide for a table this small
        n = max(2 * servers, ceil_div(size, DEFAULT_SPLIT_SIZE // 2))
        n = ceil_div(n, servers) * servers
        self.assertEqual((j["N"], j["rule"]["size_decides"], j["rule"]["limited_by"]),
                         (n, False, None), r)
        self.assertEqual(j["splitspec"], "--hex-splits %d" % n, r)
        self.assertEqual(j["current_splitspec"], "--hex-splits 10", r)
        now, rec = j["now"], j["recommended"]
        self.assertEqual((now["regions"], now["scan_scanners"]), (10, 10), r)
        self.assertEqual(now["scanners_per_server"], ceil_div(10, servers))
        self.assertEqual(now["region_size"], size // 10)
        self.assertEqual((rec["regions"], rec["scan_scanners"], rec["regions_per_server"]),
                         (n, n, 2), r)
        self.assertGreaterEqual(now["largest_region"], 2 * MiB)
        # the skew of the table's own rows (the metadata row is not sampled)
        self.assertEqual(j["skew_sample"], {"source": "rows", "keys": 303, "keyspace": "hex{8}"})
        self.assertGreaterEqual(now["skew"], 1)
        self.assertGreaterEqual(rec["skew"], 1)
        self.assertIn("servers decide", j["why"])
        # the text says the same, answer first; nothing changed
        r = self.hb("advise", t)
        self.assertOk(r)
        self.assertTrue(r.out.startswith("%s: N = %d (--hex-splits %d), now 10\n" % (t, n, n)),
                        r.out)
        self.assertRegex(r.out, r"(?m)^live region servers\t%d\t/status/cluster$" % servers)
        self.assertRegex(r.out, r"(?m)^skew: 303 sampled rows")
        self.assertEqual(self.be.boundaries(t), before)
        self.assertEqual(self.be.metadata_row(t)["cf:N"], "10")

    def test_the_tables_max_filesize_is_the_split_size(self):
        t = self.name()
        self.assertOk(self.hb("create", t, "--hex-splits", "4", "--family", "cf",
                              "--attr", "MAX_FILESIZE=4294967296"))
        self.be.put(t, [(b"%08x" % (i << 20), {"cf:q": b"v"}) for i in range(40)])
        r = self.hb("advise", t, "--regions-per-server", "3", "-o", "json")
        self.assertOk(r)
        j = r.json()
        servers = self.status(t)[0]
        self.assertEqual((j["inputs"]["split_size"], j["inputs"]["target_region_size"]),
                         (4294967296, 2147483648), r)
        self.assertIn("MAX_FILESIZE", j["inputs"]["split_size_from"])
        self.assertEqual((j["N"], j["splitspec"]), (3 * servers, "--hex-splits %d" % (3 * servers)))

    def test_a_recorded_specification_advise_cannot_use_gives_n_only(self):
        t = self.name()
        self.be.create(t, families=["cf"], splits=[b"4", b"8", b"c"])
        servers = self.status(t)[0]
        # an empty table with no metadata row: nothing to keep or to sample
        r = self.hb("advise", t, "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertEqual((j["N"], j["splitspec"], j["current_splitspec"], j["skew_sample"]),
                         (2 * servers, None, None, None), r)
        self.assertIn("holds no row", j["why"])
        # a metadata row whose specification does not compute, or that reads a file (never
        # opened): N alone, the table's rows still sampled for nothing
        for spec, why in (("--range-splits 4", "does not compute"),
                          ("--sampled-splits 3 --sample-file /etc/passwd", "reads a file")):
            self.be.put(t, [(b"totalPartition", {"cf:N": b"4", "cf:splits": spec.encode()})])
            r = self.hb("advise", t, "-o", "json")
            self.assertOk(r)
            j = r.json()
            self.assertEqual((j["N"], j["splitspec"], j["current_splitspec"]),
                             (2 * servers, None, spec), r)
            self.assertIn(why, j["why"])
            self.assertEqual(j["now"]["regions"], 4)

    def test_advice_for_a_missing_table_says_so(self):
        r = self.hb("advise", self.name())
        self.assertFails(r, 4, "table '%s' not found" % self.name())

    def test_hot_keys_name_the_prefix_that_takes_the_writes(self):
        t = self.name()
        self.assertOk(self.hb("create", t, "--hex-splits", "16", "--family", "cf",
                              "--keyspace", "hex{8}"))
        # one row under each prefix, then 400 under 'c'
        self.be.put(t, [(b"%x0000000" % i, {"cf:q": b"v"}) for i in range(16)])
        self.be.put(t, [(b"c%07d" % i, {"cf:q": b"v"}) for i in range(400)])

        def hot():
            # region servers report their counters every few seconds (docs/hbase-wire.md §1)
            r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
            return r.rc == 1 and r.json()["hotspots"]["total_writes"] >= 416
        hbtest.wait_for(hot, "the writes to show in /status/cluster")
        r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
        j = r.json()
        self.assertIn(("hotspot", 12), [(f["kind"], f["region"]) for f in j["findings"]], r)
        hk = j["hotspots"]["hot_keys"]
        self.assertEqual((hk["prefix_bytes"], hk["buckets"]), (1, False), r)
        first = hk["keys"][0]
        self.assertEqual((first["prefix"], first["region"], first["regions"], first["measured"]),
                         ("c", 12, 1, True), r)
        self.assertEqual(first["writes"], j["regions"][12]["writes"])
        self.assertGreater(first["write_share"], 0.9, r)
        self.assertEqual(first["write_share"], j["regions"][12]["write_share"])
        # the text names it after the summary, before the regions
        r = self.hb("audit", t, "--hotspots", "--window", "0")
        self.assertEqual(r.rc, 1, r)
        block = r.out.split("hot keys (", 1)[1].split("\n")
        self.assertTrue(block[0].startswith("the 1 hottest region decoded through 'hex{8}'"),
                        r.out)
        self.assertRegex(block[1], r"^  'c': \d+\.\d\d% of the writes \(\d+\), region 12, "
                                   r"measured$")


    def test_hot_keys_of_a_salted_table_are_its_buckets_from_the_recorded_design(self):
        t = self.name()
        # no --keyspace: the metadata row records only "--salt-splits 16 --salt-width 1"
        self.assertOk(self.hb("create", t, "--salt-splits", "16", "--family", "cf"))
        self.be.put(t, [(bytes([b]) + b"%08d" % b, {"cf:q": b"v"}) for b in range(16)])
        self.be.put(t, [(b"\x05" + b"%08d" % i, {"cf:q": b"v"}) for i in range(300)])

        def hot():
            r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
            return r.rc == 1 and r.json()["hotspots"]["total_writes"] >= 316
        hbtest.wait_for(hot, "the writes to show in /status/cluster")
        r = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0")
        j = r.json()
        self.assertIsNone(j["keyspace"], r)
        hk = j["hotspots"]["hot_keys"]
        self.assertEqual((hk["keyspace"], hk["from_splits"], hk["buckets"], hk["prefix_bytes"]),
                         ("u8<16 *", True, True, 1), r)
        first = hk["keys"][0]
        self.assertEqual((first["bucket"], first["prefix"], first["region"], first["measured"]),
                         (5, "\\x05", 5, True), r)
        r = self.hb("audit", t, "--hotspots", "--window", "0")
        self.assertRegex(r.out, r"hot keys \(the 1 hottest region decoded through 'u8<16 \*' of "
                                r"the recorded split specification, by bucket\):\n"
                                r"  bucket 5 '\\x05': \d+\.\d\d% of the writes")


if __name__ == "__main__":
    hbtest.main()
