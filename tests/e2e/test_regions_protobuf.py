"""End-to-end: /T/regions (TableInfo) and the stateless meta scan (CellSet chunks) are read as
protobuf (docs/hbase-wire.md §3.1) and, from a gateway or proxy that refuses it or answers
JSON, as JSON, with the same output either way."""
import json
import threading

import hbtest
from hbtest import EmulatorTest

PB = "application/x-protobuf"


class ReadsTheGatewaysListing(EmulatorTest):
    """regions and audit read /T/regions (--source rest): the listing these tests are about,
    which the default reads only where hbase:meta cannot be."""

    def hb(self, *args, **kw):
        if any(a in ("regions", "audit") for a in args) and "--source" not in args:
            args = args + ("--source", "rest")
        return super().hb(*args, **kw)


class RegionsProtobuf(ReadsTheGatewaysListing):
    def setUp(self):
        super().setUp()
        # binary keys: exact bytes in protobuf, base64 in JSON
        self.emu.create("t1", [b"g", b"m\x00\xff", b"t"])
        self.emu.clear_requests()

    def protobuf_answer(self, answer):
        """How the gateway answers a client that accepts protobuf (emulator NOTES.md)."""
        st, _ = self.emu.control("POST", "/control/protobuf", {"answer": answer})
        self.assertEqual(st, 200)

    def asked(self):
        return [(q["accept"], q["status"], q["fault"]) for q in self.emu.requests()
                if q["method"] == "GET" and q["path"] == "/t1/regions"]

    FORMATS = (("regions", "t1"), ("-o", "json", "regions", "t1"))

    def run_both(self):
        """regions t1 in text and JSON, with the requests each made."""
        out = []
        for args in self.FORMATS:
            self.emu.clear_requests()
            r = self.hb(*args)
            self.assertOk(r)
            out.append((r.out, self.asked()))
        return out

    def test_protobuf_is_asked_for_and_used(self):
        for out, asked in self.run_both():
            self.assertEqual(asked, [(PB, 200, None)])
        r = self.hb("-o", "json", "regions", "t1")
        regions = json.loads(r.out)["regions"]
        self.assertEqual(len(regions), 4)

    def test_json_answer_to_a_protobuf_accept__same_output_one_request(self):
        want = self.run_both()
        self.protobuf_answer("json")
        got = self.run_both()
        for (w_out, _), (g_out, g_asked) in zip(want, got):
            self.assertEqual(g_out, w_out)
            self.assertEqual(g_asked, [(PB, 200, None)])

    def test_406_to_protobuf__asked_again_for_json(self):
        want = self.run_both()
        for args, (w_out, _) in zip(self.FORMATS, want):
            self.emu.clear_requests()
            self.protobuf_answer("406")
            r = self.hb(*args)
            self.assertOk(r)
            self.assertEqual(r.out, w_out)
            self.assertEqual(self.asked(), [(PB, 406, None), ("application/json", 200, None)])

    def test_a_refusal_is_remembered__one_refused_request_a_run(self):
        # audit reads /T/regions, hbase:meta (a scan and a row), the metadata row and
        # /status/cluster: each asks for protobuf until the gateway has refused it once
        want = self.hb("-o", "json", "audit", "t1")
        self.protobuf_answer("406")
        self.emu.clear_requests()
        got = self.hb("-o", "json", "audit", "t1")
        self.assertEqual((got.rc, got.out), (want.rc, want.out))
        gets = [(q["path"], q["accept"], q["status"]) for q in self.emu.requests()
                if q["method"] == "GET"]
        self.assertEqual([g for g in gets if g[1] == PB], [("/t1/regions", PB, 406)], gets)
        json_paths = {g[0].split("?")[0] for g in gets if g[1] == "application/json"}
        self.assertTrue({"/t1/regions", "/hbase%3Ameta/*", "/hbase%3Ameta/t1",
                         "/status/cluster"} <= json_paths, gets)

    def test_answers_come_uncompressed_unless_asked__same_listing_either_way(self):
        plain = self.hb("-v", "-o", "json", "regions", "t1")
        self.assertOk(plain)
        self.assertNotRegex(plain.err, r"(?im)^hbtab: > Accept-Encoding:")
        self.assertNotRegex(plain.err, r"(?im)^hbtab: < Content-Encoding:")
        gz = self.hb("-v", "--compressed", "-o", "json", "regions", "t1")
        self.assertOk(gz)
        self.assertRegex(gz.err, r"(?im)^hbtab: > Accept-Encoding:.*gzip")
        self.assertRegex(gz.err, r"(?im)^hbtab: < Content-Encoding: gzip")
        self.assertEqual(gz.out, plain.out)

    def test_answer_cut_part_way__read_again_from_its_start_nothing_twice(self):
        # enough regions that the first half of the answer holds whole ones, which were
        # handed on as they arrived and must be forgotten when the answer starts again
        self.emu.create("t2", [b"%03d" % i for i in range(1, 200)])
        want = self.hb("-o", "json", "regions", "t2")
        self.assertOk(want)
        self.emu.fault(kind="reset_body", method="GET", path="^/t2/regions", count=1)
        self.emu.clear_requests()
        r = self.hb("-v", "-o", "json", "regions", "t2")
        self.assertOk(r)
        self.assertEqual(r.out, want.out)
        self.assertEqual(len(r.json()["regions"]), 200)
        self.assertEqual([q["fault"] is not None for q in self.emu.requests()
                          if q["path"] == "/t2/regions"], [True, False])

    def test_truncated_protobuf__exit_4_named(self):
        self.protobuf_answer("cut")
        r = self.hb("regions", "t1")
        self.assertFails(r, 4, r"^hbtab: malformed response from GET /t1/regions: "
                               r"(truncated|Region\[\d+\] is truncated)")
        self.assertEqual(self.asked(), [(PB, 200, None)])

    def test_html_answer__asked_again_for_json_then_named(self):
        self.emu.fault(kind="wrong_ctype", path="^/t1/regions", count=-1)
        r = self.hb("regions", "t1")
        self.assertFails(r, 4, r"unexpected content type 'text/html;charset=utf-8' from "
                               r"GET /t1/regions")
        self.assertEqual([a for a, _, _ in self.asked()], [PB, "application/json"])



