"""The cluster a behaviour test runs against: the emulator, or real HBase (tests/realhbase).

HBTAB_BACKEND=real (with HBTAB_REAL_READY naming the file that holds the real cluster's ready
line) selects real HBase: one JVM started once for the whole suite by the `real.start` test
(`python3 backend.py start FILE`) and stopped by `real.stop`. Tests share it, so each names its
tables after itself. Otherwise every test class starts its own emulator.

Both backends offer the same verbs, so a test is written once: server(i, "stop"|"start"),
disable/enable(table), unassign(table, i), readonly(on), create(table, families, splits),
put(table, rows), listed(table, splits) and unlisted(table) (a table whose hbase:meta lists more
regions than a real cluster could open), boundaries(table) (read from the gateway's own
/T/regions, not by hbtab),
metadata_row(table), and `shell`, an --hbase-shell command line (the real JRuby shell: a JVM a call,
or a call of the one the fixture keeps warm, HBTAB_REAL_SHELL; or the
emulator's stand-in).
"""
import json
import os
import signal
import subprocess
import sys
import urllib.parse

import hbtest
from hbtest import b64, unb64
from lib import launch

KIND = os.environ.get("HBTAB_BACKEND", "emulator")
REAL_READY = os.environ.get("HBTAB_REAL_READY", "")
REAL_RUN = os.path.join(hbtest.SRC, "tests", "realhbase", "run")
SHELL_CLIENT = os.path.join(hbtest.SRC, "tests", "realhbase", "shell-client")
# HBTAB_REAL_SHELL=process: every shell call a JVM of its own (run --shell), as hbtab meets
# the shell in production; otherwise a call of the shell the fixture keeps warm beside the
# cluster (run --shell-server: the same release's shell, one JRuby runtime a call, a fifth of
# the processor time), when it runs.
SHELL_KIND = os.environ.get("HBTAB_REAL_SHELL", "warm")


class _Common:
    # the emulator harness's readers need only self.rest
    rest_get = hbtest.Emulator.rest_get
    metadata_row = hbtest.Emulator.metadata_row

    def boundaries(self, table):
        """The split keys of table as the gateway's /T/regions lists them (None: no table)."""
        st, body = self.rest_get("/%s/regions" % urllib.parse.quote(table, safe=""))
        if st != 200:
            return None
        starts = sorted({unb64(r.get("startKey", "")) for r in body["Region"]})  # replicas once
        return starts[1:]


class RealBackend(_Common):
    kind = "real"

    def __init__(self, line):
        p = launch.ready_ports(line)
        self.rest = "http://127.0.0.1:%d" % p["rest"]
        self.thrift = "http://127.0.0.1:%d/" % p["thrift"]
        self.control_url = "http://127.0.0.1:%d" % p["control"]
        self.zk = p["zk"]
        self.version = p.get("version", "")
        self.shell = "%s --shell %d -n" % (REAL_RUN, self.zk)
        line = hbtest.first_line(REAL_READY + ".shell")
        if SHELL_KIND != "process" and line.startswith(SHELL_READY):
            port = json.loads(line[len(SHELL_READY):])["shell_port"]
            self.shell = "%s %d -n" % (SHELL_CLIENT, port)

    def control(self, verb, body=None):
        # a region server's stop or start waits for its regions to move: a long guard
        st, out = hbtest.control_call(self.control_url + "/control/" + verb, "POST", body or {},
                                      guard=300)
        if st != 200:
            raise RuntimeError("control %s %s: %s %s" % (verb, body, st, out))
        return out

    def server(self, index, state):
        self.control("server", {"index": index, "state": state})

    def disable(self, table):
        self.control("disable", {"table": table})

    def enable(self, table):
        self.control("enable", {"table": table})

    def unassign(self, table, index):
        self.control("unassign", {"table": table, "index": index})

    def assign(self, table, index):
        self.control("assign", {"table": table, "index": index})

    def readonly(self, on):
        out = self.control("readonly", {"on": bool(on)})
        self.rest = "http://127.0.0.1:%d" % out["rest"]

    def create(self, table, families=("cf",), splits=()):
        self.control("create", {"table": table, "families": list(families),
                                "splits": [b64(s) for s in splits]})

    def put(self, table, rows):
        """rows: [(key bytes, {"f:q": value bytes})]."""
        self.control("put", {"table": table, "rows": [
            {"key": b64(k), "cells": [{"column": b64(c), "value": b64(v)}
                                      for c, v in cells.items()]} for k, cells in rows]})

    def listed(self, table, splits):
        """A table whose hbase:meta lists one region from each of splits (rising) to the next:
        made with its last split only, the other region rows then written straight into
        hbase:meta (no region opened: for listings only). unlisted(table) puts back the rows
        the cluster had."""
        self.create(table, splits=splits[-1:])
        self.control("metarows", {"table": table, "splits": [b64(s) for s in splits]})

    def unlisted(self, table):
        self.control("metarows", {"table": table, "restore": True})

    def live_servers(self):
        return self.control("servers")["live"]

    def stop(self):
        pass  # the suite's real.stop test ends the shared cluster


