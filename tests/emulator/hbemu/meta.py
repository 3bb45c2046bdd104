"""hbase:meta derived from the cluster state: one row per region (row key =
region name, ordered with the meta comparator) plus one table-state row per
table. Values are built with Google protobuf's runtime from the generated
hbase_pb2 module."""
import bisect
import struct

from .state import meta_sort_key

META_NAME = "hbase:meta"
META_REGION_NAME = b"hbase:meta,,1"
SEQNUM = 2

_STATE_VALUES = {"ENABLED": 0, "DISABLED": 1, "DISABLING": 2, "ENABLING": 3}


class MetaView(object):
    def __init__(self, state, pb):
        self.state = state
        self.pb = pb

    # ---- value encoders ---------------------------------------------------
    def regioninfo_bytes(self, r):
        t = self.state.tables.get(r.table)
        if t is not None:
            ns, q = t.ns, t.qual
        elif ":" in r.table:
            ns, q = r.table.split(":", 1)
        else:
            ns, q = "default", r.table
        pb = self.pb
        ri = pb.RegionInfo()
        ri.region_id = r.rid
        ri.table_name.namespace = ns.encode("utf-8")
        ri.table_name.qualifier = q.encode("utf-8")
        # Java always writes these optional fields; set them explicitly so the
        # proto2 runtime serializes them even when they hold the default.
        ri.start_key = r.start
        ri.end_key = r.end
        ri.offline = bool(r.offline)
        ri.split = bool(r.split)
        ri.replica_id = r.replica
        return b"PBUF" + ri.SerializeToString() + self.state.regioninfo_extra

    def table_state_bytes(self, t):
        ts = self.pb.TableState()
        # CreateTableProcedure writes ENABLING while it assigns the regions, ENABLED once
        # they are open: the open-delay period is that assignment
        ts.state = _STATE_VALUES["DISABLED" if not t.enabled else
                                 "ENABLING" if t.opening_until is not None else "ENABLED"]
        return ts.SerializeToString()

    # ---- rows -----------------------------------------------------------
    def region_row(self, t, r):
        """{(fam, qual): [(ts, value)]} for region r (cached per table version)."""
        c = r.cache
        key = (t.version, self.state.regioninfo_extra)
        if c is not None and c[0] == key:
            return c[1]
        ts = r.rid
        row = {(b"info", b"regioninfo"): [(ts, self.regioninfo_bytes(r))]}
        s = self.state
        st = s.region_state(r)
        if not r.no_state:
            row[(b"info", b"state")] = [(ts, st.encode("ascii"))]
        # RegionStateStore.updateUserRegionLocation: server, serverstartcode and
        # seqnumDuringOpen are written when the region opens and never removed, so a closed
        # region keeps its last ones; info:sn names the server it is on, is opening on, or
        # was closed on.
        if r.last_loc is not None:
            host, port, code = r.last_loc
            row[(b"info", b"server")] = [(ts, ("%s:%d" % (host, port)).encode("ascii"))]
            row[(b"info", b"serverstartcode")] = [(ts, struct.pack(">q", code))]
            row[(b"info", b"seqnumDuringOpen")] = [(ts, struct.pack(">q", SEQNUM))]
        sn = None
        if st == "OPENING" and r.server is not None and r.server < len(s.servers):
            sv = s.servers[r.server]
            sn = (sv["host"], sv["port"], sv["startcode"])
        elif r.last_loc is not None and st not in ("SPLIT", "OFFLINE"):
            sn = r.last_loc
        if sn is not None:
            row[(b"info", b"sn")] = [(ts, ("%s,%d,%d" % sn).encode("ascii"))]
        if r.merge_parents:
            # MetaTableAccessor.mergeRegions (2.3+): one info:merge%04d per parent
            for i, p in enumerate(r.merge_parents):
                row[(b"info", b"merge%04d" % i)] = [(ts, self.regioninfo_bytes(p))]
        if r.daughters:
            row[(b"info", b"splitA")] = [(ts, self.regioninfo_bytes(r.daughters[0]))]
            row[(b"info", b"splitB")] = [(ts, self.regioninfo_bytes(r.daughters[1]))]
        r.cache = (key, row)
        return row

    def state_row(self, t):
        return {(b"table", b"state"): [(t.regions[0].rid if t.regions else 0, self.table_state_bytes(t))]}

    def _table_lists(self, t):
        rows = t.meta_rows()
        if not hasattr(t, "_meta_keys") or t.__dict__.get("_meta_keys_src") is not rows:
            t.__dict__["_meta_keys"] = [k for k, _ in rows]
            t.__dict__["_meta_keys_src"] = rows
        return t.__dict__["_meta_keys"], rows

    def get_row(self, key):
        """Row dict for meta row `key`, or None."""
        with self.state.lock:
            sk = meta_sort_key(key)
            if sk[1] == 0:
                # 1.x kept table state in ZooKeeper: meta has no table-state rows
                t = self._table_by_bytes(key) if self.state.major >= 2 else None
                return self.state_row(t) if t is not None else None
            t = self._table_by_bytes(sk[0])
            if t is None:
                return None
            self.state.settle(t)
            keys, rows = self._table_lists(t)
            i = bisect.bisect_left(keys, sk)
            if i < len(keys) and rows[i][1].name == key:
                return self.region_row(t, rows[i][1])
            return None

    def _table_by_bytes(self, b):
        try:
            return self.state.tables.get(b.decode("utf-8"))
        except UnicodeDecodeError:
            return None

    def iter_rows(self, start=b"", end=b""):
        """Yield (key, rowdict) in meta order for start <= key < end (meta
        comparator; empty end = unbounded)."""
        sk = meta_sort_key(start) if start else None
        ek = meta_sort_key(end) if end else None
        with self.state.lock:
            tables = list(self.state.sorted_tables())
        for t in tables:
            tb = t.name_bytes
            if sk is not None and tb < sk[0]:
                continue
            if ek is not None and tb > ek[0]:
                return
            with self.state.lock:
                if self.state.tables.get(t.name) is not t:
                    continue
                self.state.settle(t)
                keys, rows = self._table_lists(t)
            # the table-state row sorts first within the table
            st_key = (tb, 0, b"", b"")
            if self.state.major < 2:
                pass
            elif (sk is None or st_key >= sk) and (ek is None or st_key < ek):
                with self.state.lock:
                    yield tb, self.state_row(t)
            elif ek is not None and st_key >= ek:
                return
            i = bisect.bisect_left(keys, sk) if sk is not None else 0
            n = len(keys)
            while i < n:
                if ek is not None and keys[i] >= ek:
                    return
                r = rows[i][1]
                with self.state.lock:
                    row = self.region_row(t, r)
                yield r.name, row
                i += 1

    def region_count(self):
        return 1