class MetaScanProtobuf(EmulatorTest):
    COMMANDS = (("regions", "t1", "--source", "meta"), ("-o", "json", "regions", "t1", "--source",
                                                       "meta"), ("audit", "t1", "--source", "meta"))

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"g", b"m\x00\xff", b"t"])

    def gateway(self, answer, fetch_size=10):
        st, _ = self.emu.control("POST", "/control/protobuf",
                                 {"answer": answer, "scan_fetch_size": fetch_size})
        self.assertEqual(st, 200)

    def outputs(self):
        out = []
        for args in self.COMMANDS:
            r = self.hb(*args)
            self.assertOk(r)
            out.append(r.out)
        return out

    def scans(self):
        """What each meta scan asked for; a listing's first scan, limited to 4096 rows, is
        asked for as JSON (the gateway closes its scanner at the limit only on that path)
        and shows as "first"."""
        return ["first" if "&limit=4096&" in q["path"] and q["accept"] == "application/json"
                else q["accept"] for q in self.emu.requests()
                if q["method"] == "GET" and q["path"].startswith("/hbase%3Ameta/*")]

    def test_meta_listing_of_a_small_table_is_one_json_scan_whatever_the_gateway_answers(self):
        self.emu.clear_requests()
        # a table under 4096 regions is read by the first scan alone, asked for as JSON
        got = self.outputs()
        self.assertEqual(set(self.scans()), {"first"})
        self.gateway("json")
        self.emu.clear_requests()
        self.assertEqual(self.outputs(), got)
        self.assertEqual(set(self.scans()), {"first"})
        self.gateway("406")
        self.emu.clear_requests()
        self.assertEqual(self.outputs(), got)
        self.assertEqual(set(self.scans()), {"first"})

    def test_chunks_of_64_kib_and_more_are_framed_despite_their_16_bit_length(self):
        # ProtobufStreamingOutput writes (short) length: the 700 meta rows after the first
        # scan's 4096 (asked for as JSON) in one chunk wrap it
        self.emu.create("big", [b"k%04d" % i for i in range(1, 4796)])
        args = ("-o", "json", "regions", "big", "--source", "meta")
        self.gateway("json")
        want = self.hb(*args)
        self.assertOk(want)
        self.gateway("protobuf", fetch_size=100000)
        self.emu.clear_requests()
        r = self.hb(*args)
        self.assertOk(r)
        self.assertEqual(r.out, want.out)
        self.assertEqual(len(json.loads(r.out)["regions"]), 4796)
        # framed: JSON was asked for only by the first scan
        self.assertEqual([x for x in self.scans() if x != PB], ["first"])

    def test_meta_scan_cut_part_way__rows_read_once_each(self):
        # 200 regions in chunks of 10 rows: the first half of the answer holds whole chunks,
        # whose rows were handed on as they arrived and are passed over when it comes again
        self.emu.create("t2", [b"%03d" % i for i in range(1, 200)])
        args = ("-o", "json", "regions", "t2", "--source", "meta")
        want = self.hb(*args)
        self.assertOk(want)
        self.emu.fault(kind="reset_body", method="GET", path="^/hbase%3Ameta/", count=1)
        self.emu.clear_requests()
        r = self.hb(*args)
        self.assertOk(r)
        self.assertEqual(r.out, want.out)
        self.assertEqual(len(r.json()["regions"]), 200)
        self.assertEqual([q["fault"] is not None for q in self.emu.requests()
                          if q["path"].startswith("/hbase%3Ameta/*")][:2], [True, False])