class EmulatorBackend(_Common):
    kind = "emulator"

    def __init__(self):
        self.emu = hbtest.Emulator(3)
        self.rest, self.thrift = self.emu.rest, self.emu.thrift
        self.version = "emulator"
        self.shell = "ruby %s -n" % hbtest.SHELL_STANDIN
        self.shell_env = {"HBEMU_CONTROL": self.emu.control_url}

    def _ok(self, st, body, what):
        if st not in (200, 201, 204):
            raise RuntimeError("%s: %s %s" % (what, st, body))
        return body

    def _post(self, path, body):
        return self._ok(*self.emu.control("POST", path, body), what=path)

    def server(self, index, state):
        self._post("/control/server", {"index": index, "state": state})

    def disable(self, table):
        self._post("/control/disable", {"table": table})

    def enable(self, table):
        self._post("/control/enable", {"table": table})

    def unassign(self, table, index):
        self._post("/control/unassign", {"table": table, "index": index})

    def readonly(self, on):
        self._post("/control/readonly", {"on": bool(on)})

    def create(self, table, families=("cf",), splits=()):
        self.emu.create(table, splits=splits, families=families)

    def put(self, table, rows):
        self._post("/control/put", {"table": table, "rows": [
            {"key": b64(k), "cells": [{"column": b64(c), "value": b64(v)}
                                      for c, v in cells.items()]} for k, cells in rows]})

    def listed(self, table, splits):
        self.create(table, splits=splits)

    def unlisted(self, table):
        pass  # the emulator's regions are its own: nothing to put back

    def live_servers(self):
        return sum(1 for s in self.emu.state()["servers"] if s["alive"])

    def stop(self):
        self.emu.stop()


def connect():
    if KIND == "real":
        with open(REAL_READY) as f:
            return RealBackend(f.readline().strip())
    return EmulatorBackend()


class BackendTest(hbtest.OfflineTest):
    """A behaviour test that runs unchanged against the emulator and against real HBase."""

    @classmethod
    def setUpClass(cls):
        cls.be = connect()

    @classmethod
    def tearDownClass(cls):
        cls.be.stop()

    def name(self, suffix=""):
        """A table name of this test's own (the real cluster is shared by every test)."""
        base = "%s_%s" % (type(self).__name__, self._testMethodName.replace("test_", "", 1))
        return "%s%s_%x" % (base[:64], suffix, os.getpid())

    def hb(self, *args, env=None, **kw):
        e = dict(getattr(self.be, "shell_env", {}))
        e.update(env or {})
        # HBase's shell is a JVM of its own, seconds to start: on a loaded machine the
        # default --timeout (the shell's budget with --wait) can run out before it is done
        return hbtest.run(["--rest", self.be.rest, "--thrift", self.be.thrift, "--no-progress",
                           "--timeout", "120", "--hbase-shell", self.be.shell] + list(args),
                          env=e or None,
                          timeout=kw.pop("timeout", 600), **kw)


# The suite's fixture: `backend.py start FILE` starts real HBase once (its JVM ends with the
# process that ran this, normally ctest, or at `backend.py stop FILE`); the ready line goes
# to FILE.
def _start(ready_file):
    try:
        _, line = launch.start_cluster([REAL_RUN, "--watch-pid", str(os.getppid())], ready_file,
                                       "the real cluster")
    except launch.DidNotStart as e:
        sys.stderr.write(e.tail)
        print("real HBase did not start (exit %s)" % e.exit_status, file=sys.stderr)
        return 1
    p = launch.ready_ports(line)
    print("real HBase %s ready in %.1f s (JVM pid %d)" % (
        p.get("version"), p.get("start_seconds", 0), p["pid"]))
    failed = _start_shell(p["zk"], ready_file)
    if failed is not None:
        launch.stop_cluster(ready_file, "the real cluster")
        return 1
    return 0


SHELL_READY = "HBEMU-SHELL "


def _start_shell(zk, ready_file):
    """The shell kept warm beside the cluster (run --shell-server), ending with ctest like the
    cluster; its ready line goes to ready_file.shell. Returns its exit status if it did not
    start, else None."""
    shell_file = ready_file + ".shell"
    for f in (shell_file, shell_file + ".out"):
        if os.path.exists(f):
            os.unlink(f)
    with open(shell_file + ".out", "wb") as o, open(shell_file + ".log", "wb") as e:
        proc = subprocess.Popen([REAL_RUN, "--shell-server", str(zk), "--watch-pid",
                                 str(os.getppid())], stdout=o, stderr=e,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    hbtest.wait_for(lambda: proc.poll() is not None or
                    hbtest.first_line(shell_file + ".out").endswith("\n"),
                    "the warm shell's ready line", guard=300)
    line = hbtest.first_line(shell_file + ".out")
    if not line.startswith(SHELL_READY):
        with open(shell_file + ".log", "rb") as f:
            sys.stderr.write(f.read()[-6000:].decode("utf-8", "replace"))
        print("the warm shell did not start (exit %s)" % proc.poll(), file=sys.stderr)
        return proc.poll() or 1
    with open(shell_file, "w") as f:
        f.write(line)
    print("the warm shell ready (JVM pid %d)" % json.loads(line[len(SHELL_READY):])["pid"])
    return None


def _stop_shell(ready_file):
    line = hbtest.first_line(ready_file + ".shell")
    if line.startswith(SHELL_READY):
        try:
            os.kill(json.loads(line[len(SHELL_READY):])["pid"], signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.unlink(ready_file + ".shell")


def _peak_memory(p):
    try:
        with open("/proc/%d/status" % p["pid"]) as f:
            peak = [ln.split()[1] for ln in f if ln.startswith("VmHWM:")]
        print("real HBase JVM peak resident memory: %.0f MiB" % (int(peak[0]) / 1024))
    except (OSError, IndexError, ValueError):
        pass


def _stop(ready_file):
    _stop_shell(ready_file)
    launch.stop_cluster(ready_file, "the real cluster", before=_peak_memory)
    return 0


def main():
    if sys.argv[1:2] == ["start"] and len(sys.argv) == 3:
        sys.exit(_start(sys.argv[2]))
    if sys.argv[1:2] == ["stop"] and len(sys.argv) == 3:
        sys.exit(_stop(sys.argv[2]))
    hbtest.main()


if __name__ == "__main__":
    main()
