"""Locate or produce the Python modules generated from hbase.thrift and
hbase.proto (thrift --gen py, protoc --python_out) and import them."""
import hashlib
import importlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THRIFT_IDL = os.path.join(HERE, "hbase.thrift")
PROTO_IDL = os.path.join(HERE, "hbase.proto")


def _idl_hash():
    h = hashlib.sha256()
    for p in (THRIFT_IDL, PROTO_IDL):
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def default_gen_dir():
    base = os.environ.get("TMPDIR") or tempfile.gettempdir()
    return os.path.join(base, "hbemu-gen-" + _idl_hash())


def _have(d):
    return (os.path.exists(os.path.join(d, "hbase", "THBaseService.py"))
            and os.path.exists(os.path.join(d, "hbase", "ttypes.py"))
            and os.path.exists(os.path.join(d, "hbase_pb2.py")))


def ensure_generated(gen_dir=None):
    """Make sure gen_dir holds the generated modules; return the directory."""
    d = os.path.abspath(gen_dir or default_gen_dir())
    if not _have(d):
        os.makedirs(d, exist_ok=True)
        # generate into a private temp dir, then move into place (several
        # emulators may start at once with the same cache dir)
        tmp = tempfile.mkdtemp(prefix=".gen-", dir=d)
        subprocess.run(["thrift", "-r", "--gen", "py", "-out", tmp, THRIFT_IDL],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        subprocess.run(["protoc", "--python_out=" + tmp, "--proto_path=" + HERE, PROTO_IDL],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for name in ("hbase", "hbase_pb2.py"):
            src = os.path.join(tmp, name)
            dst = os.path.join(d, name)
            if not os.path.exists(dst):
                try:
                    os.rename(src, dst)
                except OSError:
                    pass
        subprocess.run(["rm", "-rf", tmp], check=False)
        if not _have(d):
            raise RuntimeError("code generation into %s failed" % d)
    return d


_loaded = {}


def load(gen_dir=None):
    """Import and return (THBaseService, ttypes, hbase_pb2)."""
    if _loaded:
        return _loaded["svc"], _loaded["ttypes"], _loaded["pb"]
    d = ensure_generated(gen_dir)
    if d not in sys.path:
        sys.path.insert(0, d)
    svc = importlib.import_module("hbase.THBaseService")
    ttypes = importlib.import_module("hbase.ttypes")
    pb = importlib.import_module("hbase_pb2")
    _loaded.update(svc=svc, ttypes=ttypes, pb=pb, dir=d)
    return svc, ttypes, pb
