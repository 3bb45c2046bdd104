"""Version modes (--cluster-version 1.x / 2.x / 3.x) and unknown RegionInfo fields
(NOTES.md, "Version modes")."""
import json
import sys

from emu_harness import EMU_DIR, EmuTestCase, b64, unb64

sys.path.insert(0, EMU_DIR)
from hbemu import gen  # noqa: E402

svc, tt, pb = gen.load()

from thrift.Thrift import TApplicationException  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import THttpClient  # noqa: E402


def region_keys(emu):
    m = emu.rest_json("/status/cluster")
    return [set(r) for n in m["LiveNodes"] for r in n["Region"]]


def meta_scan(emu, columns):
    return emu.rest("POST", "/hbase:meta/scanner",
                    {"startRow": b64(b"t1"), "endRow": b64(b"t1 ,,"), "maxVersions": 1,
                     "column": [b64(c) for c in columns]})


class Version2(EmuTestCase):
    def test_2x_status_regions_have_no_cp_requests_count(self):
        self.emu.create("t1", [b"m"])
        keys = region_keys(self.emu)
        self.assertTrue(keys)
        for k in keys:
            self.assertNotIn("cpRequestsCount", k)
            self.assertIn("memStoreSizeMB", k)
            self.assertIn("storefileIndexSizeKB", k)

    def test_2x_meta_has_the_table_state_row(self):
        self.emu.create("t1", [b"m"])
        st, _, _ = meta_scan(self.emu, [b"info:regioninfo", b"table:state"])
        self.assertEqual(st, 201)
        st, _, body = self.emu.rest("GET", "/hbase:meta/t1/table:state")
        self.assertEqual(st, 200)
        self.assertEqual(unb64(json.loads(body)["Row"][0]["Cell"][0]["$"]), b"\x08\x00")

    def test_unknown_regioninfo_field_is_appended_when_asked(self):
        self.emu.control("POST", "/control/regioninfo-extra", {"hex": "4203616263"})
        self.emu.create("t1", [])
        st, _, body = self.emu.rest("GET", "/hbase:meta/*?startrow=t1,,&endrow=t1%20,,"
                                    "&column=info:regioninfo")
        self.assertEqual(st, 200)
        v = unb64(json.loads(body)["Row"][0]["Cell"][0]["$"])
        self.assertTrue(v.endswith(b"\x42\x03abc"), v)
        # Google protobuf keeps the unknown field and still reads the known ones
        ri = pb.RegionInfo()
        ri.ParseFromString(v[4:])
        self.assertEqual(ri.table_name.qualifier, b"t1")


class Compression(EmuTestCase):
    def thrift(self):
        t = THttpClient.THttpClient("http://127.0.0.1:%d/" % self.emu.thrift_port)
        c = svc.Client(TBinaryProtocol.TBinaryProtocol(t))
        t.open()
        return c

    def test_lzma_in_the_attribute_map_reads_back_as_none_in_the_enum(self):
        c = self.thrift()
        fam = tt.TColumnFamilyDescriptor(name=b"cf", attributes={b"COMPRESSION": b"LZMA"})
        c.createTable(tt.TTableDescriptor(tableName=tt.TTableName(qualifier=b"t1"), columns=[fam]),
                      [])
        d = c.getTableDescriptor(tt.TTableName(qualifier=b"t1"))
        col = d.columns[0]
        self.assertEqual(col.compressionType, tt.TCompressionAlgorithm.NONE)
        self.assertEqual(col.attributes.get(b"COMPRESSION"), b"LZMA")
        self.assertEqual(self.emu.rest_json("/t1/schema")["ColumnSchema"][0]["COMPRESSION"], "LZMA")

    def test_the_enum_field_overrides_the_map_like_set_compression_type(self):
        c = self.thrift()
        fam = tt.TColumnFamilyDescriptor(name=b"cf", attributes={b"COMPRESSION": b"LZMA"},
                                         compressionType=tt.TCompressionAlgorithm.GZ)
        c.createTable(tt.TTableDescriptor(tableName=tt.TTableName(qualifier=b"t1"), columns=[fam]),
                      [])
        self.assertEqual(self.emu.rest_json("/t1/schema")["ColumnSchema"][0]["COMPRESSION"], "GZ")


