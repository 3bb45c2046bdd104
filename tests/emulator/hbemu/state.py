"""Cluster state of the emulator: namespaces, tables, regions, region servers,
cells, plus the rules HBase applies to them (name validation, split-key
validation, region membership, versions)."""
import base64
import bisect
import copy
import hashlib
import os
import pickle
import re
import threading
import time
import unicodedata

LONG_MAX = 9223372036854775807

DEFAULT_CF_ATTRS = [
    ("BLOOMFILTER", "ROW"),
    ("VERSIONS", "1"),
    ("IN_MEMORY", "false"),
    ("KEEP_DELETED_CELLS", "FALSE"),
    ("DATA_BLOCK_ENCODING", "NONE"),
    ("TTL", "2147483647"),
    ("COMPRESSION", "NONE"),
    ("MIN_VERSIONS", "0"),
    ("BLOCKCACHE", "true"),
    ("BLOCKSIZE", "65536"),
    ("REPLICATION_SCOPE", "0"),
]


# ----------------------------------------------------------------------------
# Java-like exceptions (the class name is used for stack traces / messages)

class HBaseError(Exception):
    java = "java.io.IOException"
    do_not_retry = False

    def __init__(self, message=""):
        Exception.__init__(self, message)
        self.message = message


class SanityCheckFailed(HBaseError):
    java = "org.apache.hadoop.hbase.DoNotRetryIOException"
    do_not_retry = True


class NullValue(HBaseError):
    java = "java.lang.NullPointerException"


class TableNotFound(HBaseError):
    java = "org.apache.hadoop.hbase.TableNotFoundException"
    do_not_retry = True


class TableExists(HBaseError):
    java = "org.apache.hadoop.hbase.TableExistsException"
    do_not_retry = True


class TableNotEnabled(HBaseError):
    java = "org.apache.hadoop.hbase.TableNotEnabledException"
    do_not_retry = True


class TableNotDisabled(HBaseError):
    java = "org.apache.hadoop.hbase.TableNotDisabledException"
    do_not_retry = True


class NamespaceNotFound(HBaseError):
    java = "org.apache.hadoop.hbase.NamespaceNotFoundException"
    do_not_retry = True


class NamespaceExists(HBaseError):
    java = "org.apache.hadoop.hbase.NamespaceExistException"
    do_not_retry = True


class ConstraintError(HBaseError):
    java = "org.apache.hadoop.hbase.constraint.ConstraintException"
    do_not_retry = True


class NoSuchFamily(HBaseError):
    java = "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"
    do_not_retry = True


class IllegalArgument(HBaseError):
    """A Java RuntimeException (IllegalArgumentException)."""
    java = "java.lang.IllegalArgumentException"


class MergeRegion(HBaseError):
    java = "org.apache.hadoop.hbase.exceptions.MergeRegionException"
    do_not_retry = True


class UnknownRegion(HBaseError):
    java = "org.apache.hadoop.hbase.UnknownRegionException"
    do_not_retry = True


class SplitRegion(HBaseError):
    java = "org.apache.hadoop.hbase.DoNotRetryIOException"
    do_not_retry = True


class ReadOnly(HBaseError):
    java = "org.apache.hadoop.hbase.DoNotRetryIOException"
    do_not_retry = True


def java_trace(cls, table, line, procedure, pline):
    """A master-side exception as a Thrift2 TIOError's message shows it: the exception, then
    the top of its stack trace (AbstractStateMachineTableProcedure.preflightChecks, called by
    the procedure's constructor)."""
    pkg = "org.apache.hadoop.hbase.master.procedure."
    return ("%s: %s\n\tat %sAbstractStateMachineTableProcedure.preflightChecks("
            "AbstractStateMachineTableProcedure.java:%d)\n\tat %s%s.<init>(%s.java:%d)"
            % (cls, table, pkg, line, pkg, procedure, procedure, pline))


# ----------------------------------------------------------------------------
# byte helpers

def to_string_binary(b):
    out = []
    for c in b:
        if 0x20 <= c <= 0x7E and c != 0x5C:
            out.append(chr(c))
        else:
            out.append("\\x%02X" % c)
    return "".join(out)


def b64(b):
    return base64.b64encode(b).decode("ascii")


def unb64(s):
    if s is None:
        return None
    return base64.b64decode(s)


def now_ms():
    return int(time.time() * 1000)


def meta_sort_key(row):
    """Sort key equal in order to HBase's MetaCellComparator.compareRows."""
    i = row.find(b",")
    if i < 0:
        return (row, 0, b"", b"")
    j = row.rfind(b",", i + 1)
    if j < 0:
        # no far delimiter: Java compares the rest as middle and then the
        # whole row as the "tail" (farDelimiter -1 + 1 = offset 0)
        return (row[:i], 1, row[i + 1:], row)
    return (row[:i], 1, row[i + 1:j], row[j + 1:])


# ----------------------------------------------------------------------------
# names

def _ns_char_ok(ch):
    return ch == "_" or ch.isdigit() or ch.isalpha() or unicodedata.category(ch) == "Nl"


