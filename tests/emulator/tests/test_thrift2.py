"""Thrift2 over HTTP, checked with Apache Thrift's generated Python client
(THttpClient + TBinaryProtocol) and with the docs/hbase-wire.md §8.5 worked byte examples."""
import os
import sys
import unittest

from emu_harness import EMU_DIR, Emu, EmuTestCase, b64, unb64

sys.path.insert(0, EMU_DIR)
from hbemu import gen  # noqa: E402

svc, tt, _pb = gen.load()

from thrift.Thrift import TApplicationException  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import THttpClient, TTransport  # noqa: E402


def client(port):
    t = THttpClient.THttpClient("http://127.0.0.1:%d/" % port)
    c = svc.Client(TBinaryProtocol.TBinaryProtocol(t))
    t.open()
    return c


def desc(name, ns=None, fams=("cf",)):
    return tt.TTableDescriptor(tableName=tt.TTableName(ns=ns, qualifier=name),
                               columns=[tt.TColumnFamilyDescriptor(name=f.encode()) for f in fams])


def hx(s):
    return bytes.fromhex(s.replace(" ", ""))


TABLE_EXISTS_CALL = (hx("80 01 00 01 00 00 00 0b") + b"tableExists" + hx("00 00 00 01 0c 00 01") +
                     hx("0b 00 01 00 00 00 07") + b"default" + hx("0b 00 02 00 00 00 02") + b"t1" +
                     hx("00 00"))
TABLE_EXISTS_TRUE = hx("80 01 00 02 00 00 00 0b") + b"tableExists" + hx("00 00 00 01 02 00 00 01 00")


