"""hbtab's commands against real HBase failing for real (tests/realhbase's control channel):
a region server aborted, the master killed and restarted, the REST gateway restarted, the
Thrift2 server restarted, a region server's ZooKeeper session expired.

A cell is (command, fault, step). The fault lands at a step of the command, found by the
request that starts it, not by a clock: hbtab talks to the gateway and to Thrift2 through a
proxy of the test's own, and the shell through a wrapper; the first request of the step
(hbtab's first request; the DDL: Thrift2's createTable, truncateTable, disableTable or
enableTable, or the shell script that holds the DDL; the verification: the first region
listing after the DDL; the metadata row: its PUT) starts the fault on the cluster's fault
thread at the moment it is forwarded, so the step runs while HBase fails.

Every cell checks: the exit status is a documented one (0, 1, 3, 4); a reported success is
true (the boundaries read from the gateway are the planned ones, the metadata row present and
equal to the one a clean run writes); a rerun without the fault exits 0 and ends in the same
state; every row put before is there after (read through the gateway); a table that is gone
has a listed snapshot of its own.

HBTAB_REAL_MATRIX=all runs every cell (docs/real-faults.md); otherwise a representative part
(each command and each fault kind at least once). HBTAB_REAL_MATRIX_TABLE=FILE appends one
line per cell (command, fault, step, exit status, rerun's) to FILE.
"""
import json
import os
import re
import shlex
import stat
import subprocess
import tempfile
import threading
import time
import urllib.parse

import backend
import hbtest
from hbtest import unb64
from lib.forward import ForwardingProxy

NS = "mx"
FAULTS = ("abort", "master", "rest", "thrift", "expire")
DOCUMENTED = (0, 1, 3, 4)
ROWS = [b"0123456789abcdef", b"5555555555555555", b"9fffffffffffffff", b"cafebabecafebabe",
        b"fffffffffffffffe"]


# The shell wrapper: when the script hbtab hands the shell holds the armed word, the armed
# fault is started (once) before the real shell runs it.
WRAPPER = r"""#!/usr/bin/python3
import json, os, sys, urllib.request
arm = os.environ.get("MX_SHELL_ARM", "")
if arm:
    word, verb, body, mark = json.loads(arm)
    text = open(sys.argv[-1], errors="replace").read() if os.path.isfile(sys.argv[-1]) else ""
    if word in text and not os.path.exists(mark):
        open(mark, "w").close()
        req = urllib.request.Request(os.environ["MX_CONTROL"] + "/control/" + verb,
                                     data=json.dumps(body).encode(), method="POST")
        urllib.request.urlopen(req, timeout=60).read()
os.execvp(sys.argv[1], sys.argv[1:])
"""