def validate_table_name(full):
    """Return (ns, qualifier) or raise IllegalArgument like TableName.valueOf."""
    if ":" in full:
        ns, q = full.split(":", 1)
    else:
        ns, q = "default", full
    if not ns:
        raise IllegalArgument("Namespace name must not be empty")
    for ch in ns:
        if not _ns_char_ok(ch):
            raise IllegalArgument(
                "Illegal character <%s> at %d. Namespaces may only contain 'alphanumeric "
                "characters' from any language and/or '_'" % (ch, ns.index(ch)))
    if not q:
        raise IllegalArgument("Table qualifier must not be empty")
    if q in ("-ROOT-", ".META."):
        raise IllegalArgument(q + " no longer exists. The table has been renamed to hbase:meta")
    if q[0] in ".-":
        raise IllegalArgument(
            "Illegal first character <%s> at 0. User-space table qualifiers can only start "
            "with 'alphanumeric characters' from any language: %s" % (q[0], q))
    for i, ch in enumerate(q):
        if not (_ns_char_ok(ch) or ch in "-."):
            raise IllegalArgument(
                "Illegal character code:%d, <%s> at %d. User-space table qualifiers may only "
                "contain 'alphanumeric characters' and digits: %s" % (ord(ch), ch, i, q))
    if ns == "zookeeper" or q == "zookeeper":
        raise IllegalArgument("Tables may not be named 'zookeeper'")
    return ns, q


def canonical_name(full):
    ns, q = validate_table_name(full)
    return q if ns == "default" else ns + ":" + q


def validate_family_name(name):
    if not name:
        raise IllegalArgument("Column Family name can not be empty")
    if name[0] == ".":
        raise IllegalArgument("Column Family names cannot start with a period: " + name)
    for ch in name:
        if ch in ":\\/" or ord(ch) < 0x20:
            raise IllegalArgument("Column Family names cannot contain control characters or colons: " + name)
    if name in ("recovered.edits",):
        raise IllegalArgument("Column Family name cannot be: " + name)


def verify_split_keys(keys):
    """Admin-side validation: sort, reject empty and duplicates."""
    keys = sorted(keys)
    prev = None
    for k in keys:
        if len(k) == 0:
            raise IllegalArgument("Empty split key must not be passed in the split keys.")
        if prev is not None and prev == k:
            raise IllegalArgument("All split keys must be unique, found duplicate: %s, %s"
                                  % (to_string_binary(prev), to_string_binary(k)))
        prev = k
    return keys


# ----------------------------------------------------------------------------
# model objects

class Region(object):
    __slots__ = ("table", "start", "end", "rid", "replica", "offline", "split",
                 "server", "in_meta", "extra", "reads", "writes", "daughters",
                 "last_loc", "merge_parents", "no_state", "split_refs", "_name", "_enc",
                 "cache")

    def __init__(self, table, start, end, rid, server):
        self.table = table          # canonical table name (str)
        self.start = start
        self.end = end
        self.rid = rid
        self.replica = 0
        self.offline = False
        self.split = False
        self.server = server        # index into State.servers, or None (unassigned)
        self.in_meta = True         # False: "hole" (row removed from meta)
        self.extra = False          # overlap region added by the control channel
        self.reads = 0
        self.writes = 0
        self.daughters = None       # (Region, Region) for a split parent
        # (host, port, startcode) where the region was last OPEN: RegionStateStore writes
        # info:server/serverstartcode only on open and never removes them, so meta and
        # /T/regions keep showing it after a close. None: the region never opened.
        self.last_loc = None
        # the parents of a merge whose files it still references (info:merge0000... in meta)
        self.merge_parents = None
        # True: the region's meta row has no info:state (a row written before states were
        # kept in meta, or damaged); every other column stays
        self.no_state = False
        # a split daughter still holding reference files to its parent's store files (the
        # region server compacts them away when it opens the daughter, unless compactions
        # are off): HBase refuses to merge or split it
        self.split_refs = False
        self._name = None
        self._enc = None
        self.cache = None

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__ if k not in ("cache", "_name", "_enc")}

    def __setstate__(self, d):
        for k in self.__slots__:
            setattr(self, k, d.get(k))

    def _compute(self):
        base = (self.table.encode("utf-8") + b"," + self.start + b"," +
                str(self.rid).encode("ascii"))
        if self.replica:
            base += b"_%04X" % self.replica
        self._enc = hashlib.md5(base).hexdigest()
        self._name = base + b"." + self._enc.encode("ascii") + b"."

    @property
    def name(self):
        if self._name is None:
            self._compute()
        return self._name

    @property
    def encoded(self):
        if self._enc is None:
            self._compute()
        return self._enc

    def contains(self, row):
        return self.start <= row and (not self.end or row < self.end)

    def sort_key(self):
        return meta_sort_key(self.name)


class Table(object):
    def __init__(self, name, families, attrs):
        self.name = name                    # canonical string
        ns, q = validate_table_name(name)
        self.ns, self.qual = ns, q
        self.families = families            # dict name -> dict attrs (str->str)
        self.attrs = attrs                  # dict str->str
        self.enabled = True
        self.opening_until = None           # time.monotonic() until which regions are OPENING
        self.regions = []                   # meta order
        self.keys = []                      # sorted row keys
        self.data = {}                      # key -> {(fam, qual): [(ts, val)...] newest first}
        self.version = 0                    # bumps when regions change
        self._chain = None
        self._meta_rows = None

    def __setstate__(self, d):
        self.__dict__.update(d)
        self.__dict__.setdefault("opening_until", None)

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_chain"] = None
        d["_meta_rows"] = None
        d["opening_until"] = None  # a monotonic time means nothing to another process
        for k in ("_meta_keys", "_meta_keys_src", "_regions_cache"):
            d.pop(k, None)
        return d

    @property
    def name_bytes(self):
        return self.name.encode("utf-8")

    def touch_regions(self):
        self.version += 1
        self.regions.sort(key=lambda r: r.sort_key())
        self._chain = None
        self._meta_rows = None

    def chain(self):
        """(starts, regions) of the data-holding regions (no split parents,
        no overlap extras), sorted by start key."""
        if self._chain is None:
            regs = [r for r in self.regions if not r.extra and not r.split]
            regs.sort(key=lambda r: (r.start, r.rid))
            self._chain = ([r.start for r in regs], regs)
        return self._chain

    def region_for(self, row):
        starts, regs = self.chain()
        i = bisect.bisect_right(starts, row) - 1
        if i < 0:
            return None
        return regs[i]

    def meta_rows(self):
        """Sorted list of (sortkey, Region) for the region rows in meta."""
        if self._meta_rows is None:
            rows = [(r.sort_key(), r) for r in self.regions if r.in_meta]
            rows.sort(key=lambda x: x[0])
            self._meta_rows = rows
        return self._meta_rows

    def family_attrs(self, fam):
        d = dict(DEFAULT_CF_ATTRS)
        d.update(self.families[fam])
        return d

    def sorted_families(self):
        return sorted(self.families.keys(), key=lambda s: s.encode("utf-8"))