class StatusProtobuf(EmulatorTest):
    """audit reads /status/cluster (live servers for placement, region counters for
    --hotspots) as protobuf StorageClusterStatus (docs/hbase-wire.md §1.1), JSON from a
    gateway that refuses it or answers JSON, with the same output either way."""
    COMMANDS = (("audit", "t1"), ("-o", "json", "audit", "t1"),
                ("audit", "t1", "--hotspots", "--window", "0"))

    def setUp(self):
        super().setUp()
        # servers 2 and 3 down while the table is made: every region on server 1, a
        # placement finding once they are back
        for i in (1, 2):
            self.emu.control("POST", "/control/server", {"index": i, "state": "stop"})
        self.emu.create("t1", [b"g", b"m\x00\xff", b"t"])
        for i in (1, 2):
            self.emu.control("POST", "/control/server", {"index": i, "state": "start"})

    def gateway(self, answer):
        st, _ = self.emu.control("POST", "/control/protobuf", {"answer": answer})
        self.assertEqual(st, 200)

    def outputs(self):
        out = []
        for args in self.COMMANDS:
            r = self.hb(*args)
            self.assertEqual(r.rc, 1, r)
            out.append((r.out, r.err))
        return out

    def asked(self):
        return [(q["accept"], q["status"]) for q in self.emu.requests()
                if q["method"] == "GET" and q["path"] == "/status/cluster"]

    def test_status_is_read_as_protobuf_and_gives_what_json_gives(self):
        self.emu.clear_requests()
        got = self.outputs()
        self.assertEqual(set(self.asked()), {(PB, 200)})
        self.assertEqual([f["kind"] for f in json.loads(got[1][0])["findings"]],
                         ["placement"])
        self.gateway("json")
        self.emu.clear_requests()
        self.assertEqual(self.outputs(), got)
        self.assertEqual(set(self.asked()), {(PB, 200)})
        self.gateway("406")
        self.emu.clear_requests()
        self.assertEqual(self.outputs(), got)
        # /T/regions, asked first, was refused: the run asks for JSON from then on
        self.assertEqual(set(self.asked()), {("application/json", 200)})

    def test_status_cut_part_way__read_again_same_findings(self):
        want = self.outputs()
        for args, w in zip(self.COMMANDS, want):
            self.emu.fault(kind="reset_body", method="GET", path="^/status/cluster", count=1)
            self.emu.clear_requests()
            r = self.hb(*args)
            self.assertEqual(r.rc, 1, r)
            self.assertEqual((r.out, r.err), w)
            self.assertEqual([q["fault"] is not None for q in self.emu.requests()
                              if q["path"] == "/status/cluster"][:2], [True, False])