class RealFaultMatrix(backend.BackendTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if cls.be.kind != "real":
            raise RuntimeError("the matrix runs against real HBase (HBTAB_BACKEND=real)")
        cls.lock = threading.Lock()
        cls.trigger = None
        cls.rest_proxy = ForwardingProxy(lambda: cls.be.rest,
                                         lambda m, p, b: cls.seen("rest", m, p, b))
        cls.thrift_proxy = ForwardingProxy(lambda: cls.be.thrift,
                                           lambda m, p, b: cls.seen("thrift", m, p, b))
        cls.tmp = tempfile.mkdtemp(prefix="hbtab-mx-")
        cls.wrapper = os.path.join(cls.tmp, "shell-wrapper")
        with open(cls.wrapper, "w") as f:
            f.write(WRAPPER)
        os.chmod(cls.wrapper, stat.S_IRWXU)
        cls.table_out = os.environ.get("HBTAB_REAL_MATRIX_TABLE", "")
        cls.expected = []  # (cell, snapshot or None, table, what): listed_later
        # The namespace is made once, not by each command (--create-namespace lists the
        # namespaces through the master, which after a region server's crash and a master
        # restart failed for minutes: docs/real-faults.md)
        cls.be.create("%s:events_user_clicks_20261128_anchor_%x" % (NS, os.getpid()))

    @classmethod
    def tearDownClass(cls):
        cls.rest_proxy.stop()
        cls.thrift_proxy.stop()
        super().tearDownClass()

    # --- the trigger ----------------------------------------------------------------------
    @classmethod
    def seen(cls, server, method, path, body):
        with cls.lock:
            t = cls.trigger
            if t is None or t["fired"]:
                return
            if t["ddl"] is not None and t["ddl"](server, method, path, body):
                t["ddl_seen"] = True
            if not t["match"](server, method, path, body, t):
                return
            t["fired"] = True
        cls.be.control(t["verb"], dict(t["body"], delay_ms=0))

    def arm(self, fault, step, ddl=None, shell_word=None):
        """The trigger of (fault, step): the matcher of the step's first request. ddl(server,
        method, path, body) tells the DDL's request; without it the DDL is the shell script
        that holds shell_word."""
        verb, body = {"abort": ("abort", {"index": 1}), "expire": ("expire", {"index": 2}),
                      "master": ("master", {}), "rest": ("rest", {}),
                      "thrift": ("thrift", {})}[fault]
        mark = os.path.join(self.tmp, "fired-%s" % self.cell)

        def before(server, method, path, body, t):
            return True

        def on_ddl(server, method, path, body, t):
            return ddl(server, method, path, body)

        def verify(server, method, path, body, t):
            after = t["ddl_seen"] or os.path.exists(mark + ".ddl")
            return after and method == "GET" and ("/regions" in path or "hbase%3Ameta" in path)

        def meta(server, method, path, body, t):
            return method == "PUT" and "/hbtab-row" in path

        self.shell_env = {"MX_CONTROL": self.be.control_url}
        match = {"before": before, "ddl": on_ddl, "verify": verify, "meta": meta}[step]
        if step == "ddl" and ddl is None:
            self.shell_env["MX_SHELL_ARM"] = json.dumps(
                [shell_word, verb, dict(body, delay_ms=0), mark])
            match = None
        if step == "verify" and ddl is None:
            # the DDL went through the shell: the wrapper leaves a mark once it has run it
            self.shell_env["MX_SHELL_ARM"] = json.dumps(
                [shell_word, "servers", {}, mark + ".ddl"])
        type(self).trigger = None if match is None else {
            "verb": verb, "body": body, "match": match, "fired": False, "ddl_seen": False,
            "ddl": ddl}

    def disarm(self):
        t = type(self).trigger
        mark = os.path.join(self.tmp, "fired-%s" % self.cell)
        self.fired = bool(t and t["fired"]) or os.path.exists(mark)
        type(self).trigger = None
        self.shell_env = {}
        out = self.be.control("faults", {"wait": True})
        self.assertEqual(out["pending"], 0, out)
        return out

    # --- running hbtab ----------------------------------------------------------------------
    def hbx(self, *args, proxied=True, env=None):
        rest = "http://127.0.0.1:%d" % self.rest_proxy.port if proxied else self.be.rest
        thrift = "http://127.0.0.1:%d/" % self.thrift_proxy.port if proxied else self.be.thrift
        shell = "%s %s" % (self.wrapper, self.be.shell) if proxied else self.be.shell
        e = dict(getattr(self, "shell_env", {}) if proxied else {})
        e.update(env or {})
        return hbtest.run(["--rest", rest, "--thrift", thrift, "--no-progress", "--timeout",
                           "60", "--retries", "4", "--hbase-shell", shell] + list(args),
                          env=e or None, home=self.home, timeout=900)

    def direct(self, *args):
        return self.hbx(*args, proxied=False)

    # --- reading the cluster (never through hbtab) -----------------------------------------
    def planned(self, *spec):
        r = self.direct("splits", *spec, "--format", "json")
        self.assertOk(r)
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def rows(self, t):
        """The row keys of t, read through the gateway (a scanner)."""
        st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(t, safe=""))
        if st == 404:
            return []
        self.assertEqual(st, 200, body)
        return sorted(k for k in (unb64(r["key"]) for r in body.get("Row", []))
                      if k != b"totalPartition")  # hbtab's metadata row

    def meta_row(self, t):
        r = self.direct("-o", "json", "meta", "get", t)
        if r.rc != 0:
            return None
        j = r.json()
        return {k: v for k, v in j.items() if k not in ("table", "created")}

    def exists(self, t):
        st, _ = self.be.rest_get("/%s/schema" % urllib.parse.quote(t, safe=""))
        return st == 200

    def snapshots(self):
        """{snapshot: table} as HBase's shell lists them."""
        with tempfile.NamedTemporaryFile("w", suffix=".rb", delete=False) as f:
            f.write("@shell.admin.list_snapshot('.*').each { |x| "
                    "puts \"SNAP #{x.getName} #{x.getTableNameAsString}\" }\nexit\n")
        try:
            out = subprocess.run(shlex.split(self.be.shell) + [f.name], capture_output=True,
                                 text=True, timeout=600,
                                 env=dict(os.environ, **backend_no_native(self.be)))
        finally:
            os.unlink(f.name)
        return dict(ln.split()[1:3] for ln in out.stdout.splitlines() if ln.startswith("SNAP "))

    def listed_later(self, name, table, what):
        """A snapshot that must be listed (name None: any snapshot of table), checked by
        test_zz_snapshots_are_listed with one shell call for every cell (a JVM of its own
        takes seconds)."""
        type(self).expected.append((self.cell, name, table, what))

    def test_zz_snapshots_are_listed(self):
        """Every snapshot a cell reported, and one of every table a cell dropped, is listed."""
        if not self.expected:
            return
        listed = self.snapshots()
        for cell, name, table, what in self.expected:
            if name is None:
                self.assertIn(table, listed.values(), "%s: %s" % (cell, what))
            else:
                self.assertEqual(listed.get(name), table, "%s: %s %s" % (cell, what, name))

    def record(self, cmd, fault, step, r, rerun, note=""):
        note = note or ("fault landed" if self.fired else "step not reached: no fault")
        note += " (%.0f s)" % (time.monotonic() - self.t0)
        if r.rc != 0:  # what hbtab said: its first message
            said = [ln for ln in r.err.splitlines() if ln.startswith("hbtab: ")]
            note += " " + (said[0] if said else "")
        line = "%s\t%s\t%s\t%d\t%s\t%s" % (cmd, fault, step, r.rc,
                                           "-" if rerun is None else rerun.rc, note)
        print("CELL " + line)
        if self.table_out:
            with open(self.table_out, "a") as f:
                f.write(line + "\n")

    # --- the commands -----------------------------------------------------------------------
    def table(self, cmd, fault, step):
        self.cell = "%s_%s_%s_%x" % (cmd, fault, step, os.getpid())
        return "%s:events_user_clicks_20261128_%s" % (NS, self.cell)

    def seed(self, t, splits, family="cf"):
        self.be.create(t, families=[family], splits=splits)
        self.be.put(t, [(k, {family + ":q": b"v" + k}) for k in ROWS])

    def check_rc(self, r, what):
        self.assertIn(r.rc, DOCUMENTED, "%s: %r" % (what, r))
        if r.rc != 0:
            self.assertIn("hbtab: ", r.err, r)

    def cell_create(self, fault, step, via):
        cmd = "create_" + via
        t = self.table(cmd, fault, step)
        spec = ["--hex-splits", "4"]
        keys = self.planned(*spec)
        ref = {"N": 4, "keyspace": None, "splits": "--hex-splits 4", "rotate": None}
        self.arm(fault, step, thrift_call("createTable") if via == "thrift2" else None,
                 "create '")
        args = ["create", t, *spec, "--family", "cf", "--via", via]
        r = self.hbx(*args)
        self.disarm()
        self.check_rc(r, "create")
        if r.rc == 0:
            self.assertEqual(self.be.boundaries(t), keys, "an unearned success: boundaries")
            m = self.meta_row(t)
            self.assertEqual(m and {k: m.get(k) for k in ref}, ref, "an unearned success: row")
        again = self.direct(*args)
        self.assertOk(again, "the rerun converges")
        self.assertEqual(self.be.boundaries(t), keys)
        m = self.meta_row(t)
        self.assertEqual({k: m.get(k) for k in ref}, ref)
        self.be.put(t, [(k, {"cf:q": b"v" + k}) for k in ROWS])
        self.assertEqual(self.rows(t), sorted(ROWS))
        self.record(cmd, fault, step, r, again)

    def made(self, t, spec=("--hex-splits", "4")):
        """t made by hbtab (metadata row and all) with the rows in it; its metadata row."""
        self.assertOk(self.direct("create", t, *spec, "--family", "cf", "--via", "thrift2"))
        self.be.put(t, [(k, {"cf:q": b"v" + k}) for k in ROWS])
        self.assertEqual(self.rows(t), sorted(ROWS))
        return self.meta_row(t)

    def cell_truncate(self, fault, step):
        t = self.table("truncate", fault, step)
        keys = self.planned("--hex-splits", "4")
        row = self.made(t)
        self.arm(fault, step, thrift_call("truncateTable"))
        r = self.hbx("truncate", t, "--yes", "--via", "thrift2")
        self.disarm()
        self.check_rc(r, "truncate")
        if r.rc == 0:
            self.assertEqual(self.be.boundaries(t), keys, "an unearned success: boundaries")
            self.assertEqual(self.meta_row(t), row, "an unearned success: metadata row")
        # the rerun: truncate again (what a rerun after any interruption does)
        again = self.direct("truncate", t, "--yes", "--via", "thrift2")
        self.assertOk(again, "the rerun converges")
        self.assertEqual(self.be.boundaries(t), keys)
        self.assertEqual(self.meta_row(t), row, "the metadata row is kept")
        self.assertEqual(self.rows(t), [])
        self.record("truncate", fault, step, r, again)

    def cell_disable_enable(self, fault, step):
        t = self.table("disable_enable", fault, step)
        row = self.made(t)
        self.arm(fault, step, thrift_call("disableTable"))
        r = self.hbx("-o", "json", "disable", t, "--yes", "--via", "thrift2")
        self.disarm()
        self.check_rc(r, "disable")
        if r.rc == 0:
            st, _ = self.be.rest_get("/%s/%s" % (urllib.parse.quote(t, safe=""), ROWS[0].decode()))
            self.assertNotEqual(st, 200, "an unearned success: a disabled table serves a row")
        again = self.direct("disable", t, "--yes", "--via", "thrift2")
        self.assertOk(again, "the disable's rerun converges")
        self.arm(fault, step, thrift_call("enableTable"))
        r2 = self.hbx("enable", t, "--via", "thrift2")
        self.disarm()
        self.check_rc(r2, "enable")
        if r2.rc == 0:
            self.assertEqual(self.rows(t), sorted(ROWS))
        again2 = self.direct("enable", t, "--via", "thrift2")
        self.assertOk(again2, "the enable's rerun converges")
        self.assertEqual(self.rows(t), sorted(ROWS), "no row lost")
        self.assertEqual(self.meta_row(t), row)
        self.record("disable", fault, step, r, again)
        self.record("enable", fault, step, r2, again2)

    def cell_repair(self, fault, step):
        t = self.table("repair", fault, step)
        seed = ["--range-splits", "10", "--start", "0000000000000000", "--end",
                "ffffffffffffffff"]
        keys = self.planned(*seed)
        self.seed(t, keys)
        self.arm(fault, step, None, "merge_region")
        r = self.hbx("-o", "json", "repair", t, "--keyspace", "hex{16}", "--apply")
        self.disarm()
        self.check_rc(r, "repair")
        want = [keys[1], keys[7], keys[8]]
        if r.rc == 0:
            self.assertTrue(r.json()["fixed"], r)
            self.assertEqual(self.be.boundaries(t), want, "an unearned success: boundaries")
        again = self.direct("-o", "json", "repair", t, "--keyspace", "hex{16}", "--apply")
        if again.rc != 0:  # a merge HBase still finishes, or one blocked until the janitor
            again = self.direct("-o", "json", "repair", t, "--keyspace", "hex{16}", "--apply")
        self.assertOk(again, "the rerun converges")
        self.assertEqual(self.be.boundaries(t), want)
        self.assertEqual(self.rows(t), sorted(ROWS), "no row lost")
        self.record("repair", fault, step, r, again)

    def cell_snapshot(self, fault, step):
        t = self.table("snapshot", fault, step)
        self.made(t)
        self.arm(fault, step, None, "snapshot '")
        r = self.hbx("-o", "json", "snapshot", t, env=backend_no_native(self.be))
        self.disarm()
        self.check_rc(r, "snapshot")
        again = self.direct("-o", "json", "snapshot", t)
        self.assertOk(again, "the rerun converges")
        if r.rc == 0:
            self.listed_later(r.json()["snapshot"], t, "an unearned success")
        self.listed_later(again.json()["snapshot"], t, "the rerun's snapshot")
        self.assertEqual(self.rows(t), sorted(ROWS), "no row lost")
        self.record("snapshot", fault, step, r, again)

    def cell_drop_snapshot(self, fault, step):
        t = self.table("drop", fault, step)
        self.made(t)
        self.arm(fault, step, rest_drop, "snapshot '")
        r = self.hbx("-o", "json", "drop", t, "--yes", "--snapshot",
                     env=backend_no_native(self.be))
        self.disarm()
        self.check_rc(r, "drop")
        if r.rc == 0:
            self.assertFalse(self.exists(t), "an unearned success: the table is there")
        again = self.direct("-o", "json", "drop", t, "--yes", "--snapshot", "--if-exists")
        self.assertOk(again, "the rerun converges")
        self.assertFalse(self.exists(t))
        self.listed_later(None, t, "dropped without its snapshot")
        if r.rc == 0:
            self.listed_later(r.json()["snapshot"], t, "an unearned success")
        self.record("drop_snapshot", fault, step, r, again)

    def cell_rotate(self, fault, step):
        self.cell = "%s_%s_%x" % (fault, step, os.getpid())
        tmpl = "%s:events_user_clicks_rot_%s_%%Y%%m%%d" % (NS, self.cell)
        base = ["rotate", "--template", tmpl, "--hex-splits", "2", "--via", "thrift2",
                "--snapshot-before-drop", "--yes",
                "--lock", os.path.join(self.tmp, "rotate-%s.lock" % self.cell)]
        self.assertOk(self.direct(*base, "--now", "2026-11-27", "--ahead", "0", "--retain",
                                  "2"))
        day27 = tmpl.replace("%Y%m%d", "20261127")
        self.be.put(day27, [(k, {"cf:q": b"v" + k}) for k in ROWS])
        day29 = tmpl.replace("%Y%m%d", "20261129")
        line = base + ["--now", "2026-11-28", "--ahead", "1", "--retain", "1"]
        # its DDL is the drop; the verification follows the day ahead's createTable
        self.arm(fault, step, thrift_call("createTable") if step == "verify" else rest_drop,
                 "snapshot '")
        r = self.hbx(*line)
        self.disarm()
        self.check_rc(r, "rotate")
        if r.rc == 0:
            self.assertFalse(self.exists(day27), "an unearned success: not dropped")
            self.assertTrue(self.exists(day29), "an unearned success: not created")
        again = self.direct(*line)
        self.assertOk(again, "the rerun converges")
        self.assertFalse(self.exists(day27))
        self.assertEqual(self.be.boundaries(day29), self.planned("--hex-splits", "2"))
        self.listed_later(None, day27, "dropped without its snapshot")
        self.record("rotate", fault, step, r, again)

    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="home-", dir=self.tmp)
        self.t0 = time.monotonic()
        self.shell_env = {}


