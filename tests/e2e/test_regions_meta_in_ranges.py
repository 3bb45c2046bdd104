"""End-to-end: `regions T --source meta` and `audit T --source meta` on a table of thousands of
regions read hbase:meta in ranges. The listing starts as one stateless scan of at most 4096
rows asked for as JSON (the gateway closes its scanner at the limit only on that path); when it
gives them all, a second request samples the table's meta rows (those whose encoded name ends
in "00"), printable start keys after its last row give up to three boundaries, the ranges from
the first boundary on are fetched at once on their own connections, and the first connection
reads on from the last row to the first boundary. Every scan runs to its end row. What is
printed is byte for byte what one scan prints; a refused sample means one scan on, a failed
range is read again, a listing cut before a boundary or ranges that do not meet at a seam
(hbase:meta changed between their reads) are read again as one scan, and a table under 4096
regions is read by the first scan alone."""
import re
import threading

import hbtest
from hbtest import EmulatorTest
from lib.metalisting import (RANGE, REGIONS, SAMPLE, TABLE, hex_splits, meta_scans, ranges,
                             samples, startrow)


class MetaListingInRanges(EmulatorTest):
    splits = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # the keys `hbtab create --hex-splits 12000` makes, so that audit finds the table as
        # created (its metadata row says N and the key space)
        cls.splits = hex_splits()

    def setUp(self):
        super().setUp()
        self.emu.create(TABLE, self.splits)
        st, body = self.emu.control("POST", "/control/put", {"table": TABLE, "rows": [{
            "key": hbtest.b64("totalPartition"), "cells": [
                {"column": hbtest.b64("cf:N"), "value": hbtest.b64(str(REGIONS))},
                {"column": hbtest.b64("cf:keyspace"), "value": hbtest.b64("hex{8} *")},
                {"column": hbtest.b64("cf:splits"),
                 "value": hbtest.b64("--hex-splits %d" % REGIONS)}]}]})
        self.assertEqual(st, 200, body)
        self.emu.clear_requests()

    # --- the request log ---------------------------------------------------------------

    def meta_scans(self, log):
        return meta_scans(log)

    def samples(self, log):
        return samples(log)

    def ranges(self, log):
        return ranges(log)

    def run_logged(self, *args):
        """hbtab args with a fresh request log: (result, the requests it made)."""
        self.emu.clear_requests()
        r = self.hb(*args)
        return r, self.emu.requests()

    def refuse_sample(self):
        # ParseFilter's errors are the container's 500 on 2.x
        self.emu.fault(kind="500", method="GET", path=SAMPLE, count=-1)

    def one_scan(self, *args):
        """What args print when the sample is refused, so one scan reads the whole listing;
        asserts no range was asked for."""
        self.refuse_sample()
        r, log = self.run_logged(*args)
        self.emu.clear_faults()
        self.assertGreaterEqual(len(self.samples(log)), 1, log)
        self.assertTrue(all(q["fault"] == "500" for q in self.samples(log)), self.samples(log))
        self.assertEqual(self.ranges(log), [])
        return r

    def assertRanged(self, log):
        """The log shows one sample answered and at least one range read on its own."""
        samples = self.samples(log)
        self.assertEqual([(q["status"], q["fault"]) for q in samples], [(200, None)], samples)
        self.assertIn("startrow=%s%%2C&" % TABLE, samples[0]["path"])
        self.assertGreaterEqual(len(self.ranges(log)), 1,
                                [q["path"][:160] for q in self.meta_scans(log)])

    # --- the tests ---------------------------------------------------------------------

    def test_regions_read_in_ranges_print_what_one_scan_prints(self):
        for args in (("regions", TABLE, "--source", "meta"),
                     ("-o", "json", "regions", TABLE, "--source", "meta")):
            with self.subTest(args=args):
                got, log = self.run_logged(*args)
                self.assertOk(got)
                self.assertRanged(log)
                want = self.one_scan(*args)
                self.assertOk(want)
                self.assertEqual(got.out, want.out)
                self.assertEqual(got.err, want.err)
        # and that one listing is the whole table, in order, each region once
        regions = got.json()["regions"]
        self.assertEqual([x["start"].encode() for x in regions], [b""] + self.splits)
        self.assertEqual(len({x["name"] for x in regions}), REGIONS)

    def test_audit_read_in_ranges_gives_what_one_scan_gives(self):
        for args in (("audit", TABLE, "--source", "meta"),
                     ("-o", "json", "audit", TABLE, "--source", "meta")):
            with self.subTest(args=args):
                got, log = self.run_logged(*args)
                self.assertIn(got.rc, (0, 1), got)
                self.assertRanged(log)
                want = self.one_scan(*args)
                self.assertEqual((got.rc, got.out, got.err), (want.rc, want.out, want.err))
        self.assertEqual(len(got.json()["regions"]), REGIONS)

    def test_sample_reset_part_way__one_scan_same_output(self):
        args = ("-o", "json", "regions", TABLE, "--source", "meta")
        want = self.one_scan(*args)
        self.assertOk(want)
        self.emu.fault(kind="reset_body", method="GET", path=SAMPLE, count=-1)
        got, log = self.run_logged(*args)
        self.assertOk(got)
        self.assertEqual(got.out, want.out)
        self.assertGreaterEqual(len(self.samples(log)), 1, log)
        self.assertEqual({q["fault"] for q in self.samples(log)}, {"reset_body"})
        self.assertEqual(self.ranges(log), [])

    def test_range_reset_part_way__read_again_on_the_main_connection_same_output(self):
        args = ("-o", "json", "regions", TABLE, "--source", "meta")
        want = self.one_scan(*args)
        self.assertOk(want)
        # no retries: the range's own request fails at its first reset, and hbtab reads that
        # range itself (the fault has fired once; the second reading is answered)
        self.emu.fault(kind="reset_body", method="GET", path=RANGE, count=1)
        got, log = self.run_logged("--retries", "0", *args)
        self.assertOk(got)
        self.assertEqual(got.out, want.out)
        self.assertRanged(log)
        cut = [q for q in self.ranges(log) if q["fault"] is not None]
        self.assertEqual([q["fault"] for q in cut], ["reset_body"], log)
        # read again from the same start row, answered in full
        start = startrow(cut[0]["path"])
        later = log[log.index(cut[0]) + 1:]
        self.assertIn((start, 200, None), [(startrow(q["path"]), q["status"], q["fault"])
                                           for q in self.meta_scans(later)], log)

    def test_range_reset_part_way__audit_same_findings(self):
        args = ("-o", "json", "audit", TABLE, "--source", "meta")
        want = self.one_scan(*args)
        self.emu.fault(kind="reset_body", method="GET", path=RANGE, count=1)
        got, log = self.run_logged("--retries", "0", *args)
        self.assertEqual((got.rc, got.out), (want.rc, want.out))
        self.assertEqual([q["fault"] for q in self.ranges(log) if q["fault"] is not None],
                         ["reset_body"], log)

    def test_listing_cut_short_before_a_boundary__read_again_as_one_scan(self):
        # the scan that reads on from the first scan's last row (its start row is that row's
        # key and a space) ends, as a 200, after 500 rows, short of the first boundary: the
        # look between it and the boundary finds the rows it did not give, and the listing is
        # read again as one scan, which is not cut
        args = ("-o", "json", "regions", TABLE, "--source", "meta")
        want = self.one_scan(*args)
        self.assertOk(want)
        st, body = self.emu.control("POST", "/control/meta-cut",
                                    {"rows": 500, "path": "%%20&endrow=%s%%2C" % TABLE})
        self.assertEqual(st, 200, body)
        try:
            got, log = self.run_logged(*args)
        finally:
            self.emu.control("POST", "/control/meta-cut", {"rows": None})
        self.assertOk(got)
        self.assertEqual(got.out, want.out)
        self.assertRanged(log)
        listings = [q["path"] for q in self.meta_scans(log) if startrow(q["path"]) == TABLE]
        self.assertEqual(len(listings), 2, listings)
        self.assertIn("&limit=4096&", listings[0])
        self.assertNotIn("limit=", listings[1])

    def test_one_scan_cut_short__ended_early_not_a_hole(self):
        # every stateless meta scan ends, as a 200, after 3000 rows: the first scan, limited
        # to 4096, looks like the whole listing, and the look after its last row finds more
        st, body = self.emu.control("POST", "/control/meta-cut", {"rows": 3000})
        self.assertEqual(st, 200, body)
        try:
            for args in (("regions", TABLE, "--source", "meta"),
                         ("audit", TABLE, "--source", "meta")):
                with self.subTest(args=args):
                    got, log = self.run_logged(*args)
                    self.assertFails(got, 4, r"hbase:meta's listing of table '%s' ended early"
                                     % TABLE)
                    self.assertEqual(got.out, "")
                    self.assertEqual(self.samples(log), [])
        finally:
            self.emu.control("POST", "/control/meta-cut", {"rows": None})

    def test_start_keys_outside_printable_ascii__no_sample_one_scan(self):
        # every start key holds a byte outside 0x20-0x7e: no stateless bound can follow the
        # first scan's last row, so the listing is read as one scan, with no sample
        binary = [b"\x01" + k for k in self.splits]
        self.emu.create("bin", binary)
        args = ("-o", "json", "regions", "bin", "--source", "meta")
        got, log = self.run_logged(*args)
        self.assertOk(got)
        self.assertEqual(self.samples(log), [], log)
        listings = [q["path"] for q in self.meta_scans(log) if startrow(q["path"]) == "bin"]
        self.assertEqual(len(listings), 2, listings)
        self.assertIn("&limit=4096&", listings[0])
        self.assertNotIn("limit=", listings[1])
        self.assertEqual([q for q in self.meta_scans(log) if "startrow=bin%2C" in q["path"]],
                         [])
        regions = got.json()["regions"]
        self.assertEqual([x["start"] for x in regions],
                         [""] + ["\\x01" + k.decode() for k in self.splits])
        self.assertEqual(len({x["name"] for x in regions}), REGIONS)

    def test_every_meta_scan_ends_at_its_end_row__the_first_is_limited_and_json(self):
        # a stateless scan broken off leaves the gateway's scanner open (and a SEVERE line in
        # its log): the first scan is limited, as JSON, and every other one has an end row
        got, log = self.run_logged("-o", "json", "regions", TABLE, "--source", "meta")
        self.assertOk(got)
        self.assertRanged(log)
        scans = self.meta_scans(log)
        first = [q for q in scans if startrow(q["path"]) == TABLE]
        self.assertEqual([("&limit=4096&" in q["path"], q["accept"]) for q in first],
                         [(True, "application/json")], first)
        for q in scans:
            with self.subTest(path=q["path"][:120]):
                self.assertRegex(q["path"], "[?&]endrow=[^&]+&")
                self.assertEqual((q["status"], q["fault"]), (200, None))

    def test_merge_across_a_seam_between_ranges__one_view_no_false_overlap(self):
        # the range that ends at the last boundary k is held while the one from k is answered;
        # meanwhile the regions either side of k are merged: the held range lists the merged
        # region [p, q), the other still its second parent [k, q). One read of hbase:meta
        # never shows both: the listing is read again as one scan.
        args = ("-o", "json", "audit", TABLE, "--source", "meta")
        _, log = self.run_logged(*args)
        bounds = sorted(re.search(RANGE.replace("[0-9a-fA-F]{8}", "([0-9a-fA-F]{8})"),
                                  q["path"]).group(1) for q in self.ranges(log))
        self.assertGreaterEqual(len(bounds), 2, log)
        k = bounds[-1]
        index = self.splits.index(k.encode())  # region index + 1 starts at k
        self.emu.fault(kind="hold", method="GET", path="endrow=%s%%2C%s%%2C&" % (TABLE, k),
                       count=1)
        result = {}
        from_k = "startrow=%s%%2C%s%%2C&" % (TABLE, k)
        self.emu.clear_requests()
        th = threading.Thread(target=lambda: result.update(r=self.hb("-v", *args)))
        th.start()
        try:
            hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] >= 1,
                            "the range below the last boundary held")
            # the range from k answered (its rows taken) before the merge: on a loaded
            # machine it may still be on its way when the other is held
            hbtest.wait_for(lambda: any(from_k in q["path"] and q["status"] == 200
                                        for q in self.emu.requests()),
                            "the range from the last boundary answered")
            st, body = self.emu.control("POST", "/control/merge",
                                        {"table": TABLE, "index": index})
            self.assertEqual(st, 200, body)
        finally:
            self.emu.control("POST", "/control/release")
            th.join(600)
        got = result["r"]
        merged = body["merged"]
        doc = got.json()
        self.assertEqual([f for f in doc["findings"] if f["kind"] == "overlap"], [])
        self.assertEqual(len(doc["regions"]), REGIONS - 1)
        self.assertNotIn(k, [x["start"] for x in doc["regions"]])
        self.assertIn((hbtest.unb64(merged["start"]).decode(), hbtest.unb64(merged["end"]).decode()),
                      [(x["start"], x["end"]) for x in doc["regions"]])
        self.assertIn("read again as one scan", got.err)
        # what one read of hbase:meta after the merge gives (compared whole: no diff of
        # 12,000 regions is printed)
        want = self.hb(*args)
        self.assertEqual(got.rc, want.rc)
        self.assertTrue(got.out == want.out, "the listing differs from one read after the merge")

    def test_tables_under_4096_regions__one_scan_no_sample(self):
        self.emu.create("few", [b"g", b"m", b"t"])
        self.emu.create("under", [b"%04d" % i for i in range(1, 4000)])
        for table, n in (("few", 4), ("under", 4000)):
            for args in (("-o", "json", "regions", table, "--source", "meta"),
                         ("-o", "json", "audit", table, "--source", "meta")):
                with self.subTest(args=args):
                    r, log = self.run_logged(*args)
                    self.assertIn(r.rc, (0, 1), r)
                    self.assertEqual(len(r.json()["regions"]), n)
                    self.assertEqual(self.samples(log), [])
                    listings = [q for q in self.meta_scans(log)
                                if "startrow=%s&" % table in q["path"]]
                    self.assertEqual(len(listings), 1, log)
                    self.assertEqual([q for q in self.meta_scans(log)
                                      if "startrow=%s%%2C" % table in q["path"]], [], log)

    def test_json_answer_to_a_protobuf_accept__ranges_kept_whole_same_output(self):
        # a gateway (or a proxy) that answers JSON to the protobuf Accept: the ranges come
        # whole, as JSON, and are read as such; what is printed does not change
        commands = (("regions", TABLE, "--source", "meta"),
                    ("-o", "json", "regions", TABLE, "--source", "meta"),
                    ("-o", "json", "audit", TABLE, "--source", "meta"))
        want = []
        for args in commands:
            r, log = self.run_logged(*args)
            self.assertIn(r.rc, (0, 1), r)
            self.assertRanged(log)
            want.append(r)
        st, body = self.emu.control("POST", "/control/protobuf", {"answer": "json"})
        self.assertEqual(st, 200, body)
        for args, w in zip(commands, want):
            with self.subTest(args=args):
                got, log = self.run_logged(*args)
                self.assertEqual((got.rc, got.out, got.err), (w.rc, w.out, w.err))
                self.assertRanged(log)
        self.assertEqual(len(got.json()["regions"]), REGIONS)

    def test_verbose__the_sample_and_every_range_are_traced_output_unchanged(self):
        # the ranges run on their own connections, in their own threads: their traces reach
        # stderr too, whole lines, and -v changes nothing on stdout
        args = ("-o", "json", "regions", TABLE, "--source", "meta")
        want, log = self.run_logged(*args)
        self.assertOk(want)
        self.assertRanged(log)
        got, log = self.run_logged("-v", *args)
        self.assertOk(got)
        self.assertRanged(log)
        self.assertEqual(got.out, want.out)
        lines = got.err.splitlines()
        self.assertEqual([x for x in lines if not x.startswith("hbtab: ")], [])
        traced = self.samples(log) + self.ranges(log)
        self.assertGreaterEqual(len(traced), 2, log)
        for q in traced:
            with self.subTest(path=q["path"][:120]):
                self.assertEqual((q["status"], q["fault"]), (200, None), q)
                # asked, sent, answered: the only lines that name its path, in that order
                path = q["path"]
                mine = [x for x in lines if path in x]
                self.assertEqual(mine[:2], ["hbtab: GET %s (attempt 1)" % path,
                                            "hbtab: > GET %s HTTP/1.1" % path], mine)
                self.assertEqual(len(mine), 3, mine)
                self.assertRegex(mine[2], "^" + re.escape("hbtab: GET %s: HTTP 200, " % path)
                                 + "[0-9]+ bytes$")
        # every stateless meta scan asked for is traced (the listing, the sample, the ranges
        # and the looks between them), and nothing else was asked of meta
        asked = [x[len("hbtab: GET "):-len(" (attempt 1)")] for x in lines
                 if x.startswith("hbtab: GET /hbase%3Ameta/*?") and x.endswith(" (attempt 1)")]
        self.assertEqual(sorted(asked), sorted(q["path"] for q in self.meta_scans(log)))


if __name__ == "__main__":
    hbtest.main()
