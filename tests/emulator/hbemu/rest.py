"""The REST (Stargate) gateway: resources, status codes and JSON shapes as
described in docs/hbase-wire.md sections 0-6."""
import base64
import bisect
import json
import random
import struct
import threading
import urllib.parse

from . import filters
from . import state as st
from .httpbase import Handler, Response
from .meta import META_NAME, META_REGION_NAME

B64 = st.b64
LONG_MAX = st.LONG_MAX
INT_MAX = 2147483647

PLAIN = "text/plain"
JSON_T = "application/json"
PROTOBUF_T = "application/x-protobuf"


# Protobuf wire format for the REST models (TableInfoMessage.proto), written by hand as
# HBase's generated code writes it: fields in number order, proto2 optionals present when set.
def pb_varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def pb_bytes(field, data):
    return pb_varint(field << 3 | 2) + pb_varint(len(data)) + data


def pb_int_field(field, v):
    return pb_varint(field << 3) + pb_varint(v)


# StorageClusterStatus.Region's counters after its name, by field number (2.6.1's
# StorageClusterStatusMessage.proto); 1.x spells 5 and 6 memstoreSizeMB, storefileIndexSizeMB.
STATUS_REGION_FIELDS = ((2, ("stores",)), (3, ("storefiles",)), (4, ("storefileSizeMB",)),
                        (5, ("memStoreSizeMB", "memstoreSizeMB")),
                        (6, ("storefileIndexSizeKB", "storefileIndexSizeMB")),
                        (7, ("readRequestsCount",)), (8, ("writeRequestsCount",)),
                        (9, ("rootIndexSizeKB",)), (10, ("totalStaticIndexSizeKB",)),
                        (11, ("totalStaticBloomSizeKB",)), (12, ("totalCompactingKVs",)),
                        (13, ("currentCompactedKVs",)))


def pb_status(m):
    """StorageClusterStatusModel.createProtobufOutput: liveNodes = 1 (Node {name = 1;
    startCode = 2; requests = 3; heapSizeMB = 4; maxHeapSizeMB = 5; regions = 6}), deadNodes
    = 2, regions = 3, requests = 4, averageLoad = 5 (double); every field is set, so every
    one is written, in number order (the model's JSON dict m as status_model makes it)."""
    out = []
    for n in m["LiveNodes"]:
        node = [pb_bytes(1, n["name"].encode("utf-8")), pb_int_field(2, n["startCode"]),
                pb_int_field(3, n["requests"]), pb_int_field(4, n["heapSizeMB"]),
                pb_int_field(5, n["maxHeapSizeMB"])]
        for r in n["Region"]:
            reg = [pb_bytes(1, base64.b64decode(r["name"]))]
            for field, keys in STATUS_REGION_FIELDS:
                reg.append(pb_int_field(field, next((r[k] for k in keys if k in r), 0)))
            node.append(pb_bytes(6, b"".join(reg)))
        out.append(pb_bytes(1, b"".join(node)))
    out.extend(pb_bytes(2, d.encode("utf-8")) for d in m["DeadNodes"])
    out.append(pb_int_field(3, m["regions"]) + pb_int_field(4, m["requests"])
               + b"\x29" + struct.pack("<d", m["averageLoad"]))
    return b"".join(out)


def pb_table_info(name, entries):
    """TableInfo {name = 1; repeated Region regions = 2} with Region {name = 1; startKey = 2;
    endKey = 3; id = 4; location = 5}; entries are (id, start, end, location, name)."""
    parts = [pb_bytes(1, name.encode("utf-8"))]
    for rid, sk, ek, loc, rname in entries:
        reg = (pb_bytes(1, rname.encode("utf-8")) + pb_bytes(2, sk) + pb_bytes(3, ek)
               + b"\x20" + pb_varint(rid) + pb_bytes(5, loc.encode("utf-8")))
        parts.append(pb_bytes(2, reg))
    return b"".join(parts)
OCTET = "application/octet-stream"
NO_CACHE = ("Cache-Control", "no-cache")

VERSION_JSON = {"REST": "0.0.3", "JVM": "Oracle Corporation 1.8.0_392-25.392-b08",
                "OS": "Linux 5.15.0-emu amd64", "Server": "jetty/9.4.53.v20231009",
                "Jersey": "2.39.1"}


def java_trace(java_cls, msg, where="rest.ResourceBase.processException"):
    return ("%s: %s\r\n\tat org.apache.hadoop.hbase.%s(ResourceBase.java:68)\r\n"
            "\tat org.apache.hadoop.hbase.rest.RESTServer.main(RESTServer.java:342)\r\n"
            % (java_cls, msg, where))


def err(status, word, exc=None):
    body = word + "\r\n"
    if exc is not None:
        body += java_trace(exc.java, exc.message)
    return Response(status, body.encode("utf-8"), PLAIN)


def replication(t):
    """The table's REGION_REPLICATION (1 when unset or not a number)."""
    try:
        return max(1, int(t.attrs.get("REGION_REPLICATION", "1")))
    except ValueError:
        return 1


def jersey_failure(path):
    """What a client gets when a streamed answer fails before its first byte: the
    container's own error page (Jetty's JSON form), 500, and the connection closed."""
    body = ('{\n"servlet":"org.apache.hbase.thirdparty.org.glassfish.jersey.servlet.'
            'ServletContainer-1b2c3d4e",\n"message":"Request failed.",\n"url":%s,\n'
            '"status":"500"\n}' % json.dumps(path.split("?", 1)[0]))
    return Response(500, body.encode("utf-8"), "application/json",
                    [("Cache-Control", "must-revalidate,no-cache,no-store"),
                     ("Connection", "close")])


def not_found(exc=None):
    return err(404, "Not found", exc)


def bad_request(reason=None, exc=None):
    return err(400, "Bad request" + (": " + reason if reason else ""), exc)


def forbidden(exc=None):
    return err(403, "Forbidden", exc)


def unavailable(exc=None):
    return err(503, "Unavailable", exc)


def process_exception(e):
    """ResourceBase.processException's status map."""
    if isinstance(e, st.ReadOnly):
        return forbidden()
    if isinstance(e, (st.TableNotFound, st.NoSuchFamily)):
        return not_found(e)
    if isinstance(e, st.IllegalArgument):
        return bad_request(exc=e)
    return unavailable(e)


META_FAMILIES = {1: (b"info",), 2: (b"info", b"table", b"rep_barrier")}


def meta_family_error(major, kind, fams):
    """NoSuchColumnFamilyException for a family hbase:meta does not have in this
    major version (1.x meta has only `info`), else None."""
    if kind != "meta":
        return None
    known = META_FAMILIES.get(major, META_FAMILIES[2])
    for f in fams:
        if f not in known:
            return st.NoSuchFamily("Column family %s does not exist in region hbase:meta,,1.1588230740 "
                                   "in table 'hbase:meta'" % f.decode("utf-8", "replace"))
    return None


