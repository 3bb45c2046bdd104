"""Writes the seed corpora of tests/fuzz/corpus/ from the bundled emulator's real replies plus
hand-written inputs. Run with /usr/bin/python3 and HBEMU_GEN_DIR set (as the tests are):
    HBEMU_GEN_DIR=build/emu_gen /usr/bin/python3 tests/fuzz/seeds.py"""
import base64
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import hbtest  # noqa: E402

sys.path.insert(0, os.environ["HBEMU_GEN_DIR"])
from hbase import THBaseService, ttypes  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TTransport  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")
PROTOBUF = "application/x-protobuf"


def put(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def get(url, accept="application/json"):
    req = urllib.request.Request(url, headers={"Accept": accept})
    with urllib.request.urlopen(req) as r:
        return r.read()


def request(url, method, body, ctype="application/json"):
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Accept": "application/json", "Content-Type": ctype})
    with urllib.request.urlopen(req) as r:
        return r.status, dict(r.headers), r.read()


def thrift_call(emu, send):
    buf = TTransport.TMemoryBuffer()
    client = THBaseService.Client(TBinaryProtocol.TBinaryProtocol(buf))
    send(client)
    call = buf.getvalue()
    req = urllib.request.Request(emu.thrift, data=call, method="POST",
                                 headers={"Content-Type": "application/x-thrift"})
    with urllib.request.urlopen(req) as r:
        return call, r.read()


def pb_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def pb_bytes(field, data):
    return pb_varint(field << 3 | 2) + pb_varint(len(data)) + data


def regioninfo(start, end, rid=1700000000000, ns=b"default", q=b"t", replica=0, offline=False):
    tn = pb_bytes(1, ns) + pb_bytes(2, q)
    m = pb_varint(1 << 3) + pb_varint(rid) + pb_bytes(2, tn) + pb_bytes(3, start) + pb_bytes(4, end)
    if offline:
        m += pb_varint(5 << 3) + b"\x01" + pb_varint(6 << 3) + b"\x01"
    if replica:
        m += pb_varint(7 << 3) + pb_varint(replica)
    return b"PBUF" + m


def main():
    emu = hbtest.Emulator()
    try:
        emu.create("t", splits=[b64 for b64 in ("Yg==", "bQ==", "eA==")], families=("cf", "info"))
        emu.create("u", splits=[base64.b64encode(b"\x00\xff\\").decode()])
        put("fuzz_rest_regions", "emulator-t", get(emu.rest + "/t/regions"))
        put("fuzz_rest_regions", "emulator-ns", get(emu.rest + "/u/regions"))
        # (fuzz_rest_tableinfo/hbase-2.6.1-pbt is a real gateway's answer, kept by hand)
        put("fuzz_rest_tableinfo", "emulator-t", get(emu.rest + "/t/regions", PROTOBUF))
        put("fuzz_rest_tableinfo", "emulator-ns", get(emu.rest + "/u/regions", PROTOBUF))
        # (fuzz_rest_scanpb/hbase-2.6.1-meta-pbt is a real gateway's answer, kept by hand)
        put("fuzz_rest_scanpb", "emulator-meta", get(
            emu.rest + "/hbase:meta/*?startrow=t,,&endrow=t%20,,&column=info:regioninfo"
            "&column=info:server", PROTOBUF))
        put("fuzz_pull_parser", "object", b'{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"],"b":{}}')
        put("fuzz_pull_parser", "string", b'"x\\ud83d\\ude00"')
        put("fuzz_pull_parser", "number", b"-0.5E+2")
        put("fuzz_rest_schema", "emulator-t", get(emu.rest + "/t/schema"))
        put("fuzz_rest_status", "emulator", get(emu.rest + "/status/cluster"))
        # (fuzz_rest_statuspb/hbase-2.6.1-status is a real gateway's answer, kept by hand;
        # regions-before-name is a Node written in another order than HBase's: regions
        # before its name, a counter between them, the name again at the end)
        put("fuzz_rest_statuspb", "emulator", get(emu.rest + "/status/cluster", PROTOBUF))
        put("fuzz_rest_version", "emulator-rest", get(emu.rest + "/version/rest"))
        put("fuzz_rest_version", "emulator-cluster", get(emu.rest + "/version/cluster"))
        put("fuzz_rest_tables", "emulator", get(emu.rest + "/"))
        scan = json.dumps({"batch": 100, "startRow": base64.b64encode(b"t,").decode(),
                           "endRow": base64.b64encode(b"t ,,").decode()}).encode()
        st, hdr, _ = request(emu.rest + "/hbase:meta/scanner", "PUT", scan)
        loc = hdr.get("Location") or hdr.get("location")
        put("fuzz_rest_cellset", "emulator-meta", get(loc))
        request(loc, "DELETE", None)
        # a scanner batch and a row GET as protobuf: one CellSet, no length in front
        st, hdr, _ = request(emu.rest + "/hbase:meta/scanner", "PUT", scan)
        loc = hdr.get("Location") or hdr.get("location")
        put("fuzz_rest_cellsetpb", "emulator-meta-batch", get(loc, PROTOBUF))
        request(loc, "DELETE", None)
        put("fuzz_rest_cellsetpb", "emulator-state-row", get(emu.rest + "/hbase:meta/t/table:state",
                                                              PROTOBUF))
        # Meta rows for fuzz_meta_row: key, column, value, ... each with a 2-byte length.
        def row(*items):
            return b"".join(len(x).to_bytes(2, "big") + x for x in items)
        put("fuzz_meta_row", "region", row(
            b"t,b,1700000000000.0123456789abcdef0123456789abcdef.",
            b"info:regioninfo", regioninfo(b"b", b"m"), b"info:server", b"h1:16020",
            b"info:state", b"OPEN", b"info:serverstartcode", b"\0\0\1\x8b\xcf\xe5h\0"))
        put("fuzz_meta_row", "old-format", row(
            b"t,,1700000000000", b"info:regioninfo", regioninfo(b"", b"", offline=True)))
        put("fuzz_meta_row", "state", row(b"t", b"table:state", b"\x08\x01"))
        put("fuzz_regioninfo", "first", regioninfo(b"", b"b"))
        put("fuzz_regioninfo", "replica", regioninfo(b"\x00\xff", b"", ns=b"ns1", q=b"u",
                                                     replica=1, offline=True))
        put("fuzz_regioninfo", "regionname", b"t,b\x00,1700000000000_0001.0123456789abcdef0123456789abcdef.")
        put("fuzz_regioninfo", "tablestate", b"\x08\x02")
        tn = ttypes.TTableName(ns=b"default", qualifier=b"t")
        for method, send in (
                ("tableExists", lambda c: c.send_tableExists(tn)),
                ("getAllRegionLocations", lambda c: c.send_getAllRegionLocations(b"t")),
                ("getTableDescriptor", lambda c: c.send_getTableDescriptor(tn)),
                ("deleteTable", lambda c: c.send_deleteTable(ttypes.TTableName(qualifier=b"nope")))):
            call, reply = thrift_call(emu, send)
            index = {"getAllRegionLocations": 0, "tableExists": 1, "getTableDescriptor": 2,
                     "createTable": 3, "deleteTable": 4}[method]
            put("fuzz_thrift_reply", method, bytes([index]) + reply)
        desc = ttypes.TTableDescriptor(
            tableName=ttypes.TTableName(ns=b"default", qualifier=b"v"),
            columns=[ttypes.TColumnFamilyDescriptor(name=b"cf", maxVersions=3,
                                                    compressionType=ttypes.TCompressionAlgorithm.SNAPPY,
                                                    attributes={b"X": b"y"})],
            attributes={b"MAX_FILESIZE": b"1073741824"})
        call, reply = thrift_call(emu, lambda c: c.send_createTable(desc, [b"1", b"2\xff"]))
        put("fuzz_thrift_call", "create", call)
        put("fuzz_thrift_reply", "createTable", bytes([3]) + reply)
    finally:
        emu.stop()
    for name, text in (("plain", "user123"), ("escapes", "a\\x00\\xFFb\\x5C"),
                       ("lower-escape", "\\xff\\x4"), ("utf8", "caf\u00e9 \U0001F600")):
        put("fuzz_key_binary", name, text)
    put("fuzz_splits_file", "sorted", b"\x01a\nb\\x00\nc\\xFF\n")
    put("fuzz_splits_file", "sample-crlf", b"\x00zz\r\naa\r\naa")
    for name, spec in (("hex-md5", b"hex{8} byte{8}\0abc\0def"),
                       ("partition", b"u64<20 *\0\0\0\0\0\0\0\0\x05\0\0\0\0\0\0\0\0\x09"),
                       ("hex-range", b"hex{1,16}\x000000\0ffff"),
                       ("classes", b"[a-c]{2} dec{3} 'x'\0b\0c"),
                       ("alternation", b"u8<4 hex{4}\0\x01\0\x02a")):
        put("fuzz_keyspace", name, spec)
    flags = ["hex", "decimal", "uniform", "range", "book_hex", "partition", "salt", "sampled",
             "splits_file", "first", "last", "start", "end", "salt_width", "sample_file",
             "generator", "sample_size", "seed", "start_time"]

    def spec(**kw):
        return b"".join(bytes([flags.index(k)]) + v.encode() + b"\0" for k, v in kw.items())
    put("fuzz_split_spec", "hex", spec(hex="10"))
    put("fuzz_split_spec", "hex-first-last", spec(hex="16", first="00", last="7fffffff"))
    put("fuzz_split_spec", "decimal", spec(decimal="7"))
    put("fuzz_split_spec", "uniform", spec(uniform="5", first="a", last="z\\xFF"))
    put("fuzz_split_spec", "range", spec(range="10", start="0000000000000000", end="ffffffffffffffff"))
    put("fuzz_split_spec", "book-hex", spec(book_hex="10", start="00000000", end="ffffffff"))
    put("fuzz_split_spec", "partition", spec(partition="20"))
    put("fuzz_split_spec", "salt", spec(salt="300", salt_width="2"))
    put("fuzz_split_spec", "sampled", spec(sampled="8", generator="md5", sample_size="500", seed="7"))
    put("fuzz_split_spec", "sampled-partition", spec(sampled="4", generator="partition:9", sample_size="99"))
    put("fuzz_config", "default", b"\0# comment\n[default]\nrest = http://h:8080\ntimeout = 5\n"
        b"insecure = true\n")
    put("fuzz_config", "profile", b"\1rest=http://a\n[profile prod]\nthrift = https://t:9090/\n"
        b"retries = 3\ncert=/c\nkey = /k\noutput = json\ncolor = never\n; end\n")
    put("fuzz_config", "password", b"\0[default]\npassword = x\n")


if __name__ == "__main__":
    main()
