"""Real HBase with security on: hbtab against a Kerberos cluster with the AccessController.

`tests/realhbase/run --secure` starts, in one JVM, a KDC (Hadoop's MiniKdc), a mini cluster
with hbase.security.authentication=kerberos and the AccessController, HBase's REST gateway
with SPNEGO over TLS and its Thrift2 server (HTTP) with SPNEGO over TLS. Its ready line names
a krb5.conf, the CA of the servers' certificate (issued for localhost only) and the keytabs of
two users: admin (every permission) and reader (READ only). The users get their tickets with
MIT kinit, as an operator does, and hbtab runs with --negotiate.

The suite starts the cluster once (`secure_cluster.py start FILE`, the secure.start test) and
ends it (`stop FILE`); HBTAB_SECURE_READY names FILE for the tests. Run by hand without it,
the module starts a cluster of its own.

docs/secure-hbase.md records what the cluster answers, as seen here.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import hbtest
from hbtest import b64
from lib import launch

RUN = os.path.join(hbtest.SRC, "tests", "realhbase", "run")
READY = os.environ.get("HBTAB_SECURE_READY", "")
NS = "secure_events"  # the namespace hbtab creates (--create-namespace) for the tests' tables


def _start(ready_file, owner):
    """Starts `run --secure` (ended when process owner ends); its ready line goes to
    ready_file. Returns the Popen, or raises with the log's tail."""
    try:
        proc, _ = launch.start_cluster([RUN, "--secure", "--watch-pid", str(owner)], ready_file,
                                       "the secure cluster")
    except launch.DidNotStart as e:
        raise RuntimeError("the secure cluster did not start (exit %s):\n%s"
                           % (e.exit_status, e.tail))
    return proc


def _stop(ready_file):
    launch.stop_cluster(ready_file, "the secure cluster")


class Cluster:
    """The secure cluster the module runs against, and the users' ticket caches."""
    p = None
    own = None  # the ready file of a cluster this module started itself

    @classmethod
    def get(cls):
        if cls.p is None:
            path = READY
            if not path:
                cls.own = path = os.path.join(tempfile.mkdtemp(prefix="hbtab-secure-"), "ready")
                _start(path, os.getpid())
            cls.p = launch.read_ports(path)
            cls.tmp = tempfile.mkdtemp(prefix="hbtab-krb5cc-")
            for who in ("admin", "reader"):
                kinit(who, cls.cache(who))
        return cls.p

    @classmethod
    def cache(cls, who):
        return os.path.join(cls.tmp, "cc-" + who)


def kinit(who, cache, lifetime=None):
    """MIT kinit from who's keytab into cache."""
    p = Cluster.p
    cmd = ["kinit"] + (["-l", lifetime] if lifetime else []) + [
        "-kt", p["keytabs"][who], p["principals"][who]]
    r = subprocess.run(cmd, capture_output=True, timeout=60,
                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                            "KRB5_CONFIG": p["krb5_conf"], "KRB5CCNAME": "FILE:" + cache})
    if r.returncode:
        raise RuntimeError("kinit %s: %s" % (who, r.stderr.decode(errors="replace")))


def tearDownModule():
    if Cluster.p is not None:
        shutil.rmtree(Cluster.tmp, ignore_errors=True)
    if Cluster.own:
        _stop(Cluster.own)
        shutil.rmtree(os.path.dirname(Cluster.own), ignore_errors=True)


