"""Thrift2 (THBaseService) over HTTP. Uses Apache Thrift's Python runtime: the
generated Processor and TBinaryProtocol (strict write, lenient read) over the
HTTP body, like HBase's TServlet in HTTP mode."""
import logging

from thrift.Thrift import TApplicationException, TMessageType, TType
from thrift.protocol import TBinaryProtocol
from thrift.transport import TTransport

from . import state as st
from .httpbase import Handler, Response

logging.getLogger("thrift").setLevel(logging.CRITICAL)
logging.getLogger().setLevel(logging.CRITICAL)

ENUM_MAPS = {
    "BLOOMFILTER": {"NONE": 0, "ROW": 1, "ROWCOL": 2, "ROWPREFIX_FIXED_LENGTH": 3},
    "COMPRESSION": {"LZO": 0, "GZ": 1, "NONE": 2, "SNAPPY": 3, "LZ4": 4, "BZIP2": 5, "ZSTD": 6},
    "DATA_BLOCK_ENCODING": {"NONE": 0, "PREFIX": 2, "DIFF": 3, "FAST_DIFF": 4, "ROW_INDEX_V1": 7},
    "KEEP_DELETED_CELLS": {"FALSE": 0, "TRUE": 1, "TTL": 2},
}
# THBaseService of branch-1 hbase.thrift (1.0-1.6): reads, writes, scanners and region
# locations only.
THRIFT2_1X_METHODS = frozenset([
    "exists", "existsAll", "get", "getMultiple", "put", "checkAndPut", "putMultiple",
    "deleteSingle", "deleteMultiple", "checkAndDelete", "increment", "append", "openScanner",
    "getScannerRows", "closeScanner", "mutateRow", "getScannerResults", "getRegionLocation",
    "getAllRegionLocations", "checkAndMutate"])
DURABILITY = {0: "USE_DEFAULT", 1: "SKIP_WAL", 2: "ASYNC_WAL", 3: "SYNC_WAL", 4: "FSYNC_WAL"}


def _rev(m, v):
    for k, x in m.items():
        if x == v:
            return k
    return None


def internal_error(method):
    return TApplicationException(TApplicationException.INTERNAL_ERROR,
                                 "Internal error processing " + method)