class Compression24(EmuTestCase):
    emu_args = ("--cluster-version", "2.4.17")

    def test_lzma_and_brotli_are_unknown_before_2_5(self):
        for name in ("LZMA", "BROTLI"):
            st, d = self.emu.control("POST", "/control/create", {
                "table": "t1", "families": [{"name": "cf", "attrs": {"COMPRESSION": name}}],
                "attrs": {}, "splits": []})
            self.assertNotEqual(st, 201)
            self.assertIn("No enum constant", d["error"])
        self.emu.create("t2", families=[{"name": "cf", "attrs": {"COMPRESSION": "ZSTD"}}])


class Version1(EmuTestCase):
    emu_args = ("--cluster-version", "1.4.14")

    def test_1x_status_uses_the_1x_key_names(self):
        self.emu.create("t1", [b"m"])
        for k in region_keys(self.emu):
            self.assertNotIn("cpRequestsCount", k)
            self.assertNotIn("memStoreSizeMB", k)
            self.assertIn("memstoreSizeMB", k)
            self.assertIn("storefileIndexSizeMB", k)

    def test_1x_meta_has_no_table_family(self):
        self.emu.create("t1", [b"m"])
        st, _, body = meta_scan(self.emu, [b"info:regioninfo", b"table:state"])
        self.assertEqual(st, 503)
        self.assertIn(b"NoSuchColumnFamilyException", body)
        st, _, _ = self.emu.rest("GET", "/hbase:meta/*?startrow=t1&endrow=t1%20,,&column=table:state")
        self.assertEqual(st, 404)
        st, _, _ = self.emu.rest("GET", "/hbase:meta/t1")
        self.assertEqual(st, 404)
        # the info family alone works, and no table-state row is in the range
        st, _, body = self.emu.rest("GET", "/hbase:meta/*?startrow=t1&endrow=t1%20,,&column=info")
        self.assertEqual(st, 200)
        keys = [unb64(r["key"]) for r in json.loads(body)["Row"]]
        self.assertEqual(len(keys), 2)
        self.assertTrue(all(b"," in k for k in keys))

    def test_1x_regions_of_a_missing_table_is_200_and_empty(self):
        st, _, body = self.emu.rest("GET", "/nope/regions")
        self.assertEqual(st, 200)
        self.assertEqual(json.loads(body), {"name": "nope", "Region": []})

    def test_1x_thrift2_has_no_ddl(self):
        t = THttpClient.THttpClient("http://127.0.0.1:%d/" % self.emu.thrift_port)
        c = svc.Client(TBinaryProtocol.TBinaryProtocol(t))
        t.open()
        with self.assertRaises(TApplicationException) as cm:
            c.createTable(tt.TTableDescriptor(tableName=tt.TTableName(qualifier=b"t2"),
                                              columns=[tt.TColumnFamilyDescriptor(name=b"cf")]), [])
        self.assertEqual(cm.exception.type, TApplicationException.UNKNOWN_METHOD)
        self.assertEqual(cm.exception.message, "Invalid method name: 'createTable'")
        # data methods are there
        self.emu.create("t1", [b"m"])
        self.assertEqual(len(c.getAllRegionLocations(b"t1")), 2)


class Version3(EmuTestCase):
    emu_args = ("--cluster-version", "3.0.0")

    def test_3x_status_regions_have_cp_requests_count(self):
        self.emu.create("t1", [b"m"])
        for k in region_keys(self.emu):
            self.assertIn("cpRequestsCount", k)


class Gateway261(EmuTestCase):
    emu_args = ("--cluster-version", "2.6.1")

    def test_version_adds_the_hbase_version_and_revision_from_2_6_1(self):
        # seen: the 2.6.1 gateway's /version/rest names its jars' HBase version and revision;
        # the 2.5.8 gateway's (ClusterResources, the default 2.5.8) does not
        st, _, b = self.emu.rest("GET", "/version/rest")
        self.assertEqual(st, 200)
        v = json.loads(b)
        self.assertEqual(set(v), {"REST", "JVM", "OS", "Server", "Jersey", "Version", "Revision"})
        self.assertEqual(v["Version"], "2.6.1")
        self.assertRegex(v["Revision"], r"^[0-9a-f]{40}$")