def full_cf_attrs(attrs):
    d = {}
    for k, v in DEFAULT_CF_ATTRS:
        d[k] = v
    for k, v in attrs.items():
        d[k] = str(v)
    return d


# ----------------------------------------------------------------------------

class State(object):
    def __init__(self, nservers=3, data_dir=None, cluster_version="2.5.8"):
        self.lock = threading.RLock()
        self.data_dir = data_dir
        self.cluster_version = cluster_version
        # Wire differences between major versions (NOTES.md, "Version modes").
        try:
            self.major = int(str(cluster_version).split(".")[0])
        except ValueError:
            self.major = 2
        self.nservers = nservers
        self.read_only = False
        self.thrift_legacy_17 = False
        self.regioninfo_extra = b""  # bytes appended to every serialized RegionInfo
        # How REST answers a client that accepts protobuf (control /protobuf): "protobuf",
        # "json" (a proxy or old gateway answering JSON), "406" (refused), "cut" (/T/regions
        # protobuf cut one byte past its half, with a matching Content-Length)
        self.protobuf_answer = "protobuf"
        # hbase.rest.scan.fetchsize: rows per protobuf chunk of a stateless scan
        self.scan_fetch_size = 10
        self.races = set()        # table names whose next create loses a race
        self.open_delay = 0.0     # seconds new tables' regions stay OPENING (control channel)
        self.meta_cut = None      # rows a stateless meta scan answers before it "fails" (control)
        self.meta_cut_path = None  # only scans whose path holds this text are cut (None: all)
        # (body, content type, executed) of the 201 answering a schema PUT/POST create,
        # or None: an empty 201 after the create
        self.create_answer = None
        # the shell's compaction_switch (control /compaction-switch): when off, a split's
        # daughters keep their references to the parent's files until a major compaction
        self.compactions = True
        # the master's hbase.regionserver.region.split_restriction.* settings (control
        # /master-config), read when a table's values do not set them
        self.master_conf = {}
        self.servers_version = 0
        self._reset(nservers)
        if data_dir:
            self._load()

    def _reset(self, nservers):
        self.namespaces = {"default": {}, "hbase": {}}
        self.tables = {}
        self.snapshots = {}       # name -> what snapshot_table kept
        self.servers = [{"host": "rs%d.emu.local" % (i + 1), "port": 16020,
                         "startcode": 1700000000000 + i + 1, "alive": True}
                        for i in range(nservers)]
        self.last_rid = 0
        self.rr = 0               # round-robin cursor
        self.meta_reads = 0
        self.meta_writes = 0
        self.servers_version += 1
        self._sorted_tables = None

    # ---- persistence -----------------------------------------------------
    def _state_file(self):
        return os.path.join(self.data_dir, "hbemu-state.pickle")

    def _load(self):
        os.makedirs(self.data_dir, exist_ok=True)
        p = self._state_file()
        if os.path.exists(p):
            with open(p, "rb") as f:
                d = pickle.load(f)
            self.namespaces = d["namespaces"]
            self.tables = d["tables"]
            self.servers = d["servers"]
            self.last_rid = d["last_rid"]
            self.rr = d["rr"]
            for t in self.tables.values():
                t._chain = None
                t._meta_rows = None
            self._sorted_tables = None

    def persist(self):
        if not self.data_dir:
            return
        d = {"namespaces": self.namespaces, "tables": self.tables, "servers": self.servers,
             "last_rid": self.last_rid, "rr": self.rr}
        tmp = self._state_file() + ".tmp"
        with open(tmp, "wb") as f:
            pickle.dump(d, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, self._state_file())

    def reset(self):
        with self.lock:
            self._reset(self.nservers)
            self.read_only = False
            self.regioninfo_extra = b""
            self.protobuf_answer = "protobuf"
            self.scan_fetch_size = 10
            self.races = set()
            self.open_delay = 0.0
            self.meta_cut = None
            self.meta_cut_path = None
            self.create_answer = None
            self.compactions = True
            self.master_conf = {}
            self.persist()

    # ---- helpers -----------------------------------------------------------
    def new_rid(self):
        rid = max(now_ms(), self.last_rid + 1)
        self.last_rid = rid
        return rid

    def next_server(self):
        n = len(self.servers)
        for _ in range(n):
            i = self.rr % n
            self.rr += 1
            if self.servers[i]["alive"]:
                return i
        return None

    def sorted_tables(self):
        if self._sorted_tables is None:
            self._sorted_tables = sorted(self.tables.values(), key=lambda t: t.name_bytes)
        return self._sorted_tables

    def tables_changed(self):
        self._sorted_tables = None

    def server_location(self, r):
        """The server dict where region r is OPEN now, or None (not online)."""
        if r.server is None or r.offline or r.split:
            return None
        t = self.tables.get(r.table)
        if t is not None and (not t.enabled or t.opening_until is not None):
            return None
        if r.server >= len(self.servers):
            return None
        s = self.servers[r.server]
        if not s["alive"]:
            return None
        return s

    def region_state(self, r):
        """RegionState.State name written to info:state for region r."""
        if r.split:
            return "SPLIT"
        if r.offline:
            return "OFFLINE"
        t = self.tables.get(r.table)
        if t is not None and t.opening_until is not None and r.server is not None:
            return "OPENING"
        if self.server_location(r) is not None:
            return "OPEN"
        if r.server is not None and r.server < len(self.servers) and \
                not self.servers[r.server]["alive"] and (t is None or t.enabled):
            # ServerCrashProcedure marks the regions of a dead server ABNORMALLY_CLOSED
            # (AssignmentManager.regionClosedAbnormally); hbemu never reassigns them.
            return "ABNORMALLY_CLOSED"
        return "CLOSED"

    def note_open(self, t, regions=None):
        """Records where each OPEN region of t (or of `regions`) is, as RegionStateStore
        does when a region opens."""
        for r in (regions if regions is not None else t.regions):
            s = self.server_location(r)
            if s is not None:
                r.last_loc = (s["host"], s["port"], s["startcode"])

    def settle(self, t):
        """Ends t's OPENING period once its time has come (regions then open)."""
        if t.opening_until is not None and time.monotonic() >= t.opening_until:
            t.opening_until = None
            self.note_open(t)
            t.touch_regions()

    def open_now(self, name):
        """Ends t's OPENING period now: its regions open (TransitRegionStateProcedure done)."""
        with self.lock:
            t = self.get_table(name)
            if t.opening_until is not None:
                t.opening_until = time.monotonic()
                self.settle(t)
                self.persist()
            return t

    def get_table(self, name):
        try:
            cname = canonical_name(name)
        except IllegalArgument:
            raise
        t = self.tables.get(cname)
        if t is None:
            raise TableNotFound(cname)
        with self.lock:
            self.settle(t)
        return t

    def check_writable(self):
        if self.read_only:
            raise ReadOnly("Thrift Server is in Read-only mode.")

    # ---- DDL -----------------------------------------------------------------
    def create_table(self, name, families, attrs, splits=None, race_check=True):
        """families: list of (name, attrs dict). Raises on errors like HBase."""
        with self.lock:
            cname = canonical_name(name)
            ns, q = validate_table_name(cname)
            if ns == "hbase":
                raise IllegalArgument("Cannot create a table in the system namespace hbase")
            if not families:
                # TableDescriptorChecker.sanityCheck on the master: a DoNotRetryIOException,
                # an IOException to the REST gateway (503) and Thrift2 (TIOError)
                raise SanityCheckFailed("Table should have at least one column family.")
            fams = {}
            for fname, fattrs in families:
                validate_family_name(fname)
                fams[fname] = {str(k): str(v) for k, v in (fattrs or {}).items()}
                self.check_compression(fams[fname].get("COMPRESSION"))
                if (fams[fname].get("BLOOMFILTER", "").upper() == "ROWPREFIX_FIXED_LENGTH"
                        and "RowPrefixBloomFilter.prefix_length" not in fams[fname]):
                    # TableDescriptorChecker.checkBloomFilterType: the prefix length comes
                    # from the family's configuration only (seen on 2.6.1)
                    raise SanityCheckFailed("Failed to get bloom filter param")
            keys = verify_split_keys(list(splits or []))
            if race_check and cname in self.races:
                self.races.discard(cname)
                if cname not in self.tables and ns in self.namespaces:
                    # the "other party" wins the race
                    self._do_create(cname, fams, dict(attrs or {}), keys)
                raise TableExists(cname)
            if ns not in self.namespaces:
                raise NamespaceNotFound(ns)
            if cname in self.tables:
                raise TableExists(cname)
            t = self._do_create(cname, fams, dict(attrs or {}), keys)
            self.persist()
            return t

    def version_tuple(self):
        out = []
        for part in str(self.cluster_version).split(".")[:2]:
            digits = "".join(ch for ch in part if ch.isdigit())
            out.append(int(digits) if digits else 0)
        return tuple(out + [0] * (2 - len(out)))

    def release(self):
        """The cluster version as (major, minor, patch)."""
        parts = []
        for part in str(self.cluster_version).split(".")[:3]:
            digits = "".join(ch for ch in part if ch.isdigit())
            parts.append(int(digits) if digits else 0)
        return tuple(parts + [0] * (3 - len(parts)))

    def prefix_filter_always(self):
        """A stateless scan's PrefixFilter without a `filter` parameter: HBASE-28518, in
        2.4.18, 2.5.9 and 2.6.0 (and 3.x)."""
        v = self.release()
        return v >= (2, 6, 0) or (2, 5, 9) <= v < (2, 6, 0) or (2, 4, 18) <= v < (2, 5, 0)

    def check_compression(self, name):
        """Compression.Algorithm.valueOf(name.toUpperCase()) as the master's descriptor
        check does: LZMA and BROTLI exist from 2.5 (NOTES.md, "Compression names")."""
        if name is None:
            return
        known = {"NONE", "GZ", "LZO", "SNAPPY", "LZ4", "BZIP2", "ZSTD"}
        if self.version_tuple() >= (2, 5):
            known |= {"LZMA", "BROTLI"}
        if name.upper() not in known:
            raise HBaseError("java.lang.IllegalArgumentException: No enum constant "
                             "org.apache.hadoop.hbase.io.compress.Compression.Algorithm.%s"
                             % name.upper())

    def _do_create(self, cname, fams, attrs, keys):
        t = Table(cname, fams, {str(k): str(v) for k, v in attrs.items()})
        rid = self.new_rid()
        bounds = [b""] + keys + [b""]
        regs = []
        for i in range(len(keys) + 1):
            regs.append(Region(cname, bounds[i], bounds[i + 1], rid, self.next_server()))
        # created in key order; meta order for one rid is start-key order
        t.regions = regs
        t.version += 1
        if self.open_delay > 0:
            t.opening_until = time.monotonic() + self.open_delay
        else:
            self.note_open(t)
        self.tables[cname] = t
        self.tables_changed()
        return t

    def delete_table(self, name):
        with self.lock:
            t = self.get_table(name)
            if t.enabled:
                raise TableNotDisabled(t.name)
            del self.tables[t.name]
            self.tables_changed()
            self.persist()

    def disable_table(self, name):
        with self.lock:
            t = self.get_table(name)
            if not t.enabled:
                # the procedure's constructor (preflightChecks) refuses it; the TIOError
                # carries the exception and its trace (seen on 2.6.1)
                raise TableNotEnabled(java_trace("org.apache.hadoop.hbase.TableNotEnabledException",
                                                 t.name, 163, "DisableTableProcedure", 78))
            t.enabled = False
            t.touch_regions()
            self.persist()

    def enable_table(self, name):
        with self.lock:
            t = self.get_table(name)
            if t.enabled:
                # EnableTableProcedure.prepareEnable: the TableState's text (seen on 2.6.1)
                raise TableNotDisabled("tableName=%s, state=%s" % (
                    t.name, "ENABLING" if t.opening_until is not None else "ENABLED"))
            t.enabled = True
            self.note_open(t)
            t.touch_regions()
            self.persist()

    def truncate_table(self, name, preserve):
        """TruncateTableProcedure: the table must be DISABLED (its constructor's preflightChecks);
        it is recreated with the same descriptor, with the old split points when preserve,
        and ends ENABLED with new region ids."""
        with self.lock:
            t = self.get_table(name)
            if t.enabled:
                raise TableNotDisabled(java_trace("org.apache.hadoop.hbase.TableNotDisabledException",
                                                  t.name, 167, "TruncateTableProcedure", 67))
            keys = [r.start for r in t.chain()[1] if r.start] if preserve else []
            del self.tables[t.name]
            nt = self._do_create(t.name, t.families, t.attrs, keys)
            nt.enabled = True
            self.persist()

    def replace_schema(self, name, families, attrs):
        """REST PUT on an existing table: the new descriptor replaces the old,
        unlisted families (and their cells) are dropped."""
        with self.lock:
            t = self.get_table(name)
            fams = {}
            for fname, fattrs in families:
                validate_family_name(fname)
                fams[fname] = {str(k): str(v) for k, v in (fattrs or {}).items()}
            if not fams:
                # TableDescriptorChecker.sanityCheck on the master: a DoNotRetryIOException,
                # an IOException to the REST gateway (503) and Thrift2 (TIOError)
                raise SanityCheckFailed("Table should have at least one column family.")
            dropped = set(t.families) - set(fams)
            t.families = fams
            t.attrs = {str(k): str(v) for k, v in attrs.items()}
            if dropped:
                dropped_b = {f.encode("utf-8") for f in dropped}
                for k in list(t.keys):
                    row = t.data[k]
                    for col in [c for c in row if c[0] in dropped_b]:
                        del row[col]
                    if not row:
                        del t.data[k]
                t.keys = sorted(t.data)
            for fam in fams:
                self._trim_family(t, fam)
            t.touch_regions()
            self.persist()

    def modify_families(self, name, families):
        """REST POST on an existing table: add or modify the listed families."""
        with self.lock:
            t = self.get_table(name)
            for fname, fattrs in families:
                validate_family_name(fname)
            for fname, fattrs in families:
                t.families[fname] = {str(k): str(v) for k, v in (fattrs or {}).items()}
                self._trim_family(t, fname)
            t.touch_regions()
            self.persist()

    def _trim_family(self, t, fam):
        try:
            maxv = int(t.family_attrs(fam).get("VERSIONS", "1"))
        except ValueError:
            maxv = 1
        fb = fam.encode("utf-8")
        for row in t.data.values():
            for col, cells in row.items():
                if col[0] == fb and len(cells) > maxv:
                    del cells[maxv:]

    # ---- namespaces ----------------------------------------------------------
    def create_namespace(self, ns, props):
        with self.lock:
            if ns in self.namespaces:
                raise NamespaceExists(ns)
            for ch in ns:
                if not _ns_char_ok(ch):
                    raise IllegalArgument("Illegal character <%s> in namespace %s" % (ch, ns))
            self.namespaces[ns] = dict(props)
            self.persist()

    def alter_namespace(self, ns, props):
        with self.lock:
            if ns not in self.namespaces:
                raise NamespaceNotFound(ns)
            self.namespaces[ns] = dict(props)
            self.persist()

    def delete_namespace(self, ns):
        with self.lock:
            if ns not in self.namespaces:
                raise NamespaceNotFound(ns)
            if ns in ("default", "hbase"):
                raise ConstraintError("Reserved namespace %s cannot be removed." % ns)
            if any(t.ns == ns for t in self.tables.values()):
                raise ConstraintError("Only empty namespaces can be removed. Namespace %s has %d tables"
                                      % (ns, sum(1 for t in self.tables.values() if t.ns == ns)))
            del self.namespaces[ns]
            self.persist()

    # ---- cells ---------------------------------------------------------------
    def put_rows(self, t, rows):
        """rows: list of (key, [(fam bytes, qual bytes, ts or None, value)])."""
        with self.lock:
            for key, cells in rows:
                for fam, qual, ts, val in cells:
                    try:
                        fs = fam.decode("utf-8")
                    except UnicodeDecodeError:
                        fs = None
                    if fs not in t.families:
                        raise NoSuchFamily("Column family %s does not exist in region %s in table %s"
                                           % (to_string_binary(fam), "x", t.name))
            now = now_ms()
            for key, cells in rows:
                if not key:
                    raise IllegalArgument("Row length is 0")
                row = t.data.get(key)
                if row is None:
                    row = t.data[key] = {}
                    bisect.insort(t.keys, key)
                for fam, qual, ts, val in cells:
                    if ts is None or ts == LONG_MAX:
                        ts = now
                    col = (fam, qual)
                    lst = row.setdefault(col, [])
                    lst[:] = [c for c in lst if c[0] != ts]
                    lst.append((ts, val))
                    lst.sort(key=lambda c: -c[0])
                    try:
                        maxv = int(t.family_attrs(fam.decode("utf-8")).get("VERSIONS", "1"))
                    except ValueError:
                        maxv = 1
                    del lst[max(maxv, 1):]
                r = t.region_for(key)
                if r is not None:
                    r.writes += 1
            self.persist()

    @staticmethod
    def select_cells(row, cols=None, ts_exact=None, tmin=0, tmax=LONG_MAX, maxv=1):
        """Return [(fam, qual, ts, val)] in HBase order. cols: list of
        (fam, qual or None) or None for all."""
        out = []
        for col in sorted(row):
            if cols:
                ok = False
                for f, q in cols:
                    if f == col[0] and (q is None or q == col[1]):
                        ok = True
                        break
                if not ok:
                    continue
            n = 0
            for ts, val in row[col]:
                if ts_exact is not None:
                    if ts != ts_exact:
                        continue
                elif not (tmin <= ts < tmax):
                    continue
                out.append((col[0], col[1], ts, val))
                n += 1
                if n >= maxv:
                    break
        return out

    def count_read(self, t, key):
        r = t.region_for(key)
        if r is not None:
            r.reads += 1

    def delete_cells(self, t, key, cols=None, ts=None):
        """cols: list of (fam, qual or None) or None; ts: delete cells <= ts."""
        with self.lock:
            row = t.data.get(key)
            if row is None:
                return
            for col in list(row):
                if cols:
                    if not any(f == col[0] and (q is None or q == col[1]) for f, q in cols):
                        continue
                if ts is None:
                    del row[col]
                else:
                    row[col] = [c for c in row[col] if c[0] > ts]
                    if not row[col]:
                        del row[col]
            if not row:
                del t.data[key]
                i = bisect.bisect_left(t.keys, key)
                if i < len(t.keys) and t.keys[i] == key:
                    del t.keys[i]
            r = t.region_for(key)
            if r is not None:
                r.writes += 1
            self.persist()

    def iter_rows(self, t, start=b"", end=b""):
        """Yield keys of table t in [start, end) (end empty: unbounded),
        tolerating concurrent modification."""
        with self.lock:
            i = bisect.bisect_left(t.keys, start)
        while True:
            with self.lock:
                if i >= len(t.keys):
                    return
                key = t.keys[i]
            if end and key >= end:
                return
            yield key
            with self.lock:
                i = bisect.bisect_right(t.keys, key)

    # ---- region defects / topology (control channel) ---------------------------
    def region_at(self, t, index):
        regs = t.chain()[1]
        if index < 0 or index >= len(regs):
            raise IllegalArgument("region index %d out of range (0..%d)" % (index, len(regs) - 1))
        return regs[index]

    def split_region(self, name, key, leave_parent):
        with self.lock:
            t = self.get_table(name)
            r = t.region_for(key)
            if r is None or key == r.start:
                raise IllegalArgument("split key %s is a region boundary" % to_string_binary(key))
            rid = self.new_rid()
            a = Region(t.name, r.start, key, rid, r.server)
            b = Region(t.name, key, r.end, rid, self.next_server())
            # split the counters between the daughters by the rows they hold
            t.regions.remove(r)
            t.regions += [a, b]
            self.note_open(t, [a, b])
            if leave_parent:
                r.offline = True
                r.split = True
                r.daughters = (a, b)
                t.regions.append(r)
            t.touch_regions()
            self.persist()
            return a, b

    def merge_regions(self, name, index):
        with self.lock:
            t = self.get_table(name)
            a = self.region_at(t, index)
            b = self.region_at(t, index + 1)
            m = Region(t.name, a.start, b.end, self.new_rid(), a.server)
            m.reads = a.reads + b.reads
            m.writes = a.writes + b.writes
            t.regions.remove(a)
            t.regions.remove(b)
            t.regions.append(m)
            self.note_open(t, [m])
            t.touch_regions()
            self.persist()
            return m

    # ---- merge_region / split as the shell asks the master for them -----------------
    def _region_by_name(self, name):
        """(table, region) for an encoded region name or a full one ("t,start,id.enc.")."""
        enc = name
        if not (len(name) == 32 and all(c in "0123456789abcdef" for c in name)):
            if len(name) >= 34 and name.endswith(".") and name[-34] == ".":
                enc = name[-33:-1]
            else:
                return None, None
        for t in self.tables.values():
            for r in t.regions:
                if r.encoded == enc and r.in_meta:
                    return t, r
        return None, None

    def merge_named(self, names, force=False):
        """Admin.mergeRegionsAsync: MergeTableRegionsProcedure checks the regions in the order
        given, each against the one before it (adjacent, or overlapping, unless force), before
        it sorts them; the merged region gets a new id (so a new encoded name), the lowest
        start and the highest end, and the parents leave hbase:meta. Rows stay where they are
        (the emulator keeps them per table)."""
        with self.lock:
            if len(set(names)) != len(names):
                raise MergeRegion("Duplicate regions specified; cannot merge a region to itself. "
                                  "Passed in %d but only %d unique." % (len(names), len(set(names))))
            if len(names) < 2:
                raise MergeRegion("Need two Regions at least to run a Merge")
            regs, table = [], None
            for n in names:
                t, r = self._region_by_name(n)
                if r is None:
                    raise UnknownRegion(n)
                if table is not None and t is not table:
                    raise MergeRegion("Can't merge regions from different tables")
                table = t
                regs.append(r)
            for prev, r in zip(regs, regs[1:]):
                adjacent = prev.end == r.start or r.end == prev.start
                overlap = (prev.start < r.end or not r.end) and (r.start < prev.end or not prev.end)
                if not force and not adjacent and not overlap:
                    raise MergeRegion("Unable to merge non-adjacent or non-overlapping regions "
                                      "'%s', '%s' when force=false" % (prev.encoded, r.encoded))
            for r in regs:
                if r.replica:
                    raise MergeRegion("Can't merge non-default replicas")
                if r.merge_parents:
                    raise MergeRegion(
                        "Skip merging %s, because a parent, %s, has a merge qualifier (if a "
                        "'merge column' in parent, it was recently merged but still has "
                        "outstanding references to its parents that must be cleared before it "
                        "can participate in merge -- major compact it to hurry clearing of its "
                        "references)" % (", ".join(x.encoded for x in regs), r.encoded))
                if r.offline or r.split or self.server_location(r) is None:
                    raise MergeRegion("Unable to merge regions that are NOT online: %s"
                                      % r.encoded)
                if r.split_refs:
                    # the region server's isMergeable: false while the region has references
                    raise MergeRegion("Skip merging %s, because a parent, %s, is not mergeable"
                                      % (", ".join(x.encoded for x in regs), r.encoded))
            regs.sort(key=lambda r: r.start)
            end = b"" if any(not r.end for r in regs) else max(r.end for r in regs)
            rid = max(self.new_rid(), max(r.rid for r in regs) + 1)
            m = Region(table.name, regs[0].start, end, rid, regs[0].server)
            # closing the parents flushed their rows to files the merged region references
            # until a compaction rewrites them; meta then keeps naming the parents
            i = bisect.bisect_left(table.keys, m.start)
            if i < len(table.keys) and (not m.end or table.keys[i] < m.end):
                m.merge_parents = list(regs)
            for r in regs:
                table.regions.remove(r)
            table.regions.append(m)
            self.note_open(table, [m])
            table.touch_regions()
            self.persist()
            return m

    def restricted_split_point(self, t, key):
        """RegionSplitRestriction.create(table descriptor, master configuration): the type,
        prefix length and delimiter from the table's values, else the master's; a KeyPrefix
        split point keeps its first prefix_length bytes, a DelimitedKeyPrefix one the bytes
        before the first delimiter (none: unchanged)."""
        base = "hbase.regionserver.region.split_restriction."

        def value(k, empty_is_unset=False):
            v = t.attrs.get(base + k)
            if v is None or (empty_is_unset and v == ""):
                v = self.master_conf.get(base + k)
            return v
        kind = value("type") or "None"
        if kind == "KeyPrefix":
            try:
                n = int(value("prefix_length") or "")
            except ValueError:
                n = 0
            return key[:n] if n > 0 else key
        if kind == "DelimitedKeyPrefix":
            d = (value("delimiter", True) or "").encode("utf-8")
            i = key.find(d) if d else -1
            return key[:i] if i >= 0 else key
        return key

    def split_named(self, name, key):
        """Admin.splitRegion (a region's name, encoded or full) or Admin.split (a table: the
        region holding key): SplitTableRegionProcedure refuses a split row equal to the start
        key or outside the region; the parent stays in meta as an offline split parent."""
        with self.lock:
            t, r = self._region_by_name(name)
            if r is None:
                t = self.get_table(name)
                r = t.region_for(key)
            if r is None or r.offline or r.split:
                raise UnknownRegion(name)
            key = self.restricted_split_point(t, key)
            if r.merge_parents or r.split_refs:
                raise SplitRegion("%s NOT splittable" % r.encoded)
            if key == r.start:
                raise SplitRegion("Split row is equal to startkey: %s" % to_string_binary(key))
            if not r.contains(key):
                raise SplitRegion("Split row is not inside region key range splitKey:%s region: %s"
                                  % (to_string_binary(key), r.encoded))
            a, b = self.split_region(t.name, key, True)
            if not self.compactions:
                # HRegionFileSystem.splitStoreFile: the parent's rows (flushed at the close)
                # in files that span the split row are referenced by both daughters; a file
                # on one side only goes to its daughter as an HFileLink, no reference. The
                # emulator keeps no files: its rows on both sides stand for such a file
                def holds(lo, hi):
                    i = bisect.bisect_left(t.keys, lo)
                    return i < len(t.keys) and (not hi or t.keys[i] < hi)
                if holds(a.start, a.end) and holds(b.start, b.end):
                    a.split_refs = b.split_refs = True
                self.persist()
            return a, b

    def compact_named(self, name):
        """major_compact of a region (encoded or full name) or a table: the references of
        merged regions and split daughters are rewritten, and the CatalogJanitor's next run
        (immediate here) drops their merge qualifiers and the split parents' rows. The
        emulator compacts the whole table either way."""
        with self.lock:
            t, r = self._region_by_name(name)
            if t is None:
                t = self.get_table(name)
            if not self.compactions:
                # CompactSplit.requestCompactionInternal ignores requests while off
                return t
            for x in t.regions:
                x.merge_parents = None
                x.split_refs = False
            t.regions = [x for x in t.regions if not (x.split and x.daughters)]
            t.touch_regions()
            self.persist()
            return t

    def set_offline(self, name, index):
        with self.lock:
            t = self.get_table(name)
            r = self.region_at(t, index)
            r.offline = True
            t.touch_regions()
            self.persist()
            return r

    def unassign(self, name, index):
        with self.lock:
            t = self.get_table(name)
            r = self.region_at(t, index)
            r.server = None
            t.touch_regions()
            self.persist()
            return r

    def make_hole(self, name, index):
        with self.lock:
            t = self.get_table(name)
            r = self.region_at(t, index)
            r.in_meta = False
            t.touch_regions()
            self.persist()
            return r

    def drop_state(self, name, index):
        with self.lock:
            t = self.get_table(name)
            r = self.region_at(t, index)
            r.no_state = True
            r.cache = None
            t.touch_regions()
            self.persist()
            return r

    def add_overlap(self, name, start, end):
        with self.lock:
            t = self.get_table(name)
            r = Region(t.name, start, end, self.new_rid(), self.next_server())
            r.extra = True
            t.regions.append(r)
            self.note_open(t, [r])
            t.touch_regions()
            self.persist()
            return r

    def set_server(self, index, alive):
        with self.lock:
            if index < 0 or index >= len(self.servers):
                raise IllegalArgument("no server %d" % index)
            s = self.servers[index]
            if alive and not s["alive"]:
                s["alive"] = True
                s["startcode"] = max(now_ms(), s["startcode"] + 1)
            elif not alive:
                s["alive"] = False
            self.servers_version += 1
            for t in self.tables.values():
                if alive:
                    self.note_open(t, [r for r in t.regions if r.server == index])
                t.touch_regions()
            self.persist()

    # ---- snapshots (the master's SnapshotManager) -------------------------------
    def snapshot_table(self, table, name, ttl=0):
        """A copy of the table's descriptor, split points and cells, kept under name. As
        2.6.1: an illegal name is an IllegalArgumentException, a missing table a
        SnapshotCreationException, a name in use a SnapshotExistsException. ttl: the TTL in
        seconds the shell's {TTL => N} asked for (0: none, kept for listings only)."""
        with self.lock:
            check_snapshot_name(name)
            snaps = self.__dict__.setdefault("snapshots", {})
            try:
                t = self.get_table(table)
            except TableNotFound:
                raise SnapshotCreation("Table '%s' doesn't exist, can't take snapshot." % table)
            if name in snaps:
                raise SnapshotExists("Snapshot '%s' already stored on the filesystem." % name)
            snaps[name] = {"name": name, "table": t.name, "created": now_ms(), "ttl": int(ttl),
                           "families": copy.deepcopy(t.families), "attrs": dict(t.attrs),
                           "splits": [r.start for r in t.chain()[1] if r.start],
                           "keys": list(t.keys), "data": copy.deepcopy(t.data)}
            return snaps[name]

    def list_snapshots(self, regex=".*"):
        """The completed snapshots whose name matches regex (Pattern.matcher().matches())."""
        with self.lock:
            pat = re.compile(regex)
            snaps = self.__dict__.setdefault("snapshots", {})
            return [snaps[n] for n in sorted(snaps) if pat.fullmatch(n)]

    def clone_snapshot(self, name, table):
        """A new table with the snapshot's descriptor, split points and cells."""
        with self.lock:
            snap = self.__dict__.setdefault("snapshots", {}).get(name)
            if snap is None:
                raise SnapshotDoesNotExist("Snapshot '%s' doesn't exist on the filesystem" % name)
            t = self.create_table(table, list(snap["families"].items()), snap["attrs"],
                                  snap["splits"], race_check=False)
            t.keys = list(snap["keys"])
            t.data = copy.deepcopy(snap["data"])
            self.persist()
            return t

    def dump(self):
        with self.lock:
            out = {"namespaces": sorted(self.namespaces), "read_only": self.read_only,
                   "servers": [dict(s, index=i, name="%s,%d,%d" % (s["host"], s["port"], s["startcode"]))
                               for i, s in enumerate(self.servers)],
                   "tables": []}
            for t in self.sorted_tables():
                self.settle(t)
                regs = []
                for r in t.regions:
                    loc = self.server_location(r)
                    regs.append({"start": b64(r.start), "end": b64(r.end), "id": r.rid,
                                 "state": self.region_state(r),
                                 "last_location": ("%s:%d" % r.last_loc[:2]) if r.last_loc else None,
                                 "replica": r.replica, "offline": r.offline, "split": r.split,
                                 "in_meta": r.in_meta, "overlap": r.extra,
                                 "server": r.server,
                                 "location": ("%s:%d" % (loc["host"], loc["port"])) if loc else None,
                                 "name": b64(r.name), "encoded": r.encoded,
                                 "reads": r.reads, "writes": r.writes})
                out["tables"].append({"name": t.name, "enabled": t.enabled,
                                      "families": {f: t.family_attrs(f) for f in t.sorted_families()},
                                      "attrs": t.attrs, "rows": len(t.keys), "regions": regs})
            return out


# ---- snapshots ----------------------------------------------------------------

class SnapshotExists(HBaseError):
    java = "org.apache.hadoop.hbase.snapshot.SnapshotExistsException"
    do_not_retry = True


class SnapshotCreation(HBaseError):
    java = "org.apache.hadoop.hbase.snapshot.SnapshotCreationException"
    do_not_retry = True


class SnapshotDoesNotExist(HBaseError):
    java = "org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException"
    do_not_retry = True


def check_snapshot_name(name):
    """TableName.isLegalTableQualifierName(name, true): [a-zA-Z_0-9-.], not starting with
    '.' or '-'; the message as 2.6.1's."""
    if not name:
        raise IllegalArgument("Snapshot name must not be empty")
    for i, ch in enumerate(name):
        ok = ch.isascii() and (ch.isalnum() or ch in "_-.")
        if not ok or (i == 0 and ch in ".-"):
            raise IllegalArgument("Illegal character code:%d, <%s> at %d. Snapshot qualifiers "
                                  "may only contain 'alphanumeric characters' and digits: %s"
                                  % (ord(ch), ch, i, name))