class SecureTest(hbtest.OfflineTest):
    @classmethod
    def setUpClass(cls):
        cls.p = Cluster.get()
        cls.rest = "https://localhost:%d" % cls.p["rest"]
        cls.thrift = "https://localhost:%d/" % cls.p["thrift"]

    def name(self, what):
        return "%s:%s_%x" % (NS, what, os.getpid())

    def env(self, cache):
        return {"KRB5_CONFIG": self.p["krb5_conf"], "KRB5CCNAME": "FILE:" + cache}

    def shell(self, who):
        """HBase's shell (run --shell) logged in from who's keytab."""
        return "%s --shell %d --keytab %s %s -n" % (RUN, self.p["zk"], self.p["keytabs"][who],
                                                    self.p["principals"][who])

    def as_user(self, who, *args, cache=None, rest=None, thrift=None, cacert=None):
        """hbtab as who (their ticket cache, and their keytab for the shell), over TLS with
        --negotiate."""
        shell = ["--hbase-shell", self.shell(who)] if who in ("admin", "reader") else []
        r = hbtest.run(["--rest", rest or self.rest, "--thrift", thrift or self.thrift,
                        "--cacert", cacert or self.p["ca"], "--negotiate", "--no-progress",
                        "--timeout", "120"] + shell + list(args),
                       env=self.env(cache or Cluster.cache(who)), timeout=600)
        self.assertNoSecret(r)
        return r

    def assertNoSecret(self, r):
        text = r.out + r.err
        # the hadoop.auth cookie's value, a client's Negotiate token, the keystore password
        self.assertNotRegex(text, r"hadoop\.auth=\S|u=\w+&p=")
        self.assertNotRegex(text, r"Authorization: Negotiate \S")
        with open(os.path.join(os.path.dirname(self.p["ca"]), "keystore.pass")) as f:
            self.assertNotIn(f.read().strip(), text)

    def control(self, verb, body):
        st, out = hbtest.control_call(
            "http://127.0.0.1:%d/control/%s" % (self.p["control"], verb), "POST", body,
            guard=300)
        self.assertEqual(st, 200, out)
        return out

    def put_rows(self, table, n):
        """n rows spread over the key space (written by the superuser, the cluster's own)."""
        rows = [{"key": b64(("%016x" % (i * (2**64 // n))).encode()),
                 "cells": [{"column": b64(b"cf:v"), "value": b64(b"row %d" % i)}]}
                for i in range(n)]
        self.control("put", {"table": table, "rows": rows})

    def curl(self, who, path):
        """GET path from the secure gateway with curl --negotiate as who: (status, body)."""
        r = subprocess.run(
            ["curl", "-sS", "--negotiate", "-u", ":", "--cacert", self.p["ca"],
             "-H", "Accept: application/json", "-w", "\n%{http_code}", self.rest + path],
            capture_output=True, timeout=120, env=dict(
                self.env(Cluster.cache(who)), PATH=os.environ.get("PATH", "/usr/bin:/bin")))
        body, _, status = r.stdout.decode().rpartition("\n")
        return int(status), body

    def rows(self, table, who="admin"):
        """The table's row keys, read through the secure gateway (None: no such table)."""
        t = table.replace(":", "%3A")
        st, _ = self.curl(who, "/%s/exists" % t)
        if st == 404:
            return None
        self.assertEqual(st, 200)
        st, body = self.curl(who, "/%s/*" % t)
        self.assertEqual(st, 200, body)
        return sorted(hbtest.unb64(row["key"]) for row in json.loads(body).get("Row", []))

    def starts(self, who, table, source, state=None):
        """The start keys of the table's regions, as hbtab regions --source lists them (and
        the table's state: ENABLED, checked when state is given)."""
        r = self.as_user(who, "regions", table, "--source", source, "-o", "json")
        self.assertOk(r)
        doc = r.json()
        if state:
            self.assertEqual(doc["table_state"], state)
        return [x["start"] for x in doc["regions"]]

    def drop(self, table):
        r = self.as_user("admin", "drop", table, "--yes")
        self.assertOk(r)


class AdminTest(SecureTest):
    """admin holds every permission: hbtab's whole line works through SPNEGO and TLS."""

    def test_create_regions_audit_repair_truncate_and_drop_as_admin(self):
        t = self.name("user_clicks_by_region_20261128")
        r = self.as_user("admin", "create", t, "--hex-splits", "8", "--via", "thrift2",
                         "--create-namespace", "--keyspace", "hex{16}")
        self.assertOk(r)
        self.assertIn("with 8 regions via thrift2; every boundary verified", r.out)
        # a key space whose keys start with 0-3, on the empty table: the plan merges the
        # regions above 40000000 into their neighbour
        r = self.as_user("admin", "repair", t, "--keyspace", "[0-3] hex{15}", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        steps = r.json()["steps"]
        self.assertEqual([s["action"] for s in steps], ["merge"])
        self.assertEqual([x["index"] for x in steps[0]["regions"]][-1], 7)
        self.put_rows(t, 400)
        expect = ["", "20000000", "40000000", "60000000", "80000000", "a0000000", "c0000000",
                  "e0000000"]
        self.assertEqual(self.starts("admin", t, "rest"), expect)
        self.assertEqual(self.starts("admin", t, "meta"), expect)
        for source in ("rest", "meta"):
            r = self.as_user("admin", "audit", t, "--source", source)
            self.assertOk(r)
            self.assertIn("healthy: 8 regions, 0 findings, keyspace 'hex{16}'", r.out)
        # with rows in them, the same regions are only reported: no merge of data
        r = self.as_user("admin", "repair", t, "--keyspace", "[0-3] hex{15}", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        steps = r.json()["steps"]
        self.assertTrue(steps)
        self.assertEqual({s["action"] for s in steps}, {"report"})
        self.assertEqual(len(self.rows(t)), 401)  # and the metadata row
        r = self.as_user("admin", "truncate", t, "--yes")
        self.assertOk(r)
        self.assertIn("8 regions, every boundary kept (verified); metadata row written back",
                      r.out)
        self.assertEqual(self.rows(t), [b"totalPartition"])
        self.assertEqual(self.starts("admin", t, "meta"), expect)
        r = self.as_user("admin", "drop", t, "--yes")
        self.assertOk(r)
        self.assertIsNone(self.rows(t))


    def test_create_through_the_shell_then_snapshot_and_drop_as_admin(self):
        t = self.name("shell_made_sessions_20261128")
        r = self.as_user("admin", "create", t, "--hex-splits", "4", "--via", "shell",
                         "--create-namespace")
        self.assertOk(r)
        self.assertIn("with 4 regions via shell; every boundary verified", r.out)
        self.put_rows(t, 40)
        r = self.as_user("admin", "drop", t, "--yes", "--snapshot")
        self.assertOk(r)
        self.assertRegex(r.out, r"snapshot '%s-shell_made_sessions_20261128_[0-9a-f]+-\d{8}T\d{6}Z'"
                         % NS)
        self.assertIsNone(self.rows(t))


    def test_rotate_day_by_day_as_admin_and_refused_for_reader(self):
        tmpl = "%s:sessions_%x_%%Y%%m%%d" % (NS, os.getpid())
        lock = os.path.join(Cluster.tmp, "rotate.lock")

        def rotate(who, day):
            return self.as_user(who, "rotate", "--template", tmpl, "--hex-splits", "2",
                                "--via", "thrift2", "--ahead", "1", "--retain", "1", "--yes",
                                "--create-namespace", "--lock", lock,
                                "--now", "2026-11-%sT10:00:00Z" % day)

        def day(d, month="11"):
            return tmpl.replace("%Y%m%d", "2026%s%s" % (month, d))
        r = rotate("admin", "28")
        self.assertOk(r)
        self.assertRegex(r.out, r"created +%s \(2 regions, N=2\)" % re.escape(day("29")))
        r = rotate("admin", "29")
        self.assertOk(r)
        self.assertRegex(r.out, r"created +%s " % re.escape(day("30")))
        self.assertRegex(r.out, r"dropped +%s " % re.escape(day("28")))
        self.assertIsNone(self.rows(day("28")))
        # the reader's run the next day creates nothing and drops nothing
        r = rotate("reader", "30")
        self.assertFails(r, 4, r"permission denied: HBase refused user 'reader' the CREATE "
                               r"permission")
        self.assertIsNone(self.rows(day("01", month="12")))
        self.assertEqual(self.rows(day("29")), [b"totalPartition"])
        self.assertEqual(self.rows(day("30")), [b"totalPartition"])
        for d in ("29", "30"):
            self.drop(day(d))


class ReaderTest(SecureTest):
    """reader holds READ only: every change is refused by HBase, said plainly (the user and
    the permission HBase wanted), exit 4, and nothing is left half-done."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = "%s:reader_sees_clicks_20261128_%x" % (NS, os.getpid())
        r = hbtest.run(["--rest", cls.rest, "--thrift", cls.thrift, "--cacert", cls.p["ca"],
                        "--negotiate", "--no-progress", "create", cls.table, "--hex-splits",
                        "4", "--via", "thrift2", "--create-namespace", "--keyspace", "hex{16}"],
                       env={"KRB5_CONFIG": cls.p["krb5_conf"],
                            "KRB5CCNAME": "FILE:" + Cluster.cache("admin")}, timeout=600)
        if r.rc:
            raise RuntimeError("admin's create: %r" % r)

    @classmethod
    def tearDownClass(cls):
        hbtest.run(["--rest", cls.rest, "--thrift", cls.thrift, "--cacert", cls.p["ca"],
                    "--negotiate", "--no-progress", "drop", cls.table, "--yes"],
                   env={"KRB5_CONFIG": cls.p["krb5_conf"],
                        "KRB5CCNAME": "FILE:" + Cluster.cache("admin")}, timeout=600)

    def setUp(self):
        if not hasattr(type(self), "keys"):
            self.put_rows(self.table, 40)
            type(self).keys = self.rows(self.table)
        self.assertEqual(len(self.keys), 41)

    def assertDenied(self, r, action, scope):
        self.assertFails(
            r, 4, r"permission denied: HBase refused user 'reader' the %s permission on %s" % (
                action, re.escape(scope)))
        self.assertNotIn("does not exist", r.err)
        self.assertNotIn("rejected the Kerberos ticket", r.err)

    def assertUntouched(self):
        self.assertEqual(self.rows(self.table), self.keys)
        self.assertEqual(len(self.starts("admin", self.table, "rest", state="ENABLED")), 4)
        r = self.as_user("admin", "meta", "get", self.table)
        self.assertOk(r)
        self.assertIn("N\t4", r.out)

    def test_reader_reads_regions_and_rows(self):
        self.assertEqual(self.starts("reader", self.table, "meta"),
                         ["", "40000000", "80000000", "c0000000"])
        self.assertEqual(self.rows(self.table, who="reader"), self.keys)

    def test_reader_default_source_reads_meta_and_prints_the_rest_listing(self):
        # HBase's AccessController lets every user READ hbase:meta (docs/secure-hbase.md), so
        # the default reads it here, and prints what /T/regions gives
        for cmd in (("regions",), ("audit", "--keyspace", "hex{16}")):
            got = self.as_user("reader", "-o", "json", cmd[0], self.table, *cmd[1:])
            want = self.as_user("reader", "-o", "json", cmd[0], self.table, *cmd[1:],
                                "--source", "rest")
            self.assertEqual((got.rc, got.err), (want.rc, want.err))
            self.assertIn(got.rc, (0, 1), got)
            g, w = json.loads(got.out), json.loads(want.out)
            self.assertEqual((g.pop("read_from"), w.pop("read_from")), ("meta", "rest"))
            self.assertEqual(g, w)
            v = self.as_user("reader", "-v", cmd[0], self.table, *cmd[1:])
            self.assertIn("regions of table '%s' read from hbase:meta" % self.table, v.err)

    def test_reader_audits_and_reads_the_metadata_row_without_the_schema(self):
        # HBase gives a table's schema to CREATE or ADMIN only (docs/secure-hbase.md); the
        # metadata row is a row, which READ reads: its N names its family
        for source in ("rest", "meta"):
            r = self.as_user("reader", "-o", "json", "audit", self.table, "--keyspace",
                             "hex{16}", "--source", source)
            self.assertOk(r)
            self.assertTrue(r.json()["healthy"], r.out)
        r = self.as_user("reader", "meta", "get", self.table)
        self.assertOk(r)
        self.assertIn("N\t4", r.out)
        r = self.as_user("reader", "meta", "set", self.table, "8", "--force")
        self.assertDenied(r, "WRITE", "table '%s'" % self.table)
        self.assertUntouched()

    def test_create_refused_for_reader_leaves_no_table(self):
        t = self.name("reader_made_20261128")
        r = self.as_user("reader", "create", t, "--hex-splits", "4", "--via", "thrift2")
        self.assertDenied(r, "CREATE", "namespace '%s'" % NS)
        self.assertIsNone(self.rows(t))
        # through the shell HBase names the whole principal (an RPC login, not the gateway's
        # short name)
        r = self.as_user("reader", "create", t, "--hex-splits", "4", "--via", "shell")
        self.assertFails(r, 4, r"^hbtab: shell create '%s' failed: permission denied: HBase "
                               r"refused user 'reader@%s' the CREATE permission on namespace "
                               r"'%s'" % (re.escape(t), self.p["realm"], NS))
        self.assertIsNone(self.rows(t))

    def test_drop_refused_for_reader(self):
        r = self.as_user("reader", "drop", self.table, "--yes")
        self.assertDenied(r, "CREATE", "table '%s'" % self.table)
        self.assertUntouched()

    def test_truncate_refused_for_reader(self):
        r = self.as_user("reader", "truncate", self.table, "--yes")
        self.assertDenied(r, "CREATE", "table '%s'" % self.table)
        self.assertUntouched()

    def test_disable_refused_for_reader(self):
        r = self.as_user("reader", "disable", self.table, "--yes")
        self.assertDenied(r, "CREATE", "table '%s'" % self.table)
        self.assertUntouched()

    def test_repair_apply_refused_for_reader(self):
        # a table with empty regions no key reaches: the plan merges them, which HBase
        # refuses a READ-only user; the reader may plan it (the schema is not needed)
        t = self.name("reader_repairs_20261128")
        self.assertOk(self.as_user("admin", "create", t, "--hex-splits", "4", "--via",
                                   "thrift2"))
        try:
            r = self.as_user("reader", "repair", t, "--keyspace", "[0-3] hex{15}")
            self.assertEqual(r.rc, 1, repr(r))
            self.assertIn("merge_region", r.out)
            r = self.as_user("reader", "repair", t, "--keyspace", "[0-3] hex{15}", "--apply")
            self.assertFails(r, 4, r"refused user 'reader(@%s)?' the ADMIN permission"
                                   % re.escape(self.p["realm"]))
            self.assertEqual(len(self.starts("admin", t, "rest", state="ENABLED")), 4)
        finally:
            self.drop(t)


class FailureTest(SecureTest):
    """Each way the secure connection fails is a plain error that says what to do, with no
    fallback to plain HTTP and no credential in any message (SecureTest.as_user checks)."""

    def test_no_ticket_asks_for_kinit(self):
        empty = os.path.join(Cluster.tmp, "cc-nobody")
        r = self.as_user("nobody", "status", cache=empty)
        self.assertFails(r, 4, r"HTTP 401: Kerberos SPNEGO failed: .*kinit gets one")
        r = self.as_user("nobody", "regions", "%s:none_%x" % (NS, os.getpid()), cache=empty)
        self.assertFails(r, 4, r"HTTP 401: Kerberos SPNEGO failed")

    def test_without_negotiate_the_gateway_asks_for_kerberos(self):
        r = hbtest.run(["--rest", self.rest, "--cacert", self.p["ca"], "--no-progress",
                        "status"], env=self.env(Cluster.cache("admin")))
        self.assertFails(r, 4, r"HTTP 401 Unauthorized: the REST gateway wants Kerberos: get "
                               r"a ticket with kinit and add --negotiate")

    def test_expired_ticket_says_so(self):
        cache = os.path.join(Cluster.tmp, "cc-short")
        kinit("admin", cache, lifetime="5s")
        env = dict(self.env(cache), PATH=os.environ.get("PATH", "/usr/bin:/bin"))
        # klist -s fails once no ticket in the cache is valid any more
        hbtest.wait_for(lambda: subprocess.run(["klist", "-s"], env=env).returncode != 0,
                        "the ticket's expiry", guard=120)
        r = self.as_user("admin", "status", cache=cache)
        self.assertFails(r, 4, r"HTTP 401: Kerberos SPNEGO failed: Ticket expired \(check the "
                               r"ticket with klist; kinit gets one\)")

    def test_wrong_ca_is_a_tls_error(self):
        d = tempfile.mkdtemp(prefix="hbtab-otherca-")
        try:
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                            "2", "-subj", "/CN=another CA", "-keyout", "ca.key", "-out",
                            "ca.pem"], cwd=d, check=True, capture_output=True)
            r = self.as_user("admin", "status", cacert=os.path.join(d, "ca.pem"))
            self.assertFails(r, 3, r"TLS certificate verification failed \(use --cacert")
        finally:
            shutil.rmtree(d, ignore_errors=True)
        self.assertNotIn("http://", r.err)

    def test_host_name_mismatch_on_gateway_and_thrift2(self):
        r = self.as_user("admin", "status", rest="https://127.0.0.1:%d" % self.p["rest"])
        self.assertFails(r, 3, r"the certificate is not for the host name of the URL \(use the "
                               r"name or address it was issued for\)")
        t = "%s:never_made_%x" % (NS, os.getpid())
        r = self.as_user("admin", "create", t, "--hex-splits", "4", "--via", "thrift2",
                         thrift="https://127.0.0.1:%d/" % self.p["thrift"])
        self.assertFails(r, 3, r"thrift2 \w+: cannot POST https://127\.0\.0\.1:\d+/: TLS "
                               r"certificate verification failed: the certificate is not for "
                               r"the host name")
        self.assertIsNone(self.rows(t))

    def test_a_url_naming_a_host_without_a_service_principal(self):
        # TLS waved through (--insecure), SPNEGO asks the KDC for HTTP/127.0.0.1, which the
        # realm does not have: the ticket's service is named
        r = hbtest.run(["--rest", "https://127.0.0.1:%d" % self.p["rest"], "--insecure",
                        "--negotiate", "--no-progress", "status"],
                       env=self.env(Cluster.cache("admin")))
        self.assertFails(r, 4, r"Kerberos SPNEGO failed: .*HTTP/127\.0\.0\.1@%s not found in "
                               r"Kerberos database" % self.p["realm"])
        self.assertNoSecret(r)

    def test_plain_http_to_the_tls_port_is_not_a_fallback(self):
        r = self.as_user("admin", "status", rest="http://localhost:%d" % self.p["rest"])
        self.assertFails(r, 3, r"if the server speaks TLS on this port, use an https:// URL")

    def test_trace_hides_the_credentials(self):
        r = self.as_user("admin", "-v", "describe", "%s:absent_%x" % (NS, os.getpid()))
        self.assertIn("Authorization: <redacted>", r.err)
        self.assertIn("SSL certificate verify ok", r.err)


def main():
    if sys.argv[1:2] == ["start"] and len(sys.argv) == 3:
        t0 = time.monotonic()
        try:
            _start(sys.argv[2], os.getppid())
        except RuntimeError as e:
            print(e, file=sys.stderr)
            sys.exit(1)
        p = launch.read_ports(sys.argv[2])
        print("secure real HBase %s ready in %.1f s (JVM pid %d, %.1f s with the build)" % (
            p.get("version"), p.get("start_seconds", 0), p["pid"], time.monotonic() - t0))
        sys.exit(0)
    if sys.argv[1:2] == ["stop"] and len(sys.argv) == 3:
        _stop(sys.argv[2])
        sys.exit(0)
    hbtest.main()


if __name__ == "__main__":
    main()