def region_bytes(t, r):
    """The bytes of the cells of t's rows in region r: a KeyValue's row, family, qualifier
    and value and its fixed 20 bytes (lengths, timestamp, type), as a memstore counts
    them before its per-cell overhead."""
    lo = bisect.bisect_left(t.keys, r.start)
    hi = bisect.bisect_left(t.keys, r.end) if r.end else len(t.keys)
    n = 0
    for k in t.keys[lo:hi]:
        for (f, q), vs in t.data.get(k, {}).items():
            n += sum(len(k) + len(f) + len(q) + len(v) + 20 for _, v in vs)
    return n


def size_mb(n):
    """HRegionServer.roundSize: 0 for nothing, 1 for anything under 1 MiB, else whole MiB."""
    return 0 if not n else 1 if n < (1 << 20) else n >> 20


def region_load(major, name, stores, storefiles, reads, writes, memstore_mb=0):
    """One Region of StorageClusterStatusModel.Node in the JSON key names of the
    server's major version (NOTES.md, "Version modes"); memstore_mb: its rows' size as the
    region server reports it (size_mb; nothing is flushed: store files stay 0)."""
    d = {"name": B64(name), "stores": stores, "storefiles": storefiles, "storefileSizeMB": 0}
    if major == 1:
        d.update({"memstoreSizeMB": memstore_mb, "storefileIndexSizeMB": 0})
    else:
        d.update({"memStoreSizeMB": memstore_mb, "storefileIndexSizeKB": 0})
    d["readRequestsCount"] = reads
    if major >= 3:
        d["cpRequestsCount"] = 0
    d.update({"writeRequestsCount": writes, "rootIndexSizeKB": 0, "totalStaticIndexSizeKB": 0,
              "totalStaticBloomSizeKB": 0, "totalCompactingKVs": 0, "currentCompactedKVs": 0})
    return d


def java_urldecode(s):
    """java.net.URLDecoder.decode(s, "UTF-8") followed by Bytes.toBytes:
    '+' is a space, bad UTF-8 becomes U+FFFD, result is UTF-8 bytes."""
    return urllib.parse.unquote_plus(s, encoding="utf-8", errors="replace").encode("utf-8")


def path_decode(s):
    return urllib.parse.unquote(s, encoding="utf-8", errors="replace")