# The steps of each command (create --via shell and the shell's commands have their DDL in a
# shell script; disable/enable, repair, snapshot and drop write no metadata row).
STEPS = {
    "create_thrift2": ("before", "ddl", "verify", "meta"),
    "create_shell": ("before", "ddl", "verify", "meta"),
    "truncate": ("before", "ddl", "verify", "meta"),
    "disable_enable": ("before", "ddl", "verify"),
    "repair": ("before", "ddl", "verify"),
    "snapshot": ("before", "ddl"),
    "drop_snapshot": ("before", "ddl"),
    "rotate": ("before", "ddl", "verify", "meta"),
}
# Every suite run: each command once, each fault kind at least once.
REPRESENTATIVE = {
    ("create_thrift2", "abort", "ddl"), ("create_shell", "expire", "ddl"),
    ("truncate", "rest", "meta"), ("disable_enable", "master", "ddl"),
    ("repair", "abort", "ddl"), ("snapshot", "rest", "before"),
    ("drop_snapshot", "expire", "ddl"), ("rotate", "thrift", "ddl"),
}


def _cell_test(cmd, fault, step):
    def test(self):
        if cmd.startswith("create_"):
            self.cell_create(fault, step, cmd[len("create_"):])
        else:
            getattr(self, "cell_" + cmd)(fault, step)
    test.__doc__ = "%s with %s at %s" % (cmd, fault, step)
    return test


