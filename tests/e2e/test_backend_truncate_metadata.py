"""truncate keeps hbtab's metadata row against a cluster that fails for real: the emulator, or
real HBase (HBTAB_BACKEND=real).

- Admin.truncateTable's wait running out: Thrift2's truncateTable answer (a 64-region table)
  held in front of the server until hbtab gives up, while the master's procedure goes on;
  hbtab ends with the row back, or with it in its state file and the command printed, and
  that command writes it back.
- SIGTERM while HBase truncates: the row printed and kept; a rerun writes it back.
- The write-back failing: one 500 (a proxy in front of the gateway) is retried; the gateway
  restarted read-only just before the write (HBase's own 403) keeps the row in the state file,
  and the printed command, run once the gateway takes writes again, writes it back.

The rows and the metadata row are read by the test through the gateway, the state through
Thrift2 (Apache Thrift's Python runtime), never through hbtab."""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request

import backend
import hbtest
from lib.forward import ForwardingProxy

sys.path.insert(0, hbtest.GEN_DIR)
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import THttpClient  # noqa: E402
from hbase import THBaseService  # noqa: E402
from hbase.ttypes import TTableName  # noqa: E402

NS = "ns_trunc"
META = {"cf:N": "64", "cf:keyspace": "hex{16}", "cf:rotate": "user_clicks_%Y%m%d"}
GUARD = 900  # seconds: a guard against a hang only