def jdumps(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def cellset_json(rows):
    """rows: [(key, [(fam, qual, ts, val)])] -> CellSet JSON bytes."""
    parts = []
    for key, cells in rows:
        cs = ",".join('{"column":"%s","timestamp":%d,"$":"%s"}'
                      % (B64(f + b":" + q), ts, B64(v)) for f, q, ts, v in cells)
        parts.append('{"key":"%s","Cell":[%s]}' % (B64(key), cs))
    return ('{"Row":[%s]}' % ",".join(parts)).encode("ascii")


def pb_cellset(rows):
    """rows as for cellset_json -> a CellSet message (CellSetMessage.proto, CellMessage.proto):
    Row {key = 1; repeated Cell values = 2}, Cell {column = 2; timestamp = 3; data = 4}."""
    out = []
    for key, cells in rows:
        row = pb_bytes(1, key) + b"".join(
            pb_bytes(2, pb_bytes(2, f + b":" + q) + b"\x18" + pb_varint(ts) + pb_bytes(4, v))
            for f, q, ts, v in cells)
        out.append(pb_bytes(1, row))
    return b"".join(out)


def pb_scan_stream(rows, limit, fetch_size):
    """ProtobufStreamingOutput.write: CellSet chunks of at most fetch_size rows, each behind
    Bytes.toBytes((short) length), a 16-bit big-endian length that wraps at 65,536."""
    def chunk(batch):
        m = pb_cellset(batch)
        return (len(m) & 0xFFFF).to_bytes(2, "big") + m
    if limit < fetch_size:
        return chunk(rows[:limit])
    out, i = [], 0
    while i < min(limit, len(rows)):
        n = min(fetch_size, limit - i)
        out.append(chunk(rows[i:i + n]))
        i += n
    return b"".join(out)


class RowSpec(object):
    """RowSpec.java: row[,end][/col[,col...]][/ts[,ts2]] plus ?v=."""

    def __init__(self, rest, query=None):
        self.row = b""
        self.end = None
        self.glob = False
        self.cols = []           # list of (fam, qual or None)
        self.ts_exact = None
        self.ts_point = None
        self.tmin, self.tmax = 0, LONG_MAX
        self.maxv = 1
        segs = rest.split("/")
        rseg = segs[0]
        if "," in rseg:
            a, b = rseg.split(",", 1)
            self.row, self.end = java_urldecode(a), java_urldecode(b)
        else:
            self.row = java_urldecode(rseg)
            if self.row.endswith(b"*"):
                self.glob = True
                self.row = self.row[:-1]
                self.end = self.row + b"\xff"
        if len(segs) > 1 and segs[1]:
            for c in segs[1].split(","):
                if not c:
                    continue
                cb = java_urldecode(c)
                if b":" in cb:
                    f, q = cb.split(b":", 1)
                    self.cols.append((f, q))
                else:
                    self.cols.append((cb, None))
        if len(segs) > 2 and segs[2]:
            ts = segs[2]
            if "," in ts:
                a, b = ts.split(",", 1)
                self.tmin, self.tmax = int(a), int(b)
            else:
                # RowSpec: a single timestamp is the (exclusive) end time of
                # the Get's range [0, ts); deletes use it as "<= ts"
                self.ts_point = int(ts)
                self.tmax = self.ts_point
        if query:
            for key in ("v", "m"):
                if key in query:
                    try:
                        self.maxv = int(query[key][0])
                    except ValueError:
                        pass


class Scanner(object):
    def __init__(self, source, cols, maxv, tmin, tmax, batch, filt, counter, region_of=None):
        self.source = source          # iterator of (key, rowdict)
        self.region_of = region_of    # key -> region, for per-region filter instances
        self.cur = None               # the current region's filter instance
        self.cur_region = None
        self.region_done = False
        self.cols = cols
        self.maxv = maxv
        self.tmin, self.tmax = tmin, tmax
        self.batch = batch
        self.filt = filt              # a factory of filter instances (hbemu.filters), or None
        self.counter = counter
        self.pending = None           # (key, [cells]) left over from a split row
        self.done = False
        self.lock = threading.Lock()
        self.fail = None              # "missing" (table), "empty" (family): the first GET fails
        self.table = None             # the table scanned, checked again at every GET

    def next_row(self):
        while True:
            try:
                key, row = next(self.source)
            except StopIteration:
                self.done = True
                return None
            if self.filt is not None:
                # each region scanner gets its own filter instance; one that says
                # filterAllRemaining ends its region only, the scan goes on in the next
                reg = self.region_of(key) if self.region_of else None
                if self.cur is None or reg is not self.cur_region:
                    self.cur = self.filt()
                    self.cur_region = reg
                    self.region_done = False
                if self.region_done or self.cur.filter_all_remaining():
                    self.region_done = True
                    continue
            cells = st.State.select_cells(row, self.cols, None, self.tmin, self.tmax, self.maxv)
            if self.counter:
                self.counter(key)
            if not cells:
                continue
            if self.filt is not None:
                cells = filters.apply(self.cur, key, cells)
                if cells is None:
                    continue
            return key, cells

    def fetch(self, max_cells, max_rows):
        out = []
        n = 0
        while n < max_cells and len(out) < max_rows:
            if self.pending is not None:
                key, cells = self.pending
                self.pending = None
            else:
                if self.done:
                    break
                r = self.next_row()
                if r is None:
                    break
                key, cells = r
            room = max_cells - n
            if len(cells) > room:
                self.pending = (key, cells[room:])
                cells = cells[:room]
            out.append((key, cells))
            n += len(cells)
        return out


class RestHandler(Handler):
    server_kind = "rest"
    gzip_responses = True
    extra_headers = (("X-Content-Type-Options", "nosniff"),
                     ("X-XSS-Protection", "1; mode=block"),
                     ("X-Frame-Options", "DENY"))

    # ---------------------------------------------------------------- utils
    @property
    def emu(self):
        return self.ctx

    @property
    def state(self):
        return self.ctx.state

    def accept(self, plain_first=True, default=None):
        """Pick the response type: 'plain', 'json', 'xml', 'protobuf', 'octet'."""
        a = (self.headers.get("Accept") or "").strip()
        if not a or a == "*/*":
            return default or ("plain" if plain_first else "json")
        best = []
        for part in a.split(","):
            bits = part.strip().split(";")
            mt = bits[0].strip().lower()
            q = 1.0
            for b in bits[1:]:
                b = b.strip()
                if b.startswith("q="):
                    try:
                        q = float(b[2:])
                    except ValueError:
                        pass
            best.append((q, mt))
        best.sort(key=lambda x: -x[0])
        for q, mt in best:
            if q <= 0:
                continue
            if mt == "application/json":
                return "json"
            if mt == "text/plain":
                return "plain" if plain_first else "json"
            if mt in ("text/xml", "application/xml"):
                return "xml"
            if mt in ("application/x-protobuf", "application/protobuf"):
                # a gateway or proxy set (control /protobuf) to answer JSON or to refuse
                return {"json": "json", "406": "none"}.get(self.state.protobuf_answer,
                                                           "protobuf")
            if mt == "application/octet-stream":
                return "octet"
            if mt in ("*/*", "application/*", "text/*"):
                return default or ("plain" if plain_first else "json")
        return "none"

    def base_url(self):
        scheme = "https" if self.emu.tls else "http"
        return "%s://127.0.0.1:%d" % (scheme, self.emu.rest_port)

    def not_acceptable(self):
        return Response(406, b"Not Acceptable\r\n", PLAIN)

    def pb_type(self):
        """The protobuf type answered: the one asked for (Constants.MIMETYPE_PROTOBUF or
        MIMETYPE_PROTOBUF_IETF)."""
        return "application/protobuf" if "application/protobuf" in (
            self.headers.get("Accept") or "") else PROTOBUF_T

    # ------------------------------------------------------------- dispatch
    def dispatch(self, method, path, body):
        spnego = self.emu.spnego
        if spnego is None:
            return self.dispatch_authorized(method, path, body)
        status, hdrs, reason = spnego.check(self.headers, self.emu.tls)
        if status is not None:
            return Response(status, ("HTTP ERROR %d %s\r\n" % (status, reason)).encode(),
                            PLAIN, hdrs)
        resp = self.dispatch_authorized(method, path, body)
        resp.headers.extend(hdrs)
        return resp

    def dispatch_authorized(self, method, path, body):
        if self.emu.basic_auth:
            want = "Basic " + base64.b64encode(self.emu.basic_auth.encode("utf-8")).decode("ascii")
            if (self.headers.get("Authorization") or "").strip() != want:
                return Response(401, b"Unauthorized\r\n", PLAIN,
                                [("WWW-Authenticate", 'Basic realm="hbase"')])
        if method == "OPTIONS":
            return Response(200, b"", None, [("Allow", "GET, PUT, POST, DELETE, OPTIONS, HEAD")])
        raw_path, _, qs = path.partition("?")
        query = urllib.parse.parse_qs(qs, keep_blank_values=True)
        self.query = query
        self.body = body
        segs = raw_path.split("/")[1:]
        if segs == [""] or not segs:
            return self.r_root(method)
        s0 = segs[0]
        if s0 == "version":
            if len(segs) == 1 or segs[1:] == ["rest"] or segs[1:] == [""]:
                return self.r_version(method)
            if segs[1:] == ["cluster"]:
                return self.r_cluster_version(method)
            return not_found()
        if s0 == "status" and len(segs) >= 2 and segs[1] == "cluster":
            return self.r_status(method)
        if s0 == "namespaces":
            return self.r_namespaces(method, [path_decode(s) for s in segs[1:] if s != ""])
        tname = path_decode(s0)
        if len(segs) == 1 or (len(segs) == 2 and segs[1] == ""):
            return not_found()
        rest = "/".join(segs[1:])
        sub = segs[1]
        if len(segs) == 2 and sub == "schema":
            return self.r_schema(method, tname)
        if len(segs) == 2 and sub == "regions":
            return self.r_regions(method, tname)
        if len(segs) == 2 and sub == "exists":
            return self.r_exists(method, tname)
        if sub == "scanner":
            if len(segs) == 2:
                return self.r_scanner_create(method, tname, s0)
            if len(segs) == 3:
                return self.r_scanner(method, tname, segs[2])
        if sub == "multiget" and method == "GET":
            return self.r_multiget(tname, segs[2] if len(segs) > 2 else "")
        if rest.endswith("*") and method == "GET":
            return self.r_table_scan(tname, rest)
        return self.r_row(method, tname, rest)

    # ------------------------------------------------------------ cluster
    def r_root(self, method):
        if method not in ("GET", "HEAD"):
            return Response(405, b"", None)
        with self.state.lock:
            names = [t.name for t in self.state.sorted_tables()]
        a = self.accept()
        if a == "plain":
            return Response(200, "".join(n + "\n" for n in names), PLAIN, [NO_CACHE])
        if a == "json":
            return Response(200, jdumps({"table": [{"name": n} for n in names]}), JSON_T, [NO_CACHE])
        return self.not_acceptable()

    def r_version(self, method):
        a = self.accept()
        v = dict(VERSION_JSON)
        if self.state.release() >= (2, 6, 1):
            # the 2.6.1 gateway's VersionModel also carries the HBase version and revision of
            # its jars (seen; the 2.5.8 gateway's has neither: NOTES.md)
            v["Version"] = self.state.cluster_version
            v["Revision"] = "0" * 40
        if a == "plain":
            txt = "rest %s [JVM: %s] [OS: %s] [Server: %s] [Jersey: %s]\n" % (
                v["REST"], v["JVM"], v["OS"], v["Server"], v["Jersey"])
            return Response(200, txt, PLAIN, [NO_CACHE])
        if a == "json":
            return Response(200, jdumps(v), JSON_T, [NO_CACHE])
        return self.not_acceptable()

    def r_cluster_version(self, method):
        a = self.accept()
        cv = self.state.cluster_version
        if a == "plain":
            return Response(200, cv, PLAIN, [NO_CACHE])
        if a == "json":
            # StorageClusterVersionModel: one attribute named "Version".
            return Response(200, jdumps({"Version": cv}), JSON_T, [NO_CACHE])
        return self.not_acceptable()

    def status_model(self):
        s = self.state
        with s.lock:
            per = {i: [] for i, sv in enumerate(s.servers) if sv["alive"]}
            meta_srv = min(per) if per else None
            if meta_srv is not None:
                per[meta_srv].append(region_load(s.major, META_REGION_NAME, 3, 3, s.meta_reads,
                                                 s.meta_writes))
            for t in s.sorted_tables():
                nf = len(t.families)
                for r in t.regions:
                    if not r.in_meta and False:
                        continue
                    loc = s.server_location(r)
                    if loc is None:
                        continue
                    per[r.server].append(region_load(s.major, r.name, nf, 0, r.reads, r.writes,
                                                     size_mb(region_bytes(t, r))))
            live, dead = [], []
            total_regions = 0
            total_req = 0
            for i, sv in enumerate(s.servers):
                if not sv["alive"]:
                    dead.append("%s,%d,%d" % (sv["host"], sv["port"], sv["startcode"]))
                    continue
                regs = per[i]
                req = sum(x["readRequestsCount"] + x["writeRequestsCount"] for x in regs)
                total_req += req
                total_regions += len(regs)
                live.append({"name": "%s:%d" % (sv["host"], sv["port"]), "startCode": sv["startcode"],
                             "requests": req, "heapSizeMB": 128, "maxHeapSizeMB": 1024, "Region": regs})
            avg = float(total_regions) / len(live) if live else 0.0
            return {"regions": total_regions, "requests": total_req, "averageLoad": avg,
                    "LiveNodes": live, "DeadNodes": dead}

    def r_status(self, method):
        a = self.accept()
        m = self.status_model()
        if a == "json":
            return Response(200, jdumps(m), JSON_T, [NO_CACHE])
        if a == "protobuf":
            # StorageClusterStatusResource produces protobuf too, in the type asked for
            pb_t = "application/protobuf" if "application/protobuf" in (
                self.headers.get("Accept") or "") else PROTOBUF_T
            return Response(200, pb_status(m), pb_t, [NO_CACHE])
        if a == "plain":
            lines = ["%d live servers, %d dead servers, %.4f average load" % (
                len(m["LiveNodes"]), len(m["DeadNodes"]), m["averageLoad"]), "",
                "%d live servers" % len(m["LiveNodes"])]
            for n in m["LiveNodes"]:
                lines.append("    %s %d" % (n["name"], n["startCode"]))
                lines.append("        requests=%d, regions=%d" % (n["requests"], len(n["Region"])))
                lines.append("")
                for r in n["Region"]:
                    lines.append("        " + base64.b64decode(r["name"]).decode("utf-8", "replace"))
                    lines.append("            stores=%d" % r["stores"])
            lines.append("")
            lines.append("%d dead servers" % len(m["DeadNodes"]))
            for d in m["DeadNodes"]:
                lines.append("    " + d)
            return Response(200, "\n".join(lines) + "\n", PLAIN, [NO_CACHE])
        return self.not_acceptable()

    # ---------------------------------------------------------- namespaces
    def r_namespaces(self, method, parts):
        s = self.state
        a = self.accept()
        if not parts:
            if method != "GET":
                return Response(405, b"", None)
            with s.lock:
                names = sorted(s.namespaces)
            if a == "plain":
                return Response(200, "".join(n + "\n" for n in names), PLAIN)
            if a == "json":
                return Response(200, jdumps({"Namespace": names}), JSON_T)
            return self.not_acceptable()
        ns = parts[0]
        if len(parts) == 2 and parts[1] == "tables" and method == "GET":
            with s.lock:
                if ns not in s.namespaces:
                    return Response(500, b"Internal Server Error\r\n", PLAIN)
                names = [t.qual for t in s.sorted_tables() if t.ns == ns]
            if a == "plain":
                return Response(200, "".join(n + "\n" for n in names), PLAIN)
            if a == "json":
                return Response(200, jdumps({"table": [{"name": n} for n in names]}), JSON_T)
            return self.not_acceptable()
        if len(parts) != 1:
            return not_found()
        if method == "GET":
            with s.lock:
                if ns not in s.namespaces:
                    return Response(500, b"Internal Server Error\r\n", PLAIN)
                props = dict(s.namespaces[ns])
            if a == "plain":
                txt = "{NAME => '%s'" % ns + "".join(", %s => '%s'" % kv for kv in sorted(props.items())) + "}\n"
                return Response(200, txt, PLAIN)
            if a == "json":
                return Response(200, jdumps({"properties": props}), JSON_T)
            return self.not_acceptable()
        if method in ("POST", "PUT", "DELETE") and s.read_only:
            return forbidden()
        if method in ("POST", "PUT"):
            props = {}
            if self.body.strip():
                try:
                    d = json.loads(self.body.decode("utf-8"))
                    props = {str(k): str(v) for k, v in (d.get("properties") or {}).items()}
                except (ValueError, AttributeError):
                    return bad_request()
            if method == "POST":
                try:
                    s.create_namespace(ns, props)
                except st.NamespaceExists:
                    return Response(403, ("Namespace '%s' already exists.  Use REST PUT to alter "
                                          "the existing namespace." % ns).encode("utf-8"), PLAIN)
                except st.HBaseError as e:
                    return process_exception(e)
                return Response(201, b"", None, [("Location", self.base_url() + self.path)])
            try:
                s.alter_namespace(ns, props)
            except st.NamespaceNotFound:
                return Response(403, ("Namespace '%s' does not exist. Use REST POST to create "
                                      "the namespace." % ns).encode("utf-8"), PLAIN)
            return Response(200, b"", None)
        if method == "DELETE":
            try:
                s.delete_namespace(ns)
            except st.NamespaceNotFound:
                return Response(404, ("Namespace '%s' does not exists.  Cannot drop namespace." % ns)
                                .encode("utf-8"), PLAIN)
            except st.HBaseError as e:
                return unavailable(e)
            return Response(200, b"", None)
        return Response(405, b"", None)

    # -------------------------------------------------------------- schema
    def schema_model(self, t):
        if t is None:   # hbase:meta
            cols = [dict([("name", "info")] + [(k, v) for k, v in st.DEFAULT_CF_ATTRS if k not in ("VERSIONS", "IN_MEMORY", "BLOCKSIZE", "BLOOMFILTER")]
                         + [("VERSIONS", "3"), ("IN_MEMORY", "true"), ("BLOCKSIZE", "8192"), ("BLOOMFILTER", "ROWCOL")]),
                    dict([("name", "rep_barrier")] + list(st.DEFAULT_CF_ATTRS)),
                    dict([("name", "table")] + [(k, v) for k, v in st.DEFAULT_CF_ATTRS if k != "VERSIONS"] + [("VERSIONS", "3")])]
            return {"name": META_NAME, "IS_META": "true", "ColumnSchema": cols}
        m = {"name": t.name}
        for k, v in t.attrs.items():
            m[k] = v
        cols = []
        for f in t.sorted_families():
            c = {"name": f}
            c.update(t.family_attrs(f))
            cols.append(c)
        m["ColumnSchema"] = cols
        return m

    def lookup(self, tname):
        """Return ('meta', None) | ('table', Table) or raise."""
        if tname == META_NAME:
            return "meta", None
        return "table", self.state.get_table(tname)

    def r_schema(self, method, tname):
        s = self.state
        if method == "GET":
            try:
                kind, t = self.lookup(tname)
            except st.HBaseError as e:
                return process_exception(e)
            a = self.accept()
            with s.lock:
                m = self.schema_model(t)
            if a == "json":
                return Response(200, jdumps(m), JSON_T, [NO_CACHE])
            if a == "plain":
                txt = "{ NAME=> '%s'" % m["name"]
                for k, v in m.items():
                    if k not in ("name", "ColumnSchema"):
                        txt += ", %s => '%s'" % (k, v)
                txt += ", COLUMNS => [ "
                txt += ", ".join("{ NAME => '%s'" % c["name"] + "".join(
                    ", %s => '%s'" % (k, v) for k, v in c.items() if k != "name") + " }"
                    for c in m["ColumnSchema"])
                txt += " ] }"
                return Response(200, txt, PLAIN, [NO_CACHE])
            return self.not_acceptable()
        if method not in ("PUT", "POST", "DELETE"):
            return Response(405, b"", None)
        if s.read_only:
            return forbidden()
        if tname == META_NAME:
            return forbidden()
        try:
            cname = st.canonical_name(tname)
        except st.IllegalArgument as e:
            return bad_request(exc=e)
        if method == "DELETE":
            try:
                with s.lock:
                    t = s.get_table(cname)
                    if t.enabled:
                        s.disable_table(cname)
                    s.delete_table(cname)
            except st.HBaseError as e:
                return process_exception(e)
            return Response(200, b"", None)
        # PUT / POST with a TableSchema body
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype not in ("application/json", ""):
            if ctype in ("text/xml", "application/xml", "application/x-protobuf", "application/protobuf"):
                return Response(415, b"Unsupported Media Type\r\n", PLAIN)
            return Response(415, b"Unsupported Media Type\r\n", PLAIN)
        try:
            d = json.loads(self.body.decode("utf-8"))
            if not isinstance(d, dict):
                raise ValueError("not an object")
            fams = []
            for c in d.get("ColumnSchema") or []:
                name = c.get("name")
                if name is None:
                    raise ValueError("family without name")
                attrs = {}
                for k, v in c.items():
                    if k == "name":
                        continue
                    attrs[k] = _jstr(v)
                fams.append((str(name), attrs))
            tattrs = {k: _jstr(v) for k, v in d.items()
                      if k not in ("name", "ColumnSchema", "IS_META", "IS_ROOT")}
        except (ValueError, UnicodeDecodeError, AttributeError, TypeError):
            return bad_request()
        location = [("Location", self.base_url() + self.path)]
        try:
            with s.lock:
                exists = cname in s.tables
                if exists and cname not in s.races:
                    if method == "PUT":
                        s.replace_schema(cname, fams, tattrs)
                        return Response(201, b"", None, location)
                    s.modify_families(cname, fams)
                    return Response(200, b"", None)
                answer = s.create_answer
                if answer is not None and not answer[2]:
                    return Response(201, answer[0], answer[1], location)
                try:
                    s.create_table(cname, fams, tattrs, None)
                except st.TableExists:
                    return Response(304, b"Not modified\r\n", PLAIN)
                if answer is not None:
                    return Response(201, answer[0], answer[1], location)
                return Response(201, b"", None, location)
        except st.HBaseError as e:
            return process_exception(e)

    def r_exists(self, method, tname):
        try:
            self.lookup(tname)
        except st.TableNotFound:
            return not_found()
        except st.HBaseError as e:
            return process_exception(e)
        return Response(200, b"", None, [NO_CACHE])

    # ------------------------------------------------------------- regions
    def r_regions(self, method, tname):
        s = self.state
        a = self.accept()
        if a not in ("json", "plain", "protobuf"):
            return self.not_acceptable()
        # RegionsResource produces protobuf too, as TableInfo (the content type answered is the
        # one asked for: application/x-protobuf or application/protobuf)
        pb_t = "application/protobuf" if "application/protobuf" in (
            self.headers.get("Accept") or "") else PROTOBUF_T
        try:
            kind, t = self.lookup(tname)
        except st.TableNotFound:
            if s.major == 1:
                # branch-1 RegionsResource lists MetaScanner.allTableRegions without an
                # exists() check: an unknown table is a 200 with no regions
                if a == "protobuf":
                    return Response(200, pb_table_info(tname, []), pb_t, [NO_CACHE])
                if a == "json":
                    return Response(200, jdumps({"name": tname, "Region": []}), JSON_T, [NO_CACHE])
                return Response(200, b"", PLAIN, [NO_CACHE])
            return not_found()
        except st.HBaseError as e:
            return process_exception(e)
        if kind == "meta":
            with s.lock:
                live = [i for i, sv in enumerate(s.servers) if sv["alive"]]
                loc = ("%s:%d" % (s.servers[live[0]]["host"], s.servers[live[0]]["port"])) if live else None
            if loc is None:
                return Response(500, b"java.lang.NullPointerException\r\n", PLAIN)
            regs = [{"id": 1, "startKey": "", "endKey": "", "location": loc, "name": "hbase:meta,,1"}]
            if a == "protobuf":
                return Response(200, pb_table_info(META_NAME, [(1, b"", b"", loc, "hbase:meta,,1")]),
                                pb_t, [NO_CACHE])
            if a == "json":
                return Response(200, jdumps({"name": META_NAME, "Region": regs}), JSON_T, [NO_CACHE])
            return Response(200, "hbase:meta,,1 [\n  id=1\n  startKey=''\n  endKey=''\n  location='%s'\n]\n" % loc,
                            PLAIN, [NO_CACHE])
        with s.lock:
            cache = t.__dict__.get("_regions_cache")
            if cache is not None and cache[0] == (t.version, s.servers_version):
                entries = cache[1]
            else:
                entries = []
                for key, r in t.meta_rows():
                    if r.offline or r.split:
                        continue
                    # MetaTableAccessor.getServerName reads info:server, which a closed
                    # region keeps: its last server. A region that never opened has none,
                    # and RegionsResource dereferences null (500 below).
                    if r.last_loc is None:
                        entries = None
                        break
                    name = r.name.decode("utf-8", "replace")
                    entries.append((r.rid, r.start, r.end, "%s:%d" % r.last_loc[:2], name))
                    # Region replicas: RegionsResource lists each replica's location with
                    # the primary's id, keys and name (no replica id), one after the other
                    for j in range(1, replication(t)):
                        other = s.servers[(r.server + j) % len(s.servers)]
                        entries.append((r.rid, r.start, r.end,
                                        "%s:%d" % (other["host"], other["port"]), name))
                t.__dict__["_regions_cache"] = ((t.version, s.servers_version), entries)
        if entries is None:
            return Response(500, ("java.lang.NullPointerException\r\n\tat org.apache.hadoop.hbase.rest."
                                  "RegionsResource.get(RegionsResource.java:80)\r\n").encode(), PLAIN)
        if a == "protobuf":
            body = pb_table_info(t.name, entries)
            if s.protobuf_answer == "cut":
                body = body[:len(body) // 2 + 1]
            return Response(200, body, pb_t, [NO_CACHE])
        if a == "json":
            parts = ['{"id":%d,"startKey":"%s","endKey":"%s","location":%s,"name":%s}'
                     % (rid, B64(sk), B64(ek), json.dumps(loc), json.dumps(name, ensure_ascii=False))
                     for rid, sk, ek, loc, name in entries]
            body = ('{"name":%s,"Region":[%s]}' % (json.dumps(t.name, ensure_ascii=False), ",".join(parts)))
            return Response(200, body.encode("utf-8"), JSON_T, [NO_CACHE])
        txt = "".join("%s [\n  id=%d\n  startKey='%s'\n  endKey='%s'\n  location='%s'\n]\n"
                      % (name, rid, st.to_string_binary(sk), st.to_string_binary(ek), loc)
                      for rid, sk, ek, loc, name in entries)
        return Response(200, txt, PLAIN, [NO_CACHE])

    # ---------------------------------------------------------------- rows
    def read_row(self, kind, t, key, spec):
        s = self.state
        if kind == "meta":
            row = self.emu.meta.get_row(key)
            with s.lock:
                s.meta_reads += 1
        else:
            with s.lock:
                row = t.data.get(key)
                s.count_read(t, key)
                if row is not None:
                    row = {c: list(v) for c, v in row.items()}
        if not row:
            return []
        return st.State.select_cells(row, spec.cols or None, spec.ts_exact, spec.tmin, spec.tmax, spec.maxv)

    def iter_source(self, kind, t, start, end):
        s = self.state
        if kind == "meta":
            for key, row in self.emu.meta.iter_rows(start, end):
                yield key, row
            return
        for key in s.iter_rows(t, start, end):
            with s.lock:
                row = t.data.get(key)
                if row is not None:
                    row = {c: list(v) for c, v in row.items()}
            if row:
                yield key, row

    def region_fn(self, kind, t):
        if kind == "meta":
            return None
        s = self.state

        def f(key):
            with s.lock:
                return t.region_for(key)
        return f

    def count_fn(self, kind, t):
        s = self.state
        if kind == "meta":
            def f(key):
                with s.lock:
                    s.meta_reads += 1
            return f

        def g(key):
            with s.lock:
                s.count_read(t, key)
        return g

    def r_row(self, method, tname, rest):
        s = self.state
        try:
            kind, t = self.lookup(tname)
        except st.TableNotFound as e:
            if method in ("GET", "HEAD"):
                # RowResultGenerator swallows TableNotFoundException (a
                # DoNotRetryIOException): a plain 404, no exception named
                return not_found()
            return process_exception(e)
        except st.HBaseError as e:
            return process_exception(e)
        try:
            spec = RowSpec(rest, self.query)
        except ValueError:
            return bad_request()
        if method in ("GET", "HEAD"):
            if t is not None and not t.enabled:
                # the Get fails with TableNotEnabledException, a DoNotRetryIOException
                # that RowResultGenerator swallows: an empty result, so 404
                return not_found()
            if meta_family_error(s.major, kind, [c[0] for c in spec.cols]) is not None:
                # NoSuchColumnFamilyException is swallowed the same way
                return not_found()
            return self.row_get(kind, t, spec)
        if method in ("PUT", "POST"):
            if s.read_only or kind == "meta":
                return forbidden()
            if t is not None and not t.enabled:
                return unavailable(st.TableNotEnabled(t.name))
            check = self.query.get("check", [None])[0]
            if check is None:
                return self.row_put(t, spec)
            if check == "put":
                return self.check_put(t, spec)
            if check == "delete":
                return self.check_delete(t, spec)
            return Response(400, ("Invalid check value '%s'\r\n" % check).encode("utf-8"), PLAIN)
        if method == "DELETE":
            if s.read_only or kind == "meta":
                return forbidden()
            if t is not None and not t.enabled:
                return unavailable(st.TableNotEnabled(t.name))
            s.delete_cells(t, spec.row, spec.cols or None, spec.ts_point)
            return Response(200, b"", None)
        return Response(405, b"", None)

    def row_get(self, kind, t, spec):
        a = self.accept(plain_first=False, default="octet")
        if a == "octet":
            if len(spec.cols) != 1 or spec.end is not None:
                return bad_request("Default 'GET' method only works if there is exactly 1 column in "
                                   "the row. Using the 'Accept' header with one of these formats lets "
                                   "you retrieve the entire row if it has multiple columns: text/xml, "
                                   "application/json, application/x-protobuf, application/protobuf")
            cells = self.read_row(kind, t, spec.row, spec)
            if not cells:
                return not_found()
            f, q, ts, v = cells[0]
            return Response(200, v, OCTET, [("X-Timestamp", str(ts))])
        if a not in ("json", "protobuf"):
            return self.not_acceptable()
        # RowResource.get produces protobuf too: the CellSet message, no length in front
        answer = (lambda rows: Response(200, pb_cellset(rows), self.pb_type())) \
            if a == "protobuf" else (lambda rows: Response(200, cellset_json(rows), JSON_T))
        if spec.end is not None:
            rows = []
            for key, row in self.iter_source(kind, t, spec.row, spec.end):
                self.count_fn(kind, t)(key)
                cells = st.State.select_cells(row, spec.cols or None, spec.ts_exact, spec.tmin,
                                              spec.tmax, spec.maxv)
                if cells:
                    rows.append((key, cells))
            if not rows:
                return not_found()
            return answer(rows)
        cells = self.read_row(kind, t, spec.row, spec)
        if not cells:
            return not_found()
        return answer([(spec.row, cells)])

    def parse_cellset(self, spec):
        """Return ([(key, [(fam, qual, ts, val)])], error Response or None)."""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype == OCTET:
            key = self.headers.get("X-Row")
            key = key.encode("utf-8") if key is not None else spec.row
            col = self.headers.get("X-Column")
            if col is not None:
                colb = col.encode("utf-8")
            elif spec.cols:
                f, q = spec.cols[0]
                colb = f + (b":" + q if q is not None else b"")
            else:
                return None, bad_request("Column found to be null.")
            tsh = self.headers.get("X-Timestamp")
            ts = int(tsh) if tsh else spec.ts_point
            if b":" not in colb:
                return None, bad_request()
            f, q = colb.split(b":", 1)
            if not key:
                return None, bad_request("Row key not specified.")
            return [(key, [(f, q, ts, self.body)])], None
        if ctype not in (JSON_T, ""):
            return None, Response(415, b"Unsupported Media Type\r\n", PLAIN)
        try:
            d = json.loads(self.body.decode("utf-8"))
            rows_in = d["Row"]
            if isinstance(rows_in, dict):
                rows_in = [rows_in]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None, bad_request()
        out = []
        try:
            for r in rows_in:
                key = base64.b64decode(r["key"]) if r.get("key") is not None else spec.row
                if not key:
                    return None, bad_request("Row key not specified.")
                cells = []
                cl = r.get("Cell") or []
                if isinstance(cl, dict):
                    cl = [cl]
                for i, c in enumerate(cl):
                    if c.get("column") is not None:
                        colb = base64.b64decode(c["column"])
                    elif i < len(spec.cols):
                        f, q = spec.cols[i]
                        colb = f + (b":" + q if q is not None else b"")
                    else:
                        return None, bad_request("Column found to be null.")
                    if b":" not in colb:
                        return None, bad_request()
                    f, q = colb.split(b":", 1)
                    ts = c.get("timestamp")
                    ts = int(ts) if ts is not None else None
                    val = base64.b64decode(c.get("$") or "")
                    # Jackson leaves CellModel.value null when "$" is absent; "$":"" is
                    # base64 of nothing, an empty byte[] (NOTES.md, "check=put")
                    self.last_value_absent = c.get("$") is None
                    cells.append((f, q, ts, val))
                out.append((key, cells))
        except (ValueError, TypeError, AttributeError, KeyError):
            return None, bad_request()
        return out, None

    def row_put(self, t, spec):
        rows, e = self.parse_cellset(spec)
        if e is not None:
            return e
        try:
            self.state.put_rows(t, rows)
        except st.HBaseError as ex:
            return process_exception(ex)
        return Response(200, b"", None)

    @staticmethod
    def _check_matches(row, fam, qual, expected):
        cur = None
        if row is not None:
            cells = row.get((fam, qual))
            if cells:
                cur = cells[0][1]
        if len(expected) == 0:
            # HBase treats an empty expected value as "null": the check passes
            # when the column is absent or its latest value is empty
            return cur is None or cur == b""
        return cur == expected

    def check_put(self, t, spec):
        rows, e = self.parse_cellset(spec)
        if e is not None:
            return e
        if len(rows) != 1:
            return bad_request("Number of rows specified is not 1.")
        key, cells = rows[0]
        if not key or len(cells) < 2:
            return bad_request("Either row key is null or no data found for columns specified.")
        cf, cq, _, cval = cells[-1]
        if not cq:
            return bad_request("Column incorrectly specified.")
        if getattr(self, "last_value_absent", False):
            # checkAndMutate(...).ifEquals(null): Preconditions.checkNotNull throws a
            # NullPointerException, a RuntimeException → 400
            return bad_request(exc=st.NullValue("value is null"))
        puts = cells[:-1]
        if not any(f == cf and q == cq for f, q, _, _ in puts):
            return bad_request("The column to put and check do not match.")
        s = self.state
        with s.lock:
            try:
                for f, q, _, _ in puts:
                    if f.decode("utf-8", "replace") not in t.families:
                        raise st.NoSuchFamily("Column family %s does not exist" % st.to_string_binary(f))
            except st.HBaseError as ex:
                return process_exception(ex)
            if not self._check_matches(t.data.get(key), cf, cq, cval):
                return Response(304, b"Value not Modified\r\n", PLAIN)
            s.put_rows(t, [(key, puts)])
        return Response(200, b"", None)

    def check_delete(self, t, spec):
        rows, e = self.parse_cellset(spec)
        if e is not None:
            if e.status == 400 and b"Column found to be null" in e.body:
                return bad_request("Column not specified for check.")
            return e
        if len(rows) != 1:
            return bad_request("Number of rows specified is not 1.")
        key, cells = rows[0]
        if not cells:
            return bad_request("Either row key is null or no data found for columns specified.")
        cf, cq, _, cval = cells[-1]
        s = self.state
        with s.lock:
            if not self._check_matches(t.data.get(key), cf, cq, cval):
                return Response(304, b" Delete check failed.\r\n", PLAIN)
            if len(cells) == 1:
                s.delete_cells(t, key, [(cf, cq)])
            else:
                for f, q, ts, _ in cells[:-1]:
                    s.delete_cells(t, key, [(f, q if q else None)] if True else None,
                                   ts if ts is not None and ts != LONG_MAX else None)
        return Response(200, b"", None)

    def r_multiget(self, tname, colseg):
        try:
            kind, t = self.lookup(tname)
        except st.HBaseError as e:
            return process_exception(e)
        a = self.accept(plain_first=False, default="json")
        if a != "json":
            return self.not_acceptable()
        rows = []
        for rv in self.query.get("row", []):
            spec = RowSpec(urllib.parse.quote(rv, safe="/,:*") if False else rv, self.query)
            if colseg and not spec.cols:
                spec.cols = RowSpec("x/" + colseg).cols
            cells = self.read_row(kind, t, spec.row, spec)
            if cells:
                rows.append((spec.row, cells))
        if not rows:
            return Response(404, b"No rows found.\r\n", PLAIN)
        return Response(200, cellset_json(rows), JSON_T)

    # ------------------------------------------------------------ scanners
    def r_scanner_create(self, method, tname, raw_table):
        s = self.state
        if method not in ("POST", "PUT"):
            return Response(405, b"", None)
        if s.read_only:
            return forbidden()
        # The client's scanner opens nothing until its first next() (ClientScanner since
        # HBase 2.0), so ScannerResource answers 201 for a missing or disabled table and a
        # missing family alike; the first GET fails (r_scanner).
        try:
            kind, t = self.lookup(tname)
        except st.TableNotFound:
            kind, t = "missing", None
        except st.HBaseError as e:
            return process_exception(e)
        try:
            d = json.loads(self.body.decode("utf-8")) if self.body.strip() else {}
            if not isinstance(d, dict):
                raise ValueError
            start = base64.b64decode(d.get("startRow") or "")
            end = base64.b64decode(d.get("endRow") or "")
            cols = []
            for c in d.get("column") or []:
                cb = base64.b64decode(c)
                if b":" in cb:
                    f, q = cb.split(b":", 1)
                    cols.append((f, q))
                else:
                    cols.append((cb, None))
            batch = int(d.get("batch", INT_MAX))
            maxv = int(d.get("maxVersions", INT_MAX))
            tmin = int(d.get("startTime", 0))
            tmax = int(d.get("endTime", LONG_MAX))
            filt = filters.parse_model(d.get("filter"))
        except (ValueError, TypeError, UnicodeDecodeError, KeyError):
            return bad_request()
        if kind == "missing":
            sc = Scanner(iter(()), None, maxv, tmin, tmax, 1, None, None)
            sc.fail = "missing"
        else:
            src = self.iter_source(kind, t, start, end)
            sc = Scanner(src, cols or None, maxv, tmin, tmax, batch if batch > 0 else INT_MAX,
                         filt, self.count_fn(kind, t), self.region_fn(kind, t))
            sc.table = t
            bad = meta_family_error(s.major, kind, [f for f, _ in cols])
            if bad is not None and s.major == 1:
                # kept from before the 2.x facts were settled; 1.x is not run for real here
                return unavailable(bad)
            if bad is not None:
                # NoSuchColumnFamilyException at the first next(): ScannerResultGenerator
                # logs it and ends the scan, so the first GET is a 204
                sc.fail = "empty"
        sid = "%d%x" % (st.now_ms(), random.getrandbits(31))
        with self.emu.scanners_lock:
            self.emu.scanners[sid] = sc
        return Response(201, b"", None, [("Location", "%s/%s/scanner/%s" % (self.base_url(), raw_table, sid))])

    def r_scanner(self, method, tname, sid):
        emu = self.emu
        if method == "DELETE":
            if self.state.read_only:
                return forbidden()
            with emu.scanners_lock:
                gone = emu.scanners.pop(sid, None) is None
            return not_found() if gone else Response(200, b"", None)
        if method not in ("GET", "HEAD"):
            return Response(405, b"", None)
        with emu.scanners_lock:
            sc = emu.scanners.get(sid)
        if sc is None:
            return not_found()
        if sc.fail == "missing" or (sc.table is not None and
                                    self.state.tables.get(sc.table.name) is not sc.table):
            # TableNotFoundException → IllegalArgumentException → 404; the scanner stays
            return not_found()
        if sc.table is not None and not sc.table.enabled:
            # TableNotEnabledException → IllegalStateException: ScannerInstanceResource
            # answers 410 and removes the scanner itself (a later DELETE is a 404)
            with emu.scanners_lock:
                emu.scanners.pop(sid, None)
            return Response(410, b"Gone\r\n", PLAIN)
        if sc.fail == "empty":
            return Response(204, b"", None, [NO_CACHE])
        a = self.accept(plain_first=False, default="json")
        with sc.lock:
            if a == "octet":
                rows = sc.fetch(1, 1)
                if not rows:
                    return Response(204, b"", None, [NO_CACHE])
                key, cells = rows[0]
                f, q, ts, v = cells[0]
                return Response(200, v, OCTET, [NO_CACHE, ("X-Row", B64(key)),
                                                 ("X-Column", B64(f + b":" + q)), ("X-Timestamp", str(ts))])
            if a not in ("json", "protobuf"):
                return self.not_acceptable()
            try:
                c = int(self.query.get("c", ["0"])[0])
                n = int(self.query.get("n", ["0"])[0])
            except ValueError:
                return bad_request()
            max_cells = c if c > 0 else sc.batch
            max_rows = n if n > 0 else INT_MAX
            rows = sc.fetch(max_cells, max_rows)
        if not rows:
            return Response(204, b"", None, [NO_CACHE])
        if a == "protobuf" and self.state.protobuf_answer == "406-after-read":
            # a proxy that passed the GET on and refused the protobuf answer: the batch was
            # read from the scanner and is lost to the client
            return self.not_acceptable()
        if a == "protobuf":
            # ScannerInstanceResource.get produces protobuf too: one CellSet, no length
            return Response(200, pb_cellset(rows), self.pb_type(), [NO_CACHE])
        return Response(200, cellset_json(rows), JSON_T, [NO_CACHE])

    def r_table_scan(self, tname, scanspec_raw):
        """TableResource.getScanResource (2.x, with `reversed`): the text
        before the first '*' is the start row when startrow is absent; the
        PrefixFilter is added only when a `filter` parameter is present up to
        2.5.8, always from 2.5.9 and 2.6.0 on."""
        try:
            kind, t = self.lookup(tname)
        except st.TableNotFound:
            return jersey_failure(self.path)
        except st.HBaseError as e:
            return process_exception(e)
        if t is not None and not t.enabled:
            # getScanner opens nothing; the first region RPC fails inside the streamed
            # body's iterator, before a byte was written: the container's 500
            return jersey_failure(self.path)
        a = self.accept(plain_first=False, default="json")
        if a not in ("json", "protobuf"):
            return self.not_acceptable()
        q = self.query
        spec = path_decode(scanspec_raw)
        star = spec.find("*")
        prefix = spec[:star].encode("utf-8") if star > 0 else b""
        try:
            start = q["startrow"][0].encode("utf-8") if q.get("startrow", [""])[0] else prefix
            end = q.get("endrow", [""])[0].encode("utf-8")
            limit = int(q.get("limit", [str(INT_MAX)])[0])
            maxv = int(q.get("maxversions", ["1"])[0])
            tmin = int(q.get("starttime", ["0"])[0])
            tmax = int(q.get("endtime", [str(LONG_MAX)])[0])
            reversed_ = q.get("reversed", ["false"])[0].lower() == "true"
            filt = None
            fstr = q.get("filter", [""])[0]
            if prefix and not fstr and self.state.prefix_filter_always():
                def filt():
                    return filters.PrefixFilter(prefix)
            if fstr:
                # TableResource: FilterList(MUST_PASS_ALL) of the parsed filter and, only
                # when a filter parameter is present, the scan spec's PrefixFilter. ParseFilter
                # throws a RuntimeException the 2.x resource does not catch: the container's
                # 500 (branch-1 catches every Exception: processException, 400)
                try:
                    parsed = filters.parse_language(fstr)
                except ValueError:
                    if self.state.major == 1:
                        raise
                    return jersey_failure(self.path)
                pfx = prefix

                def filt():
                    subs = [parsed()]
                    if pfx:
                        subs.append(filters.PrefixFilter(pfx))
                    return filters.FilterList("MUST_PASS_ALL", subs)
        except ValueError:
            return bad_request()
        cols = []
        for c in q.get("column", []):
            # CellUtil.parseColumn: `f` the whole family, `f:` the empty qualifier only,
            # `f:q:r` qualifier `q:r`
            f, colon, qual = c.strip().partition(":")
            if f:
                cols.append((f.encode("utf-8"), qual.encode("utf-8") if colon else None))
        bad = meta_family_error(self.state.major, kind, [f for f, _ in cols])
        if bad is not None and self.state.major == 1:
            return process_exception(bad)   # as before: 1.x is not run for real here
        if bad is not None:
            return jersey_failure(self.path)
        sc = Scanner(self.iter_source(kind, t, start, end), cols or None, maxv, tmin, tmax, INT_MAX,
                     filt, self.count_fn(kind, t), self.region_fn(kind, t))
        rows = []
        if reversed_:
            # a reversed scan starts at startrow and walks down to endrow
            allrows = []
            src = self.iter_source(kind, t, end, b"") if end else self.iter_source(kind, t, b"", b"")
            for key, row in src:
                if end and key <= end:
                    continue      # the stop row is exclusive
                if start and key > start:
                    break
                allrows.append((key, row))
            rfilt = (lambda: filters.set_reversed(filt())) if filt is not None else None
            sc = Scanner(iter(reversed(allrows)), cols or None, maxv, tmin, tmax, INT_MAX, rfilt,
                         self.count_fn(kind, t), self.region_fn(kind, t))
        while len(rows) < limit:
            r = sc.next_row()
            if r is None:
                break
            rows.append(r)
        cut = self.state.meta_cut
        if (kind == "meta" and cut is not None and len(rows) > cut
                and (self.state.meta_cut_path is None or self.state.meta_cut_path in self.path)):
            rows = rows[:cut]
            if rows:
                rows[-1] = (rows[-1][0], rows[-1][1][:1])
        if a == "protobuf":
            pb_t = "application/protobuf" if "application/protobuf" in (
                self.headers.get("Accept") or "") else PROTOBUF_T
            return Response(200, pb_scan_stream(rows, limit, self.state.scan_fetch_size), pb_t)
        return Response(200, cellset_json(rows), JSON_T)


def _jstr(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
