"""Shared fixtures for hbtab's end-to-end tests: run the real binary, drive the emulator."""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.request
import urllib.error

HBTAB = os.environ.get("HBTAB_BIN", "")
SRC = os.environ.get("HBTAB_SRC", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GEN_DIR = os.environ.get("HBEMU_GEN_DIR", "")
PYTHON = os.environ.get("HBTAB_PYTHON", "/usr/bin/python3")
EMULATOR = os.path.join(SRC, "tests", "emulator", "hbemu.py")
SHELL_STANDIN = os.path.join(SRC, "tests", "emulator", "shell", "hbase-shell.rb")


def b64(data):
    if isinstance(data, str):
        data = data.encode()
    return base64.b64encode(data).decode()


def unb64(text):
    return base64.b64decode(text)


def tsb(data):
    """Bytes.toStringBinary, written independently of the C code."""
    out = []
    for b in data:
        if 0x20 <= b <= 0x7E and b != 0x5C:
            out.append(chr(b))
        else:
            out.append("\\x%02X" % b)
    return "".join(out)


class Result:
    def __init__(self, rc, out, err):
        self.rc = rc
        self.out_bytes = out
        self.out = out.decode("utf-8", "replace")
        self.err = err.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.out)

    def __repr__(self):
        return "rc=%d\n--stdout--\n%s\n--stderr--\n%s" % (self.rc, self.out[:4000], self.err[:4000])


class Emulator:
    """One emulator process on free loopback ports."""

    def __init__(self, servers=3, args=(), env=None):
        self.tmp = tempfile.mkdtemp(prefix="hbemu-")
        cmd = [PYTHON, EMULATOR, "--servers", str(servers)]
        if GEN_DIR:
            cmd += ["--gen-dir", GEN_DIR]
        cmd += list(args)
        penv = None
        if env:
            penv = dict(os.environ)
            penv.update(env)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=penv,
                                     stderr=open(os.path.join(self.tmp, "emu.log"), "wb"))
        line = self.proc.stdout.readline().decode()
        if not line.startswith("HBEMU-READY "):
            self.stop()
            raise RuntimeError("emulator did not start: %r\n%s" % (line, self.log()))
        self.ports = json.loads(line[len("HBEMU-READY "):])
        scheme = "https" if "--tls-cert" in args else "http"
        self.rest = "%s://127.0.0.1:%d" % (scheme, self.ports["rest"])
        self.thrift = "%s://127.0.0.1:%d/" % (scheme, self.ports["thrift"])
        self.control_url = "http://127.0.0.1:%d" % self.ports["control"]

    def log(self):
        try:
            with open(os.path.join(self.tmp, "emu.log"), "rb") as f:
                return f.read().decode("utf-8", "replace")[-4000:]
        except OSError:
            return ""

    def control(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.control_url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                text = r.read()
                return r.status, (json.loads(text) if text.strip() else None)
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, text.decode("utf-8", "replace")

    def create(self, table, splits=(), families=("cf",), attrs=None):
        st, body = self.control("POST", "/control/create", {
            "table": table, "families": [{"name": f, "attrs": {}} for f in families],
            "attrs": attrs or {}, "splits": [b64(s) for s in splits]})
        if st != 201:
            raise RuntimeError("create %s failed: %s %s" % (table, st, body))

    def fault(self, **kw):
        st, body = self.control("POST", "/control/fault", kw)
        if st not in (200, 201):
            raise RuntimeError("fault failed: %s %s" % (st, body))

    def clear_faults(self):
        self.control("DELETE", "/control/fault")

    def requests(self):
        return self.control("GET", "/control/requests")[1]

    def clear_requests(self):
        self.control("DELETE", "/control/requests")

    def reset(self):
        self.control("POST", "/control/reset")

    def state(self):
        return self.control("GET", "/control/state")[1]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def clean_env(home, extra=None):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(home, ".config")}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    if extra:
        env.update(extra)
    return env


def run(args, env=None, home=None, stdin=None, timeout=120):
    own_home = home is None
    if own_home:
        home = tempfile.mkdtemp(prefix="hbtab-home-")
    try:
        p = subprocess.run([HBTAB] + [str(a) for a in args], input=stdin, capture_output=True,
                           env=clean_env(home, env), timeout=timeout)
        return Result(p.returncode, p.stdout, p.stderr)
    finally:
        if own_home:
            shutil.rmtree(home, ignore_errors=True)


class OfflineTest(unittest.TestCase):
    """Base for tests that need only the binary."""

    def hb(self, *args, **kw):
        return run(list(args), **kw)

    def assertOk(self, r, msg=None):
        self.assertEqual(r.rc, 0, msg or repr(r))

    def assertFails(self, r, rc, pattern=None):
        self.assertEqual(r.rc, rc, repr(r))
        self.assertTrue(r.err.startswith("hbtab: "), repr(r))
        if pattern is not None:
            self.assertRegex(r.err, pattern)
        return r


class EmulatorTest(OfflineTest):
    """Base for tests against one emulator shared by the class; state is reset per test."""
    servers = 3
    emulator_args = ()

    @classmethod
    def setUpClass(cls):
        cls.emu = Emulator(cls.servers, cls.emulator_args)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()

    def setUp(self):
        self.emu.clear_faults()
        self.emu.reset()
        self.emu.clear_requests()

    def hb(self, *args, **kw):
        return run(["--rest", self.emu.rest, "--thrift", self.emu.thrift, "--no-progress"] + list(args), **kw)


def main():
    if not HBTAB or not os.access(HBTAB, os.X_OK):
        print("HBTAB_BIN must name the hbtab binary", file=sys.stderr)
        sys.exit(2)
    unittest.main(verbosity=2)