class MetaStatesNotOpen(ReadsTheGatewaysListing):
    """A listing read from /T/regions asks hbase:meta only for what /T/regions lacks, each
    region's info:state, and of those only the ones that are not OPEN, the rows without one
    and the last region's row (docs/hbase-wire.md §6.5); where that answer cannot be asked
    for or proves nothing, every state is read, with the same output."""

    FILTER = "&filter=SingleColumnValueFilter"

    def meta_scans(self):
        return [q["path"] for q in self.emu.requests()
                if q["method"] == "GET" and q["path"].startswith("/hbase%3Ameta/*")]

    def states(self, *extra):
        """regions t1 and audit t1 in JSON: the states, the not_open findings and the meta
        scans each made (both commands must agree)."""
        got = []
        for args in (("regions", "t1"), ("audit", "t1")):
            self.emu.clear_requests()
            r = self.hb("-o", "json", *(args + extra))
            self.assertIn(r.rc, (0, 1), r)
            got.append((r.json(), sorted(f["region"] for f in r.json().get("findings", [])
                                         if f["kind"] == "not_open"), self.meta_scans()))
        self.assertEqual(got[0][1], got[1][1])
        self.assertEqual(got[0][2], got[1][2])
        return [x["state"] for x in got[0][0]["regions"]], got[0][1], got[0][2]

    def test_healthy_table__one_filtered_scan_every_region_open(self):
        self.emu.create("t1", [b"g", b"m", b"t"])
        states, not_open, scans = self.states()
        self.assertEqual(states, ["OPEN"] * 4)
        self.assertEqual(not_open, [])
        self.assertEqual(len(scans), 1, scans)
        self.assertIn("&column=info%3Aregioninfo&column=info%3Astate" + self.FILTER, scans[0])

    def test_closed_regions_in_the_middle_and_at_the_end_are_read_as_closed(self):
        self.emu.create("t1", [b"g", b"m", b"t"])
        for i in (1, 3):
            self.emu.control("POST", "/control/unassign", {"table": "t1", "index": i})
        states, not_open, scans = self.states()
        self.assertEqual(states, ["OPEN", "CLOSED", "OPEN", "CLOSED"])
        self.assertEqual(not_open, [1, 3])
        self.assertEqual(len(scans), 1, scans)
        self.assertIn(self.FILTER, scans[0])

    def test_a_row_without_state_stays_unknown_not_open(self):
        self.emu.create("t1", [b"g", b"m", b"t"])
        for i in (0, 2):
            st, body = self.emu.control("POST", "/control/drop-state", {"table": "t1", "index": i})
            self.assertEqual(st, 200, body)
        states, _, scans = self.states()
        self.assertEqual(states, [None, "OPEN", None, "OPEN"])
        self.assertEqual(len(scans), 1, scans)

    def test_gateway_refusing_the_filter__every_state_read_same_output(self):
        self.emu.create("t1", [b"g", b"m", b"t"])
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 2})
        want = self.states()[:2]
        # ParseFilter's errors are the container's 500 on 2.x
        self.emu.fault(kind="500", method="GET", path="filter=", count=-1)
        states, not_open, scans = self.states()
        self.assertEqual((states, not_open), want)
        self.assertEqual(len(scans), 2, scans)
        self.assertIn(self.FILTER, scans[0])
        self.assertNotIn("filter=", scans[1])
        self.assertTrue(scans[1].endswith("&column=info%3Astate"), scans)

    def test_last_region_not_nameable_in_a_filter__every_state_read(self):
        # a quote in the last start key: no filter is built, one scan of every state
        self.emu.create("t1", [b"g", b"m", b"t'x"])
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 1})
        states, not_open, scans = self.states()
        self.assertEqual(states, ["OPEN", "CLOSED", "OPEN", "OPEN"])
        self.assertEqual(not_open, [1])
        self.assertEqual(len(scans), 1, scans)
        self.assertNotIn("filter=", scans[0])

    def test_last_region_split_after_the_listing__answer_proves_nothing_states_read_again(self):
        self.emu.create("t1", [b"g", b"m", b"t"])
        # the filtered meta scan waits until the last region, which the listing names, has
        # split and its row is gone (the emulator's split drops the parent's row, as the
        # catalog janitor does later): the answer lacks that name and every state is read
        self.emu.fault(server="rest", method="GET", path="filter=", kind="hold")
        got = []
        th = threading.Thread(target=lambda: got.append(self.hb("-o", "json", "regions", "t1")))
        th.start()
        try:
            hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] == 1,
                            "the filtered meta scan to be held")
            st, body = self.emu.control("POST", "/control/split",
                                        {"table": "t1", "key": hbtest.b64(b"w")})
            self.assertEqual(st, 200, body)
        finally:
            self.emu.control("POST", "/control/release")
            th.join(600)
        r = got[0]
        scans = self.meta_scans()
        self.assertEqual(len(scans), 3, (scans, r))
        self.assertIn(self.FILTER, scans[0])
        self.assertNotIn("filter=", scans[1])
        # the listing no longer ends with an empty end key: meta is asked, with a stateless
        # scan from just after the last row seen (its name and a space), whether rows follow
        self.assertRegex(scans[2], r"^/hbase%3Ameta/\*\?startrow=t1%2Cw%2C[0-9]+\.[0-9a-f]{32}\."
                                   r"%20&endrow=t1%20%2C%2C&")
        self.assertEqual([x["start"] for x in r.json()["regions"]], ["", "g", "m", "t"])
        # the listed last region's row is gone from meta: its state is unknown
        self.assertEqual(r.json()["regions"][-1]["state"], None, r)


if __name__ == "__main__":
    hbtest.main()