class THBaseHandler(object):
    def __init__(self, emu):
        self.emu = emu
        _, self.tt, _ = emu.gen

    @property
    def state(self):
        return self.emu.state

    def _ioerror(self, e):
        return self.tt.TIOError(message=e.message, canRetry=not e.do_not_retry)

    def _call(self, method, fn):
        # no read-only check: HBase's handler makes it in its data methods only, and this
        # server has none (NOTES.md, "Differences real HBase showed")
        try:
            return fn()
        except st.IllegalArgument:
            raise internal_error(method)
        except st.HBaseError as e:
            raise self._ioerror(e)

    @staticmethod
    def _tname(tn):
        ns = (tn.ns or b"").decode("utf-8", "replace") if tn.ns else ""
        q = (tn.qualifier or b"").decode("utf-8", "replace")
        return q if ns in ("", "default") else ns + ":" + q

    def _tt_name(self, t):
        return self.tt.TTableName(ns=t.ns.encode("utf-8"), qualifier=t.qual.encode("utf-8"))

    # ---- DDL ------------------------------------------------------------
    def createTable(self, desc, splitKeys):
        if self.state.thrift_legacy_17:
            return None

        def run():
            if desc is None or desc.tableName is None:
                raise st.IllegalArgument("null descriptor")
            if desc.columns is None:
                # tableDescriptorFromThrift walks columns without a null check
                raise st.IllegalArgument("NullPointerException")
            name = self._tname(desc.tableName)
            fams = []
            for c in desc.columns:
                fams.append((c.name.decode("utf-8", "replace"), self._cf_attrs(c)))
            attrs = {}
            for k, v in (desc.attributes or {}).items():
                attrs[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
            if desc.durability is not None and desc.durability in DURABILITY:
                attrs["DURABILITY"] = DURABILITY[desc.durability]
            # Admin-side split-key validation (IllegalArgumentException)
            keys = st.verify_split_keys(list(splitKeys or []))
            self.state.create_table(name, fams, attrs, keys)
        return self._call("createTable", run)

    def _cf_attrs(self, c):
        a = {}
        for k, v in (c.attributes or {}).items():
            a[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
        if c.blockSize is not None:
            a["BLOCKSIZE"] = str(c.blockSize)
        if c.bloomnFilterType is not None:
            a["BLOOMFILTER"] = _rev(ENUM_MAPS["BLOOMFILTER"], c.bloomnFilterType) or "NONE"
        if c.compressionType is not None:
            a["COMPRESSION"] = _rev(ENUM_MAPS["COMPRESSION"], c.compressionType) or "NONE"
        if c.dfsReplication is not None:
            a["DFS_REPLICATION"] = str(c.dfsReplication)
        if c.dataBlockEncoding is not None:
            a["DATA_BLOCK_ENCODING"] = _rev(ENUM_MAPS["DATA_BLOCK_ENCODING"], c.dataBlockEncoding) or "NONE"
        if c.keepDeletedCells is not None:
            a["KEEP_DELETED_CELLS"] = _rev(ENUM_MAPS["KEEP_DELETED_CELLS"], c.keepDeletedCells) or "FALSE"
        if c.maxVersions is not None:
            a["VERSIONS"] = str(c.maxVersions)
        if c.minVersions is not None:
            a["MIN_VERSIONS"] = str(c.minVersions)
        if c.scope is not None:
            a["REPLICATION_SCOPE"] = str(c.scope)
        if c.timeToLive is not None:
            a["TTL"] = str(c.timeToLive)
        for fld, key in (("blockCacheEnabled", "BLOCKCACHE"), ("cacheBloomsOnWrite", "CACHE_BLOOMS_ON_WRITE"),
                         ("cacheDataOnWrite", "CACHE_DATA_ON_WRITE"),
                         ("cacheIndexesOnWrite", "CACHE_INDEX_ON_WRITE"),
                         ("compressTags", "COMPRESS_TAGS"), ("evictBlocksOnClose", "EVICT_BLOCKS_ON_CLOSE"),
                         ("inMemory", "IN_MEMORY")):
            v = getattr(c, fld)
            if v is not None:
                a[key] = "true" if v else "false"
        for k, v in (c.configuration or {}).items():
            a[k] = v
        return a

    def deleteTable(self, tableName):
        if self.state.thrift_legacy_17:
            return None
        return self._call("deleteTable", lambda: self.state.delete_table(self._tname(tableName)))

    # ThriftHBaseServiceHandler (2.5, 2.6) checks read-only mode in the data calls only: these
    # DDL calls go to the Admin on a read-only Thrift server too (NOTES.md, "Read-only").
    def truncateTable(self, tableName, preserveSplits):
        if self.state.thrift_legacy_17:
            return None
        return self._call("truncateTable",
                          lambda: self.state.truncate_table(self._tname(tableName), preserveSplits))

    def enableTable(self, tableName):
        if self.state.thrift_legacy_17:
            return None
        return self._call("enableTable", lambda: self.state.enable_table(self._tname(tableName)))

    def disableTable(self, tableName):
        if self.state.thrift_legacy_17:
            return None
        return self._call("disableTable", lambda: self.state.disable_table(self._tname(tableName)))

    def isTableEnabled(self, tableName):
        # TableState.inStates(ENABLED): false for ENABLING (and DISABLING) as well
        def enabled():
            t = self.state.get_table(self._tname(tableName))
            return t.enabled and t.opening_until is None
        return self._call("isTableEnabled", enabled)

    def isTableDisabled(self, tableName):
        return self._call("isTableDisabled", lambda: not self.state.get_table(self._tname(tableName)).enabled)

    def isTableAvailable(self, tableName):
        def run():
            t = self.state.get_table(self._tname(tableName))
            # RawAsyncHBaseAdmin.isTableAvailable: enabled, and no region row without
            # info:server (a closed region's stale server counts as deployed)
            with self.state.lock:
                return t.enabled and all(r.last_loc is not None for _, r in t.meta_rows()
                                         if not r.offline and not r.split)
        return self._call("isTableAvailable", run)

    def tableExists(self, tableName):
        def run():
            try:
                self.state.get_table(self._tname(tableName))
                return True
            except st.TableNotFound:
                return False
        return self._call("tableExists", run)

    def getTableDescriptor(self, table):
        if self.state.thrift_legacy_17:
            return None
        tt = self.tt

        def run():
            with self.state.lock:
                t = self.state.get_table(self._tname(table))
                cols = []
                for f in t.sorted_families():
                    cols.append(self._cf_to_thrift(f, t.family_attrs(f)))
                attrs = {k.encode("utf-8"): v.encode("utf-8") for k, v in t.attrs.items()
                         if k != "DURABILITY"}
                dur = {v: k for k, v in DURABILITY.items()}.get(t.attrs.get("DURABILITY", "USE_DEFAULT"), 0)
                return tt.TTableDescriptor(tableName=self._tt_name(t), columns=cols, attributes=attrs,
                                           durability=dur)
        return self._call("getTableDescriptor", run)

    def _cf_to_thrift(self, name, a):
        tt = self.tt

        def b(key, default):
            return (a.get(key, default)).lower() == "true"

        known = {"BLOCKSIZE", "BLOOMFILTER", "COMPRESSION", "DFS_REPLICATION", "DATA_BLOCK_ENCODING",
                 "KEEP_DELETED_CELLS", "VERSIONS", "MIN_VERSIONS", "REPLICATION_SCOPE", "TTL",
                 "BLOCKCACHE", "CACHE_BLOOMS_ON_WRITE", "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE",
                 "COMPRESS_TAGS", "EVICT_BLOCKS_ON_CLOSE", "IN_MEMORY"}
        return tt.TColumnFamilyDescriptor(
            name=name.encode("utf-8"),
            # Java puts every descriptor value in the map; the emulator only the ones the
            # struct cannot carry, plus a COMPRESSION the enum has no value for (LZMA,
            # BROTLI), which compressionAlgorithmFromHBase then reports as NONE
            attributes={k.encode("utf-8"): v.encode("utf-8") for k, v in a.items()
                        if k not in known or (k == "COMPRESSION" and
                                              v.upper() not in ENUM_MAPS["COMPRESSION"])},
            configuration={},
            blockSize=int(a.get("BLOCKSIZE", "65536")),
            bloomnFilterType=ENUM_MAPS["BLOOMFILTER"].get(a.get("BLOOMFILTER", "ROW").upper(), 1),
            compressionType=ENUM_MAPS["COMPRESSION"].get(a.get("COMPRESSION", "NONE").upper(), 2),
            dfsReplication=int(a.get("DFS_REPLICATION", "0")),
            dataBlockEncoding=ENUM_MAPS["DATA_BLOCK_ENCODING"].get(a.get("DATA_BLOCK_ENCODING", "NONE").upper(), 0),
            keepDeletedCells=ENUM_MAPS["KEEP_DELETED_CELLS"].get(a.get("KEEP_DELETED_CELLS", "FALSE").upper(), 0),
            maxVersions=int(a.get("VERSIONS", "1")),
            minVersions=int(a.get("MIN_VERSIONS", "0")),
            scope=int(a.get("REPLICATION_SCOPE", "0")),
            timeToLive=int(a.get("TTL", "2147483647")),
            blockCacheEnabled=b("BLOCKCACHE", "true"),
            cacheBloomsOnWrite=b("CACHE_BLOOMS_ON_WRITE", "false"),
            cacheDataOnWrite=b("CACHE_DATA_ON_WRITE", "false"),
            cacheIndexesOnWrite=b("CACHE_INDEX_ON_WRITE", "false"),
            compressTags=b("COMPRESS_TAGS", "true"),
            evictBlocksOnClose=b("EVICT_BLOCKS_ON_CLOSE", "false"),
            inMemory=b("IN_MEMORY", "false"))

    def getAllRegionLocations(self, table):
        tt = self.tt

        def run():
            s = self.state
            name = table.decode("utf-8", "replace") if isinstance(table, bytes) else table
            with s.lock:
                try:
                    t = s.get_table(name)
                except st.TableNotFound:
                    return []
                out = []
                for _, r in t.meta_rows():
                    if r.offline or r.split:
                        continue
                    # the region locator reads info:server (a closed region's last server);
                    # ThriftUtilities.regionLocationFromHBase dereferences a missing one
                    if r.last_loc is None:
                        raise st.IllegalArgument("NullPointerException")
                    host, port, code = r.last_loc
                    sn = tt.TServerName(hostName=host, port=port, startCode=code)
                    # ThriftUtilities.regionLocationFromHBase never sets regionId
                    ri = tt.THRegionInfo(regionId=0, tableName=t.name_bytes, startKey=r.start,
                                         endKey=r.end, offline=r.offline, split=r.split,
                                         replicaId=r.replica)
                    out.append(tt.THRegionLocation(serverName=sn, regionInfo=ri))
                return out
        return self._call("getAllRegionLocations", run)

    def getThriftServerType(self):
        return 2


class JavaLikeProcessor(object):
    """Wraps the generated Processor: Java-style UNKNOWN_METHOD text and
    PROTOCOL_ERROR replies for undecodable arguments."""

    def __init__(self, processor, state=None):
        self.p = processor
        self.state = state

    def known(self, name):
        if name not in self.p._processMap:
            return False
        # branch-1 (before 1.7) hbase.thrift has data methods only: no DDL, no admin calls
        if self.state is not None and self.state.major == 1 and not self.state.thrift_legacy_17:
            return name in THRIFT2_1X_METHODS
        return True

    def process(self, iprot, oprot):
        name, mtype, seqid = iprot.readMessageBegin()
        if not self.known(name):
            iprot.skip(TType.STRUCT)
            iprot.readMessageEnd()
            x = TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                      "Invalid method name: '%s'" % name)
            oprot.writeMessageBegin(name, TMessageType.EXCEPTION, seqid)
            x.write(oprot)
            oprot.writeMessageEnd()
            oprot.trans.flush()
            return
        try:
            self.p._processMap[name](self.p, seqid, iprot, oprot)
        except Exception as e:  # arguments could not be decoded
            x = TApplicationException(TApplicationException.PROTOCOL_ERROR, str(e) or "Protocol error")
            oprot.writeMessageBegin(name, TMessageType.EXCEPTION, seqid)
            x.write(oprot)
            oprot.writeMessageEnd()
            oprot.trans.flush()


class ThriftHandler(Handler):
    server_kind = "thrift"

    def dispatch(self, method, path, body):
        if method not in ("POST", "GET"):
            if method == "OPTIONS":
                return Response(405, b"", None)
            return Response(405, b"", None)
        svc, tt, _ = self.ctx.gen
        itrans = TTransport.TMemoryBuffer(body)
        otrans = TTransport.TMemoryBuffer()
        iprot = TBinaryProtocol.TBinaryProtocol(itrans, strictRead=False, strictWrite=True)
        oprot = TBinaryProtocol.TBinaryProtocol(otrans, strictRead=False, strictWrite=True)
        proc = JavaLikeProcessor(svc.Processor(self.ctx.thrift_handler), self.ctx.state)
        try:
            proc.process(iprot, oprot)
        except Exception as e:
            # the message header itself could not be read: the servlet fails
            return Response(500, ("Error 500 %s\r\n" % (e,)).encode("utf-8"), "text/plain")
        return Response(200, otrans.getvalue(), "application/x-thrift")
