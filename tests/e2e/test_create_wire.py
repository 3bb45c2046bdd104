"""The Thrift2 bytes hbtab sends, decoded by Apache Thrift's own Python runtime and the classes
generated from hbase.thrift ($HBEMU_GEN_DIR): every field is compared."""
import http.server
import sys
import urllib.request

import hbtest
from lib import fakehttp
from lib.createbase import BINARY_KEYS, CreateTestBase

sys.path.insert(0, hbtest.GEN_DIR)
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.Thrift import TMessageType  # noqa: E402
from thrift.transport import TTransport  # noqa: E402
from hbase import THBaseService  # noqa: E402
from hbase.ttypes import (TBloomFilterType, TCompressionAlgorithm,  # noqa: E402
                          TDataBlockEncoding, TKeepDeletedCells)


class Recorder(http.server.BaseHTTPRequestHandler):
    """Saves each POST body and forwards it to the emulator's Thrift2 server."""
    bodies = []
    headers_seen = []
    upstream = None

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n)
        Recorder.bodies.append(body)
        Recorder.headers_seen.append(dict(self.headers))
        req = urllib.request.Request(Recorder.upstream, data=body, method="POST",
                                     headers={"Content-Type": "application/x-thrift"})
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = r.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-thrift")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def decode_call(body):
    t = TTransport.TMemoryBuffer(body)
    p = TBinaryProtocol.TBinaryProtocol(t, strictRead=True)
    name, mtype, seqid = p.readMessageBegin()
    args = getattr(THBaseService, name + "_args")()
    args.read(p)
    p.readMessageEnd()
    return name, mtype, seqid, args, t.cstringio_buf.tell() == len(body)


class CreateWireTest(CreateTestBase):
    def setUp(self):
        super().setUp()
        Recorder.bodies = []
        Recorder.headers_seen = []
        Recorder.upstream = self.emu.thrift
        self.server = fakehttp.Server(Recorder)
        self.proxy = self.server.url + "/"

    def tearDown(self):
        self.server.stop()
        super().tearDown()

    def test_create__thrift2_request_decodes_with_apache_thrift_runtime(self):
        r = hbtest.run(["--rest", self.emu.rest, "--thrift", self.proxy, "--no-progress",
                        "create", "t1", "--splits-file", self.splits_path,
                        "--family", "info:VERSIONS=3,MIN_VERSIONS=1,TTL=FOREVER,COMPRESSION=snappy,"
                                    "BLOOMFILTER=rowcol,DATA_BLOCK_ENCODING=fast_diff,"
                                    "BLOCKSIZE=131072,IN_MEMORY=true,KEEP_DELETED_CELLS=ttl,"
                                    "BLOCKCACHE=false,REPLICATION_SCOPE=1,X_CUSTOM=a'b",
                        "--family", "d",
                        "--attr", "MAX_FILESIZE=1073741824", "--attr", "NORMALIZATION_ENABLED=true",
                        "-o", "json"])
        self.assertOk(r)
        self.assertTrue(r.json()["verified"])
        self.assertEqual(len(Recorder.bodies), 1)
        h = {k.lower(): v for k, v in Recorder.headers_seen[0].items()}
        self.assertEqual(h["content-type"], "application/x-thrift")
        self.assertEqual(h["accept"], "application/x-thrift")
        name, mtype, seqid, args, consumed = decode_call(Recorder.bodies[0])
        self.assertEqual(name, "createTable")
        self.assertEqual(mtype, TMessageType.CALL)
        self.assertTrue(consumed, "trailing bytes after the call")
        self.assertGreater(seqid, 0)
        d = args.desc
        self.assertEqual(d.tableName.ns, b"default")
        self.assertEqual(d.tableName.qualifier, b"t1")
        self.assertEqual(d.attributes, {b"MAX_FILESIZE": b"1073741824",
                                        b"NORMALIZATION_ENABLED": b"true"})
        self.assertIsNone(d.durability)
        self.assertEqual([c.name for c in d.columns], [b"info", b"d"])
        c = d.columns[0]
        self.assertEqual(c.maxVersions, 3)
        self.assertEqual(c.minVersions, 1)
        self.assertEqual(c.timeToLive, 2147483647)
        self.assertEqual(c.compressionType, TCompressionAlgorithm.SNAPPY)
        self.assertEqual(c.bloomnFilterType, TBloomFilterType.ROWCOL)
        self.assertEqual(c.dataBlockEncoding, TDataBlockEncoding.FAST_DIFF)
        self.assertEqual(c.blockSize, 131072)
        self.assertIs(c.inMemory, True)
        self.assertEqual(c.keepDeletedCells, TKeepDeletedCells.TTL)
        self.assertIs(c.blockCacheEnabled, False)
        self.assertEqual(c.scope, 1)
        self.assertEqual(c.attributes, {b"X_CUSTOM": b"a'b"})
        for f in ("configuration", "dfsReplication", "cacheBloomsOnWrite", "cacheDataOnWrite",
                  "cacheIndexesOnWrite", "compressTags", "evictBlocksOnClose"):
            self.assertIsNone(getattr(c, f), f)
        c = d.columns[1]
        self.assertEqual(c.name, b"d")
        for f in ("attributes", "maxVersions", "compressionType", "inMemory", "timeToLive"):
            self.assertIsNone(getattr(c, f), f)
        self.assertEqual(args.splitKeys, BINARY_KEYS)

    def test_create__single_region_namespace_table_has_no_split_keys(self):
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns9", data=b"{}",
                                     method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=30).read()
        r = hbtest.run(["--rest", self.emu.rest, "--thrift", self.proxy, "--no-progress",
                        "create", "ns9:t", "--via", "thrift2"])
        self.assertOk(r)
        name, _, _, args, _ = decode_call(Recorder.bodies[0])
        self.assertEqual(name, "createTable")
        self.assertEqual(args.desc.tableName.ns, b"ns9")
        self.assertEqual(args.desc.tableName.qualifier, b"t")
        self.assertEqual([c.name for c in args.desc.columns], [b"cf"])
        self.assertIsNone(args.desc.attributes)
        self.assertIsNone(args.splitKeys)


if __name__ == "__main__":
    hbtest.main()