def hex_splits(n):
    """The n - 1 split points of n equal parts of the 16-hex-digit key space."""
    return [b"%016x" % (i * (1 << 64) // n) for i in range(1, n)]


class TruncateMetadata(backend.BackendTest):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.proxy = None

    def tearDown(self):
        if self.proxy:
            self.proxy.stop()
        shutil.rmtree(self.home, ignore_errors=True)

    # ------------------------------------------------------------ plumbing
    def state(self, table):
        t = THttpClient.THttpClient(self.be.thrift)
        c = THBaseService.Client(TBinaryProtocol.TBinaryProtocol(t))
        ns, q = table.split(":", 1)
        tn = TTableName(ns=ns.encode(), qualifier=q.encode())
        try:
            if c.isTableEnabled(tn):
                return "ENABLED"
            return "DISABLED" if c.isTableDisabled(tn) else "CHANGING"
        finally:
            t.close()

    def make_namespace(self):
        req = urllib.request.Request("%s/namespaces/%s" % (self.be.rest, NS), data=b"",
                                     method="POST", headers={"X-XSRF-HEADER": "1"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                r.read()
        except urllib.error.HTTPError as e:
            if e.code >= 500:
                raise

    def table(self, regions):
        """ns_trunc:events_user_clicks_<test>: regions hex-split regions, a row in each, and
        the metadata row."""
        self.make_namespace()
        # the real cluster is shared: a name of this test's own
        t = "%s:events_user_clicks_20261128_%s_%x" % (
            NS, self._testMethodName.replace("test_", "", 1)[:24], os.getpid())
        splits = hex_splits(regions)
        self.be.create(t, families=["cf"], splits=splits)
        rows = [(s + b"-click", {b"cf:q": b"v"}) for s in [b"0000000000000000"] + splits]
        self.be.put(t, rows + [(b"totalPartition", {k.encode(): v.encode()
                                                    for k, v in META.items()})])
        self.assertEqual(self.be.metadata_row(t), META)
        return t, splits, [k for k, _ in rows]

    def meta_ids(self, t):
        """The region ids hbase:meta's rows of table t carry (read with a row-prefix GET)."""
        st, body = self.be.rest_get("/hbase%%3Ameta/%s*/info:regioninfo"
                                    % urllib.parse.quote(t + ",", safe=""))
        if st != 200:
            return set()
        # a region row is "table,start,id.encoded.": the id after the last comma
        return {hbtest.unb64(r["key"]).rsplit(b",", 1)[1].split(b".")[0] for r in body["Row"]}

    def present(self, t, key):
        st, _ = self.be.rest_get("/%s/%s" % (urllib.parse.quote(t, safe=""),
                                             urllib.parse.quote(key, safe="")))
        self.assertIn(st, (200, 404))
        return st == 200

    def state_files(self):
        return glob.glob(os.path.join(self.home, ".local", "state", "hbtab", "*"))

    def hbx(self, *args, rest=None, thrift=None, proc=False):
        argv = [hbtest.HBTAB, "--rest", rest or self.be.rest, "--thrift", thrift or self.be.thrift,
                "--no-progress", "--hbase-shell", self.be.shell] + list(args)
        env = hbtest.clean_env(self.home, getattr(self.be, "shell_env", None))
        if proc:
            return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=env)
        p = subprocess.run(argv, capture_output=True, env=env, timeout=GUARD)
        return hbtest.Result(p.returncode, p.stdout, p.stderr)

    def printed_command(self, err):
        self.assertIn("row 'totalPartition': cf:N='64' cf:keyspace='hex{16}' "
                      "cf:rotate='user_clicks_%Y%m%d'\n", err)
        files = self.state_files()
        self.assertEqual(len(files), 1, err)
        self.assertIn("kept in %s\n" % files[0], err)
        with open(files[0]) as f:
            self.assertEqual(json.load(f)["cells_text"],
                             "cf:N='64' cf:keyspace='hex{16}' cf:rotate='user_clicks_%Y%m%d'")
        m = re.search(r"run the same command again: (.*)\n", err)
        self.assertIsNotNone(m, err)
        return m.group(1)

    def rerun(self, command, more=""):
        p = subprocess.run(command + more + " -o json", shell=True, capture_output=True, timeout=GUARD,
                           env=hbtest.clean_env(self.home, getattr(self.be, "shell_env", None)))
        r = hbtest.Result(p.returncode, p.stdout, p.stderr)
        self.assertEqual(r.rc, 0, r)
        return r

    def assert_done(self, t, splits, keys):
        self.assertEqual(self.be.metadata_row(t), META)
        self.assertEqual(self.be.boundaries(t), splits)
        self.assertEqual(self.state(t), "ENABLED")
        self.assertFalse(any(self.present(t, k.decode()) for k in keys))
        self.assertEqual(self.state_files(), [])

    # ------------------------------------------------------------ the tests
    def test_truncate_table_timing_out_while_hbase_goes_on_keeps_the_row(self):
        t, splits, keys = self.table(64)
        # HBase truncates; its answer to truncateTable is held in front of the Thrift2 server
        # until hbtab gives up (--timeout + --wait), as when Admin.truncateTable's own wait
        # runs out while the master's procedure goes on. --timeout 8: every call before it
        # (the disable among them) must still be answered in time on a loaded machine.
        self.proxy = ForwardingProxy(lambda: self.be.thrift)
        self.proxy.fault("POST", "^/", "late", body=b"truncateTable")
        r = self.hbx("--timeout", "8", "truncate", t, "--yes", "--via", "thrift2", "--wait", "10",
                     thrift=self.proxy.url + "/")
        print("\nthe held truncateTable: exit %d\n%s" % (r.rc, r.err), file=sys.stderr)
        self.assertEqual([a for m, p, a in self.proxy.seen if a], ["late"])
        if r.rc == 0:
            # the wait found the truncate done: the row is back, and hbtab says what it found
            self.assertRegex(r.err, "thrift2 truncateTable: .*timed out.*; table '%s' was found "
                                    "ENABLED with every region online and every region new: "
                                    "the truncate took effect" % re.escape(t))
            self.assert_done(t, splits, keys)
            return
        # it gave up before HBase was done: the row is kept and the command printed
        self.assertIn(r.rc, (3, 4), r)
        command = self.printed_command(r.err)
        self.assertRegex(r.err, "is left (DISABLED|ENABLING or DISABLING)|not written back")
        out = self.rerun(command)
        j = out.json()
        self.assertEqual((j["verified"], j["metadata_restored"]), (True, True), j)
        self.assert_done(t, splits, keys)

    def test_sigterm_while_hbase_truncates_keeps_the_row_and_the_rerun_restores_it(self):
        t, splits, keys = self.table(16)
        ids = self.meta_ids(t)
        self.assertEqual(len(ids), 1)  # one create, one region id

        def truncating():
            # HBase has removed the old regions and written new ones into hbase:meta
            now = self.meta_ids(t)
            return bool(now) and not now & ids

        if self.be.kind == "emulator":
            # the emulator truncates at once: its new regions stay opening, so hbtab waits
            self.be.emu.control("POST", "/control/open-delay", {"seconds": 3600})
            self.addCleanup(self.be.emu.control, "POST", "/control/open-delay", {"seconds": 0})
        p = self.hbx("truncate", t, "--yes", "--via", "thrift2", proc=True)
        try:
            hbtest.wait_for(lambda: truncating() or p.poll() is not None,
                            "the truncate's new regions", guard=GUARD)
            if p.poll() is not None:
                self.fail("hbtab ended before the signal: %r" % (p.communicate(),))
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate(timeout=GUARD)
        except BaseException:
            p.kill()
            p.communicate()
            raise
        err = err.decode()
        self.assertEqual(p.returncode, 143, err)
        self.assertTrue(err.startswith("hbtab: terminated (SIGTERM)\n"), err)
        command = self.printed_command(err)
        if self.be.kind == "emulator":
            self.be.emu.control("POST", "/control/open-delay", {"seconds": 0})
            self.be.emu.control("POST", "/control/open", {"table": t})
        r = self.rerun(command)
        self.assertTrue(r.json()["metadata_restored"], r)
        self.assert_done(t, splits, keys)

    def test_one_500_on_the_write_back_is_retried(self):
        t, splits, keys = self.table(4)
        self.proxy = ForwardingProxy(lambda: self.be.rest)
        self.proxy.fault("PUT", "/hbtab-row", 500)
        r = self.hbx("truncate", t, "--yes", "--via", "thrift2", rest=self.proxy.url)
        self.assertOk(r)
        self.assertIn("metadata row written back", r.out)
        self.assertEqual([(m, a) for m, p, a in self.proxy.seen if m == "PUT"],
                         [("PUT", 500), ("PUT", None)])
        self.assert_done(t, splits, keys)

    def test_a_gateway_turned_read_only_before_the_write_back_keeps_the_row(self):
        t, splits, keys = self.table(4)
        self.proxy = ForwardingProxy(lambda: self.be.rest)
        # the first write of the row reaches a gateway restarted with hbase.rest.readonly:
        # HBase's own refusal (403), on every attempt
        self.proxy.fault("PUT", "/hbtab-row", lambda: self.be.readonly(True))
        try:
            r = self.hbx("truncate", t, "--yes", "--via", "thrift2", rest=self.proxy.url)
        finally:
            self.be.readonly(False)
        self.assertFails(r, 4, "table '%s' was truncated, but its metadata row could not be "
                               "written back: PUT .*: HTTP 403" % re.escape(t))
        self.assertIsNone(self.be.metadata_row(t))
        command = self.printed_command(r.err)
        r = self.rerun(command)
        self.assertTrue(r.json()["metadata_recovered"], r)
        self.assertIn("had no metadata row: the one an interrupted truncate kept in", r.err)
        self.assert_done(t, splits, keys)


if __name__ == "__main__":
    hbtest.main()
