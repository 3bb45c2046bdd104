"""hbase:meta through REST: meta comparator order, column encodings, the
docs/hbase-wire.md §6.2 / §6.4 worked examples."""
import hashlib
import json
import os
import struct
import sys
import unittest

from emu_harness import EMU_DIR, EmuTestCase, b64, unb64

sys.path.insert(0, EMU_DIR)
from hbemu import gen  # noqa: E402
from hbemu.meta import MetaView  # noqa: E402
from hbemu.state import Region, State, meta_sort_key  # noqa: E402

DOC_REGIONINFO = bytes.fromhex(
    "50425546" "0880d095ffbc31" "120d0a0764656661756c74120274 31".replace(" ", "")
    + "1a00" "22016d" "2800" "3000" "3800")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def hand_regioninfo(rid, ns, q, start, end, offline=False, split=False):
    """RegionInfo encoded by hand (independent of the protobuf runtime)."""
    tn = b"\x0a" + varint(len(ns)) + ns + b"\x12" + varint(len(q)) + q
    return (b"PBUF" + b"\x08" + varint(rid) + b"\x12" + varint(len(tn)) + tn +
            b"\x1a" + varint(len(start)) + start + b"\x22" + varint(len(end)) + end +
            b"\x28" + bytes([offline]) + b"\x30" + bytes([split]) + b"\x38\x00")


class WorkedExamples(unittest.TestCase):
    def test_doc_6_4_regioninfo_bytes_from_protobuf_runtime(self):
        _, _, pb = gen.load()
        s = State(1)
        mv = MetaView(s, pb)
        r = Region("t1", b"", b"m", 1700000000000, 0)
        v = mv.regioninfo_bytes(r)
        self.assertEqual(v, DOC_REGIONINFO)
        import base64
        self.assertEqual(base64.b64encode(v).decode(), "UEJVRgiA0JX/vDESDQoHZGVmYXVsdBICdDEaACIBbSgAMAA4AA==")
        self.assertEqual(v, hand_regioninfo(1700000000000, b"default", b"t1", b"", b"m"))

    def test_doc_6_2_encoded_name_is_md5_of_table_start_id(self):
        r = Region("t1", b"", b"m", 1700000000000, 0)
        self.assertEqual(r.encoded, "43ae7364b4a555b93267937f9bc49ec1")
        self.assertEqual(r.name, b"t1,,1700000000000.43ae7364b4a555b93267937f9bc49ec1.")

    def test_meta_comparator_sorts_no_comma_row_first_and_space_after_commas(self):
        rows = [b"t1 ,,", b"t1,,1.x.", b"t1", b"t1,!,1.x.", b"t1,a,b,2.x.", b"t,,9.x."]
        got = sorted(rows, key=meta_sort_key)
        self.assertEqual(got, [b"t,,9.x.", b"t1", b"t1,,1.x.", b"t1,!,1.x.", b"t1,a,b,2.x.", b"t1 ,,"])
        # raw byte order would put the stop row before every region row
        self.assertLess(b"t1 ,,", b"t1,,1.x.")


