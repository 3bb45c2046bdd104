"""Shared fixtures for hbtab's end-to-end tests: run the real binary, drive the emulator."""
import base64
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
import urllib.request
import urllib.error

from lib import launch

HBTAB = os.environ.get("HBTAB_BIN", "")
SRC = os.environ.get("HBTAB_SRC", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GEN_DIR = os.environ.get("HBEMU_GEN_DIR", "")
PYTHON = os.environ.get("HBTAB_PYTHON", "/usr/bin/python3")
EMULATOR = os.path.join(SRC, "tests", "emulator", "hbemu.py")
SHELL_STANDIN = os.path.join(SRC, "tests", "emulator", "shell", "hbase-shell.rb")
# Set by the build for the ASan+UBSan tree, where every run of the binary costs several times more.
SANITIZED = os.environ.get("HBTAB_SANITIZED") == "1"

# hbtab keeps a signal ignored when it starts ignored (nohup, a background job of a
# non-interactive shell), and exec passes an ignored SIGINT on: every hbtab a test starts gets
# the default disposition, whatever started the suite, so the tests that send SIGINT test it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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


def control_call(url, method, body=None, guard=60):
    """A JSON call on a control channel (the emulator's or real HBase's): (status, the JSON
    answer, its text, or None). guard (seconds) only stops a hang."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=guard) as r:
            text = r.read()
            return r.status, (json.loads(text) if text.strip() else None)
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text.decode("utf-8", "replace")


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
        if not line.startswith(launch.READY):
            self.stop()
            raise RuntimeError("emulator did not start: %r\n%s" % (line, self.log()))
        self.ports = launch.ready_ports(line)
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
        return control_call(self.control_url + path, method, body)

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

    def table(self, name):
        """The emulator's record of table name (families, attrs, regions), or None."""
        for t in self.state()["tables"]:
            if t["name"] == name:
                return t
        return None

    def live_regions(self, name):
        """The online primary regions of table name by start key, or None without the table."""
        t = self.table(name)
        if t is None:
            return None
        regs = [r for r in t["regions"]
                if not r["offline"] and not r["split"] and r["replica"] == 0]
        regs.sort(key=lambda r: unb64(r["start"]))
        return regs

    def boundaries(self, name):
        """The split keys table name has now: the starts of its live regions but the first."""
        regs = self.live_regions(name)
        return None if regs is None else [unb64(r["start"]) for r in regs[1:]]

    def rest_get(self, path):
        """GETs path from the REST gateway as JSON: (status, body or None)."""
        req = urllib.request.Request(self.rest + path, headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, None

    def metadata_row(self, table, row="totalPartition"):
        """The cells of a row as {"family:qualifier": value}, or None when it is absent."""
        st, body = self.rest_get("/%s/%s" % (urllib.parse.quote(table, safe=""),
                                             urllib.parse.quote(row, safe="")))
        if st != 200:
            return None
        return {unb64(c["column"]).decode(): unb64(c["$"]).decode()
                for c in body["Row"][0]["Cell"]}

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
    """The environment of one run. HBTAB_RETRIES=2 keeps the suite's failing requests quick:
    hbtab's own default (8, riding out a ~10 s gateway restart) waits 14-28 s before it
    gives up. A test of the defaults passes {"HBTAB_RETRIES": None} to drop it."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(home, ".config"), "HBTAB_RETRIES": "2"}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    if extra:
        env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def wait_for(pred, what, guard=120):
    """Polls pred until it holds; guard (seconds) only stops a hang, never bounds speed."""
    deadline = time.monotonic() + guard
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("gave up waiting for " + what)
        time.sleep(0.05)


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
        # a request an earlier test left held, let go just now, is answered before the log
        # is cleared: it cannot appear among this test's requests
        wait_for(lambda: self.emu.control("GET", "/control/held")[1]["released"] == 0,
                 "the requests released from an earlier test")
        self.emu.reset()
        self.emu.clear_requests()

    def hb(self, *args, **kw):
        return run(["--rest", self.emu.rest, "--thrift", self.emu.thrift, "--no-progress"] + list(args), **kw)


def first_line(path):
    """The first line of a file (a server's ready line), "" while there is none."""
    try:
        with open(path) as f:
            return f.readline()
    except OSError:
        return ""


def main():
    if not HBTAB or not os.access(HBTAB, os.X_OK):
        print("HBTAB_BIN must name the hbtab binary", file=sys.stderr)
        sys.exit(2)
    prog = unittest.main(verbosity=2, exit=False)
    # A test-name pattern (-k) that matches nothing runs nothing: a failure, not a pass.
    if prog.result.testsRun == 0:
        print("no test ran (a -k pattern that matches no test?)", file=sys.stderr)
        sys.exit(1)
    sys.exit(0 if prog.result.wasSuccessful() else 1)


class TtyStderr:
    """hbtab with its stderr on a pseudo-terminal and stdout on a pipe, as an operator at a
    terminal who redirects the results: progress is drawn on that terminal only.

    wait_for_err() reads the terminal until a pattern shows (poking the process between
    reads, e.g. feeding its stdin); finish() closes stdin and collects (rc, out, err)."""

    def __init__(self, args, stdin=subprocess.DEVNULL):
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.master, slave = pty.openpty()
        try:
            self.p = subprocess.Popen([HBTAB] + list(args), stdin=stdin, stdout=subprocess.PIPE,
                                      stderr=slave, env=clean_env(self.home))
        finally:
            os.close(slave)
        self.out = b""
        self.err = b""
        self.open = {self.p.stdout.fileno(): "out", self.master: "err"}

    def _read(self, wait):
        """One round of reading whatever stdout and the terminal have; False once both closed."""
        if not self.open:
            return False
        ready, _, _ = select.select(list(self.open), [], [], wait)
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the terminal's last writer is gone
                chunk = b""
            if not chunk:
                del self.open[fd]
            elif self.open[fd] == "out":
                self.out += chunk
            else:
                self.err += chunk
        return bool(self.open)

    def wait_for_err(self, pattern, poke=None, guard=600):
        deadline = time.monotonic() + guard  # a guard against hangs, not a speed check
        while not re.search(pattern, self.err):
            if time.monotonic() > deadline:
                raise AssertionError("no %r on the terminal; it shows %r" % (pattern, self.err[-200:]))
            if poke:
                poke()
            if not self._read(0.2):
                raise AssertionError("hbtab ended before %r; terminal %r" % (pattern, self.err[-200:]))

    def finish(self, guard=600):
        try:
            if self.p.stdin:
                self.p.stdin.close()
            deadline = time.monotonic() + guard
            while self._read(1.0):
                if time.monotonic() > deadline:
                    self.p.kill()
                    raise AssertionError("hbtab did not finish (hang guard)")
            return self.p.wait(guard), self.out, self.err
        finally:
            self.p.stdout.close()
            os.close(self.master)
            shutil.rmtree(self.home, ignore_errors=True)


def promtool_check(text):
    """Checks an exposition hbtab wrote with Prometheus's own linter, `promtool check metrics`
    (Debian's prometheus package): a parse error or a lint problem (a name, a missing HELP)
    fails the test with promtool's words; so does promtool missing. Returns text."""
    exe = shutil.which("promtool")
    if exe is None:
        raise AssertionError("promtool is not installed (scripts/dev.sh installs prometheus)")
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    p = subprocess.run([exe, "check", "metrics"], input=data, capture_output=True, timeout=60)
    if p.returncode != 0 or p.stdout.strip() or p.stderr.strip():
        raise AssertionError("promtool check metrics (exit %d): %s%s\n--- the exposition:\n%s"
                             % (p.returncode, p.stdout.decode(errors="replace"),
                                p.stderr.decode(errors="replace"),
                                data.decode(errors="replace")))
    return text
