"""hbase:meta read in ranges (the listing of `regions T --source meta` and `audit T --source
meta` on a table of thousands of regions): the table, its split keys, and the requests of the
listing picked out of a request log."""
import re

import hbtest

TABLE = "big"
REGIONS = 12000

META_SCAN = re.compile(r"^/hbase(%3A|:)meta/\*\?", re.I)
# the sample: RowFilter(=,'regexstring:00\.$') AND FirstKeyOnlyFilter() AND KeyOnlyFilter()
SAMPLE = "regexstring"
# a range: startrow=T,<start key>, (a look between ranges starts after a whole row key)
RANGE = r"[?&]startrow=%s%%2C[0-9a-fA-F]{8}%%2C&" % TABLE
PB = "application/x-protobuf"


def startrow(path):
    m = re.search(r"[?&]startrow=([^&]*)", path)
    return m.group(1) if m else None


def hex_splits(n=REGIONS):
    """The split keys `hbtab create --hex-splits n` makes (8 hex digits each)."""
    r = hbtest.run(["-o", "json", "splits", "--hex-splits", str(n)])
    if r.rc != 0:
        raise RuntimeError("hbtab splits failed: %r" % r)
    return [hbtest.unb64(k["base64"]) for k in r.json()["splits"]]


def meta_scans(log):
    """The stateless scans of hbase:meta in a request log."""
    return [q for q in log if q["method"] == "GET" and META_SCAN.search(q["path"])]


def samples(log):
    return [q for q in meta_scans(log) if SAMPLE in q["path"]]


def ranges(log):
    """The range requests of table TABLE (startrow=TABLE,<start key>,), however answered."""
    return [q for q in meta_scans(log) if re.search(RANGE, q["path"])]
