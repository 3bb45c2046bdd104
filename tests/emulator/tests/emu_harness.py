"""Helpers for the emulator's own tests: start hbemu.py on free ports, talk
to its REST, Thrift and control servers."""
import base64
import http.client
import importlib.util
import json
import os
import socket
import ssl
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EMU_DIR = os.path.dirname(HERE)
HBEMU = os.path.join(EMU_DIR, "hbemu.py")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SHELL = os.path.join(EMU_DIR, "shell", "hbase-shell")


def _load_launch():
    """tests/e2e/lib/launch.py, the one reader of the emulator's ready line."""
    path = os.path.join(os.path.dirname(EMU_DIR), "e2e", "lib", "launch.py")
    spec = importlib.util.spec_from_file_location("hbemu_launch", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


launch = _load_launch()


def b64(b):
    return base64.b64encode(b).decode("ascii")


def unb64(s):
    return base64.b64decode(s)


class Emu(object):
    def __init__(self, *args):
        self.proc = subprocess.Popen([PY, HBEMU] + list(args), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE if os.environ.get("HBEMU_TEST_QUIET") else None)
        line = self.proc.stdout.readline().decode("utf-8")
        if not line.startswith(launch.READY):
            self.proc.kill()
            raise RuntimeError("emulator did not start: %r" % line)
        self.ready_line = line
        self.ports = launch.ready_ports(line)
        self.rest_port = self.ports["rest"]
        self.thrift_port = self.ports["thrift"]
        self.control_port = self.ports["control"]
        self.tls = "--tls-cert" in args

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        if self.proc.stderr:
            self.proc.stderr.close()

    def _conn(self, port, timeout=30):
        if self.tls:
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            return http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=ctx)
        return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def http(self, port, method, path, body=None, headers=None):
        c = self._conn(port)
        try:
            if isinstance(body, (dict, list)):
                body = json.dumps(body).encode("utf-8")
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, data
        finally:
            c.close()

    def rest(self, method, path, body=None, headers=None, accept="application/json"):
        h = dict(headers or {})
        if accept is not None and "Accept" not in h:
            h["Accept"] = accept
        if body is not None and "Content-Type" not in h:
            h["Content-Type"] = "application/json"
        return self.http(self.rest_port, method, path, body, h)

    def rest_json(self, path):
        st, h, b = self.rest("GET", path)
        if st != 200:
            raise AssertionError("GET %s -> %d %r" % (path, st, b))
        return json.loads(b)

    def control(self, method, path, obj=None):
        st, h, b = self.http(self.control_port, method, path, obj)
        return st, (json.loads(b) if b else None)

    def create(self, table, splits=(), families=None, attrs=None):
        fams = families or [{"name": "cf", "attrs": {"VERSIONS": "3"}}]
        st, d = self.control("POST", "/control/create", {"table": table, "families": fams,
                                                         "attrs": attrs or {},
                                                         "splits": [b64(s) for s in splits]})
        if st != 201:
            raise AssertionError("create %s failed: %d %r" % (table, st, d))
        return d

    def put(self, table, key, col, value, ts=None):
        cell = {"column": b64(col), "$": b64(value)}
        if ts is not None:
            cell["timestamp"] = ts
        return self.rest("PUT", "/%s/fakerow" % table, {"Row": [{"key": b64(key), "Cell": [cell]}]})

    def open_scanner(self, table, model):
        st, h, b = self.rest("POST", "/%s/scanner" % table, model)
        if st != 201:
            raise AssertionError("scanner create %d %r" % (st, b))
        loc = h["location"]
        return loc.split(str(self.rest_port), 1)[1]

    def scan_all(self, table, model):
        """Stateful scan; returns list of (key, [(col, ts, value)]) merged by row."""
        path = self.open_scanner(table, model)
        rows = []
        calls = 0
        while True:
            st, h, b = self.rest("GET", path)
            calls += 1
            if st == 204:
                break
            assert st == 200, (st, b)
            for r in json.loads(b)["Row"]:
                key = unb64(r["key"])
                cells = [(unb64(c["column"]), c["timestamp"], unb64(c["$"])) for c in r["Cell"]]
                if rows and rows[-1][0] == key:
                    rows[-1][1].extend(cells)
                else:
                    rows.append((key, cells))
        self.rest("DELETE", path)
        return rows, calls

    def reset(self):
        st, _ = self.control("POST", "/control/reset")
        assert st == 200


class EmuTestCase(unittest.TestCase):
    emu_args = ()

    @classmethod
    def setUpClass(cls):
        cls.emu = Emu(*cls.emu_args)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()

    def setUp(self):
        self.emu.reset()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p