class MetaOverRest(EmuTestCase):
    def region_rows(self, table, start_suffix=b",,"):
        model = {"startRow": b64(table + start_suffix), "endRow": b64(table + b" ,,"),
                 "maxVersions": 1, "batch": 1000}
        rows, _ = self.emu.scan_all("hbase:meta", model)
        return rows

    def test_scan_table_comma_comma_to_table_space_returns_region_rows_in_meta_order(self):
        # '!' (0x21) sorts before ',' (0x2C) in raw order; the meta comparator
        # still puts the empty start key first
        self.emu.create("t", [b"!", b"a,b", b"m"])
        self.emu.create("t1", [b"k"])
        self.emu.create("s")
        rows = self.region_rows(b"t")
        keys = [k for k, _ in rows]
        regs = self.emu.rest_json("/t/regions")["Region"]
        self.assertEqual(keys, [r["name"].encode() for r in regs])
        self.assertEqual([unb64(r["startKey"]) for r in regs], [b"", b"!", b"a,b", b"m"])
        self.assertEqual(len(keys), 4)
        self.assertEqual(sorted(keys), [keys[1], keys[0], keys[2], keys[3]])   # raw order differs

    def test_scan_from_bare_table_name_includes_table_state_row_first(self):
        self.emu.create("t1", [b"k"])
        rows = self.region_rows(b"t1", b"")
        self.assertEqual(rows[0][0], b"t1")
        self.assertEqual(rows[0][1][0][0], b"table:state")
        self.assertEqual(rows[0][1][0][2], b"\x08\x00")
        self.assertEqual(len(rows), 3)

    def test_region_row_columns_and_encodings(self):
        self.emu.create("ns_t", [b"k"]) if False else None
        self.emu.rest("POST", "/namespaces/ns1", {})
        self.emu.create("ns1:t", [b"k"])
        rows = self.region_rows(b"ns1:t")
        self.assertEqual(len(rows), 2)
        key, cells = rows[1]
        cols = {c: v for c, ts, v in cells}
        self.assertEqual([c for c, ts, v in cells],
                         [b"info:regioninfo", b"info:seqnumDuringOpen", b"info:server",
                          b"info:serverstartcode", b"info:sn", b"info:state"])
        rid = int(key.split(b",")[2].split(b".")[0])
        self.assertEqual(cols[b"info:regioninfo"], hand_regioninfo(rid, b"ns1", b"t", b"k", b""))
        self.assertEqual(key, b"ns1:t,k,%d.%s." % (rid, hashlib.md5(b"ns1:t,k,%d" % rid).hexdigest().encode()))
        host = cols[b"info:server"]
        self.assertRegex(host, rb"^rs[123]\.emu\.local:16020$")
        sc = struct.unpack(">q", cols[b"info:serverstartcode"])[0]
        self.assertEqual(cols[b"info:sn"], host.replace(b":", b",") + b",%d" % sc)
        self.assertEqual(len(cols[b"info:seqnumDuringOpen"]), 8)
        self.assertEqual(cols[b"info:state"], b"OPEN")

    def test_table_state_row_get_and_disabled_state(self):
        self.emu.create("t1")
        st, h, b = self.emu.rest("GET", "/hbase:meta/t1/table:state")
        self.assertEqual(st, 200)
        self.assertEqual(unb64(json.loads(b)["Row"][0]["Cell"][0]["$"]), b"\x08\x00")
        self.emu.rest("DELETE", "/t1/schema")  # gone
        self.assertEqual(self.emu.rest("GET", "/hbase:meta/t1/table:state")[0], 404)

    def test_a_table_whose_regions_are_being_assigned_is_enabling(self):
        # CreateTableProcedure: ENABLING while the regions are assigned, ENABLED after
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        self.emu.create("t1")
        st, h, b = self.emu.rest("GET", "/hbase:meta/t1/table:state")
        self.assertEqual(unb64(json.loads(b)["Row"][0]["Cell"][0]["$"]), b"\x08\x03")
        self.emu.control("POST", "/control/open", {"table": "t1"})
        st, h, b = self.emu.rest("GET", "/hbase:meta/t1/table:state")
        self.assertEqual(unb64(json.loads(b)["Row"][0]["Cell"][0]["$"]), b"\x08\x00")

    def test_split_parent_offline_hole_overlap_and_closed_show_in_meta(self):
        self.emu.create("t1", [b"g", b"p", b"w"])
        self.emu.control("POST", "/control/split", {"table": "t1", "key": b64(b"k"), "leave_parent": True})
        self.emu.control("POST", "/control/offline", {"table": "t1", "index": 0})
        self.emu.control("POST", "/control/hole", {"table": "t1", "index": 4})     # [w, '')
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 3})  # [p, w)
        self.emu.control("POST", "/control/overlap", {"table": "t1", "start": b64(b"h"), "end": b64(b"q")})
        rows = self.region_rows(b"t1")
        info = []
        for key, cells in rows:
            cols = {c: v for c, ts, v in cells}
            ri = cols[b"info:regioninfo"]
            info.append((key.split(b",")[1], ri[-6:], cols.get(b"info:state"),
                         b"info:server" in cols, b"info:splitA" in cols))
        # every region here opened once, so each keeps its last info:server
        # (RegionStateStore writes it on open only); info:state tells what is online
        self.assertEqual(info, [
            (b"", b"(\x010\x008\x00", b"OFFLINE", True, False),
            (b"g", b"(\x010\x018\x00", b"SPLIT", True, True),       # parent
            (b"g", b"(\x000\x008\x00", b"OPEN", True, False),       # daughter A (newer id)
            (b"h", b"(\x000\x008\x00", b"OPEN", True, False),       # overlap
            (b"k", b"(\x000\x008\x00", b"OPEN", True, False),
            (b"p", b"(\x000\x008\x00", b"CLOSED", True, False),     # unassigned (closed)
        ])

    def test_meta_regions_and_schema(self):
        d = self.emu.rest_json("/hbase:meta/regions")
        self.assertEqual(d["Region"][0]["name"], "hbase:meta,,1")
        self.assertEqual(self.emu.rest_json("/hbase%3Ameta/schema")["name"], "hbase:meta")
        self.assertEqual(self.emu.rest("GET", "/hbase:meta/exists")[0], 200)

    def test_meta_stateless_scan(self):
        self.emu.create("t1", [b"k"])
        d = self.emu.rest_json("/hbase:meta/*?startrow=t1,,&endrow=t1%20,,")
        self.assertEqual(len(d["Row"]), 2)

    def test_meta_is_not_writable(self):
        st, h, b = self.emu.rest("PUT", "/hbase:meta/x/info:a", {"Row": [{"Cell": [{"$": b64(b"x")}]}]})
        self.assertEqual(st, 403)


if __name__ == "__main__":
    unittest.main()