class Thrift2(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.c = client(self.emu.thrift_port)

    def tearDown(self):
        self.c._iprot.trans.close()

    def raw(self, body):
        return self.emu.http(self.emu.thrift_port, "POST", "/", body,
                             {"Content-Type": "application/x-thrift"})

    def test_doc_8_5_table_exists_call_and_reply_bytes(self):
        self.emu.create("t1")
        st, h, b = self.raw(TABLE_EXISTS_CALL)
        self.assertEqual(st, 200)
        self.assertEqual(h["content-type"], "application/x-thrift")
        self.assertEqual(b, TABLE_EXISTS_TRUE)

    def test_doc_8_5_tioerror_reply_bytes_from_generated_code(self):
        buf = TTransport.TMemoryBuffer()
        p = TBinaryProtocol.TBinaryProtocol(buf)
        p.writeMessageBegin("createTable", 2, 5)
        svc.createTable_result(io=tt.TIOError(message="boom", canRetry=False)).write(p)
        p.writeMessageEnd()
        self.assertEqual(buf.getvalue(), hx("80 01 00 02 00 00 00 0b") + b"createTable" +
                         hx("00 00 00 05 0c 00 01 0b 00 01 00 00 00 04") + b"boom" + hx("02 00 02 00 00 00"))

    def test_create_existing_table_reply_is_tioerror_with_table_name(self):
        self.emu.create("t1")
        buf = TTransport.TMemoryBuffer()
        p = TBinaryProtocol.TBinaryProtocol(buf)
        p.writeMessageBegin("createTable", 1, 5)
        svc.createTable_args(desc=desc(b"t1"), splitKeys=[]).write(p)
        p.writeMessageEnd()
        st, h, b = self.raw(buf.getvalue())
        self.assertEqual(b, hx("80 01 00 02 00 00 00 0b") + b"createTable" +
                         hx("00 00 00 05 0c 00 01 0b 00 01 00 00 00 02") + b"t1" + hx("02 00 02 00 00 00"))

    def test_create_table_with_unsorted_splits_makes_sorted_regions(self):
        self.c.createTable(desc(b"t2"), [b"z", b"\x00", b"m"])
        regs = self.emu.rest_json("/t2/regions")["Region"]
        self.assertEqual([unb64(r["startKey"]) for r in regs], [b"", b"\x00", b"m", b"z"])
        self.assertTrue(self.c.tableExists(tt.TTableName(ns=b"default", qualifier=b"t2")))
        self.assertFalse(self.c.tableExists(tt.TTableName(qualifier=b"nope")))

    def test_create_existing_raises_tioerror_message_table_name_can_retry_false(self):
        self.c.createTable(desc(b"t2"), [])
        with self.assertRaises(tt.TIOError) as cm:
            self.c.createTable(desc(b"t2"), [])
        self.assertEqual((cm.exception.message, cm.exception.canRetry), ("t2", False))

    def test_empty_or_duplicate_split_key_is_internal_error(self):
        for keys in ([b"a", b""], [b"b", b"a", b"b"]):
            with self.assertRaises(TApplicationException) as cm:
                self.c.createTable(desc(b"t3"), keys)
            self.assertEqual(cm.exception.type, TApplicationException.INTERNAL_ERROR)
            self.assertEqual(cm.exception.message, "Internal error processing createTable")
        self.assertFalse(self.c.tableExists(tt.TTableName(qualifier=b"t3")))

    def test_descriptor_without_columns_is_internal_error(self):
        with self.assertRaises(TApplicationException) as cm:
            self.c.createTable(tt.TTableDescriptor(tableName=tt.TTableName(qualifier=b"t4")), [])
        self.assertEqual(cm.exception.type, 6)

    def test_unknown_method_gives_java_message(self):
        body = hx("80 01 00 01 00 00 00 05") + b"bogus" + hx("00 00 00 07 00")
        st, h, b = self.raw(body)
        self.assertEqual(st, 200)
        p = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(b))
        name, mtype, seqid = p.readMessageBegin()
        x = TApplicationException()
        x.read(p)
        self.assertEqual((name, mtype, seqid, x.type, x.message),
                         ("bogus", 3, 7, 1, "Invalid method name: 'bogus'"))

    def test_malformed_args_protocol_error_and_garbage_header_http_500(self):
        body = hx("80 01 00 01 00 00 00 0b") + b"tableExists" + hx("00 00 00 01 0c 00 01 0b 00 01 00 00 10 00")
        st, h, b = self.raw(body)
        self.assertEqual(st, 200)
        p = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(b))
        self.assertEqual(p.readMessageBegin()[1], 3)
        x = TApplicationException()
        x.read(p)
        self.assertEqual(x.type, TApplicationException.PROTOCOL_ERROR)
        self.assertEqual(self.raw(b"\x00\x01")[0], 500)

    def test_disable_delete_enable_lifecycle(self):
        tn = tt.TTableName(qualifier=b"t5")
        self.c.createTable(desc(b"t5"), [b"k"])
        with self.assertRaises(tt.TIOError):
            self.c.deleteTable(tn)             # must be disabled first
        self.assertTrue(self.c.isTableEnabled(tn))
        self.c.disableTable(tn)
        self.assertFalse(self.c.isTableEnabled(tn))
        # disabled: meta keeps each closed region's last server, so /regions still answers
        self.assertEqual(self.emu.rest("GET", "/t5/regions")[0], 200)
        self.assertFalse(self.c.isTableAvailable(tn))
        self.c.enableTable(tn)
        self.c.disableTable(tn)
        self.c.deleteTable(tn)
        self.assertFalse(self.c.tableExists(tn))
        with self.assertRaises(tt.TIOError):
            self.c.isTableEnabled(tn)

    def test_lifecycle_refusals_carry_hbase_messages(self):
        # as 2.6.1's Thrift2 server answers them (NOTES.md, "Differences real HBase showed")
        tn = tt.TTableName(qualifier=b"t8")
        self.c.createTable(desc(b"t8"), [b"k"])
        with self.assertRaises(tt.TIOError) as e:
            self.c.enableTable(tn)
        self.assertEqual((e.exception.message, e.exception.canRetry),
                         ("tableName=t8, state=ENABLED", False))
        with self.assertRaises(tt.TIOError) as e:
            self.c.truncateTable(tn, True)
        self.assertTrue(e.exception.message.startswith(
            "org.apache.hadoop.hbase.TableNotDisabledException: t8\n\tat "), e.exception.message)
        self.c.disableTable(tn)
        with self.assertRaises(tt.TIOError) as e:
            self.c.disableTable(tn)
        self.assertTrue(e.exception.message.startswith(
            "org.apache.hadoop.hbase.TableNotEnabledException: t8\n\tat "), e.exception.message)
        self.assertFalse(e.exception.canRetry)
        # truncate of the disabled table keeps the split point and ends enabled
        self.c.truncateTable(tn, True)
        self.assertTrue(self.c.isTableEnabled(tn))
        self.assertEqual([unb64(r["startKey"]) for r in
                          self.emu.rest_json("/t8/regions")["Region"]], [b"", b"k"])

    def test_a_table_being_enabled_is_neither_enabled_nor_disabled(self):
        # isTableEnabled is TableState.inStates(ENABLED): false for ENABLING as well
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        tn = tt.TTableName(qualifier=b"t7")
        self.c.createTable(desc(b"t7"), [b"k"])
        self.assertEqual((self.c.isTableEnabled(tn), self.c.isTableDisabled(tn)),
                         (False, False))
        self.emu.control("POST", "/control/open", {"table": "t7"})
        self.assertEqual((self.c.isTableEnabled(tn), self.c.isTableDisabled(tn)),
                         (True, False))

    def test_get_table_descriptor_fills_every_cf_field(self):
        self.c.createTable(tt.TTableDescriptor(
            tableName=tt.TTableName(qualifier=b"t6"), attributes={b"K": b"V"},
            columns=[tt.TColumnFamilyDescriptor(name=b"cf", maxVersions=4, inMemory=True)]), [])
        d = self.c.getTableDescriptor(tt.TTableName(qualifier=b"t6"))
        self.assertEqual(d.tableName.ns, b"default")
        self.assertEqual(d.attributes, {b"K": b"V"})
        cf = d.columns[0]
        for field in tt.TColumnFamilyDescriptor.thrift_spec[1:]:
            if field is not None:
                self.assertIsNotNone(getattr(cf, field[2]), field[2])
        self.assertEqual((cf.maxVersions, cf.inMemory, cf.bloomnFilterType), (4, True, 1))
        self.assertEqual(self.emu.rest_json("/t6/schema")["ColumnSchema"][0]["VERSIONS"], "4")

    def test_all_region_locations_region_id_zero_and_skips_parents(self):
        self.c.createTable(desc(b"t7"), [b"g"])
        self.emu.control("POST", "/control/split", {"table": "t7", "key": b64(b"c"), "leave_parent": True})
        locs = self.c.getAllRegionLocations(b"t7")
        self.assertEqual([(l.regionInfo.startKey, l.regionInfo.endKey) for l in locs],
                         [(b"", b"c"), (b"c", b"g"), (b"g", b"")])
        for l in locs:
            self.assertEqual(l.regionInfo.regionId, 0)
            self.assertEqual(l.regionInfo.tableName, b"t7")
            self.assertEqual((l.regionInfo.offline, l.regionInfo.split, l.regionInfo.replicaId), (False, False, 0))
            self.assertEqual(l.serverName.port, 16020)
            self.assertTrue(l.serverName.startCode >= 1700000000001)

    def test_namespace_table_and_missing_namespace(self):
        self.emu.rest("POST", "/namespaces/ns1", {})
        self.c.createTable(desc(b"t", ns=b"ns1"), [])
        self.assertTrue(self.c.tableExists(tt.TTableName(ns=b"ns1", qualifier=b"t")))
        self.assertEqual(len(self.c.getAllRegionLocations(b"ns1:t")), 1)
        with self.assertRaises(tt.TIOError) as cm:
            self.c.createTable(desc(b"t", ns=b"nons"), [])
        self.assertEqual(cm.exception.message, "nons")

    def test_race_makes_create_fail_with_tioerror_but_table_exists(self):
        self.emu.control("POST", "/control/race", {"table": "t8"})
        with self.assertRaises(tt.TIOError) as cm:
            self.c.createTable(desc(b"t8"), [b"k"])
        self.assertEqual(cm.exception.message, "t8")
        self.assertTrue(self.c.tableExists(tt.TTableName(qualifier=b"t8")))

    def test_read_only_knob_leaves_ddl_to_the_admin(self):
        # ThriftHBaseServiceHandler checks read-only mode in its data methods only (which
        # this server does not have), never in a DDL method
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.c.createTable(desc(b"t9"), [])
        self.assertTrue(self.c.tableExists(tt.TTableName(qualifier=b"t9")))
        self.c.disableTable(tt.TTableName(qualifier=b"t9"))
        self.c.deleteTable(tt.TTableName(qualifier=b"t9"))
        self.assertFalse(self.c.tableExists(tt.TTableName(qualifier=b"t9")))

    def test_legacy_17_ddl_is_a_noop_and_descriptor_missing_result(self):
        self.emu.control("POST", "/control/thrift-legacy-17", {"on": True})
        self.c.createTable(desc(b"t10"), [b"k"])
        self.assertFalse(self.c.tableExists(tt.TTableName(qualifier=b"t10")))
        self.emu.create("t11")
        with self.assertRaises(TApplicationException) as cm:
            self.c.getTableDescriptor(tt.TTableName(qualifier=b"t11"))
        self.assertEqual(cm.exception.type, TApplicationException.MISSING_RESULT)


class Thrift2Flags(unittest.TestCase):
    def test_legacy_17_flag(self):
        emu = Emu("--thrift-legacy-17")
        try:
            c = client(emu.thrift_port)
            c.createTable(desc(b"t"), [])
            self.assertFalse(c.tableExists(tt.TTableName(qualifier=b"t")))
            c._iprot.trans.close()
        finally:
            emu.stop()

    def test_gen_dir_is_populated_when_empty(self):
        import tempfile
        import shutil
        d = tempfile.mkdtemp()
        try:
            emu = Emu("--gen-dir", d)
            emu.stop()
            self.assertTrue(os.path.exists(os.path.join(d, "hbase", "THBaseService.py")))
            self.assertTrue(os.path.exists(os.path.join(d, "hbase_pb2.py")))
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()