for _cmd, _steps in STEPS.items():
    for _fault in FAULTS:
        for _step in _steps:
            if os.environ.get("HBTAB_REAL_MATRIX") == "all" or (
                    (_cmd, _fault, _step) in REPRESENTATIVE):
                setattr(RealFaultMatrix, "test_%s_%s_%s" % (_cmd, _fault, _step),
                        _cell_test(_cmd, _fault, _step))


def thrift_call(name):
    """The matcher of a Thrift2 call by its method's name."""
    word = name.encode()
    return lambda server, method, path, body: server == "thrift" and word in body


def rest_drop(server, method, path, body):
    """The matcher of a drop through the gateway (DELETE /T/schema)."""
    return server == "rest" and method == "DELETE" and path.endswith("/schema")


def backend_no_native(be):
    """The shell without JRuby's native support (a terminal it does not have)."""
    return {"JAVA_TOOL_OPTIONS": "-Djruby.native.enabled=false"}


class ControlVerbs(backend.BackendTest):
    """Each fault verb of the real cluster's control channel leaves a cluster that serves:
    three live region servers, a table written through Java and read through the gateway."""

    def test_each_fault_verb_leaves_a_serving_cluster(self):
        if self.be.kind != "real":
            self.skipTest("the control channel's faults are real HBase's")
        t = "%s:events_user_clicks_20261128_control_%x" % (NS, os.getpid())
        self.be.create(t, families=["cf"], splits=[b"5", b"a"])
        self.be.put(t, [(k, {"cf:q": b"v" + k}) for k in ROWS])
        for verb, body in (("abort", {"index": 0}), ("expire", {"index": 1}), ("master", {}),
                           ("rest", {}), ("thrift", {})):
            out = self.be.control(verb, body)
            self.assertIn("ms", out, verb)
            self.assertEqual(self.be.live_servers(), 3, verb)
            # serves again: the first reads after a restart may fail while the gateway's
            # new connection finds meta (500s seen on a loaded machine), as for any client
            for _ in range(60):
                st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(t, safe=""))
                if st == 200:
                    break
                time.sleep(1)
            self.assertEqual(st, 200, (verb, body))
            self.assertEqual(sorted(unb64(r["key"]) for r in body["Row"]), sorted(ROWS), verb)
        # later: answered at once, run on the fault thread, waited for
        out = self.be.control("thrift", {"delay_ms": 200})
        self.assertIn("scheduled", out)
        out = self.be.control("faults", {"wait": True})
        self.assertEqual((out["pending"], out["errors"]), (0, []), out)
        r = self.hb("regions", t, "--source", "meta")
        self.assertOk(r)
        st, out = hbtest.control_call(self.be.control_url + "/control/abort", "POST",
                                      {"index": 7})
        self.assertEqual(st, 400, out)


if __name__ == "__main__":
    backend.main()
