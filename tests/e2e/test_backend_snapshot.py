"""snapshot, drop --snapshot and rotate --snapshot-before-drop against a cluster: the emulator
and its shell stand-in, or real HBase and its own shell (HBTAB_BACKEND=real).

A table leaves the cluster only after a snapshot of it is listed; the test restores each one
with the shell's clone_snapshot and reads the rows back from the gateway, not through hbtab.
"""
import os
import re
import shlex
import subprocess
import tempfile
import urllib.parse

import backend
import hbtest
from hbtest import unb64

ROWS = [(b"r1", {b"cf:a": b"v1"}), (b"r7", {b"cf:a": b"v7"}), (b"\x00bin", {b"cf:b": b"\xff"})]


class SnapshotAgainstCluster(backend.BackendTest):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hbtab-snapshot-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp])

    def shell(self, script):
        """Runs script in the backend's hbase shell; its stdout."""
        with tempfile.NamedTemporaryFile("w", suffix=".rb", delete=False) as f:
            f.write(script)
        env = dict(os.environ)
        env.update(getattr(self.be, "shell_env", {}))
        try:
            p = subprocess.run(shlex.split(self.be.shell) + [f.name], capture_output=True,
                               text=True, env=env, timeout=600)
        finally:
            os.unlink(f.name)
        return p.stdout

    def snapshots(self, prefix, then=""):
        """{name: table} of the snapshots whose name starts with prefix, as the shell lists them;
        the shell runs the script `then` afterwards in the same call (HBase's shell is a JVM of
        its own, seconds to start)."""
        out = self.shell("list_snapshots '^%s.*'\n%s" % (re.escape(prefix), then))
        found = {}
        for ln in out.splitlines():
            m = re.match(r"^ (\S+) (\S+) \(.*\)$", ln)
            if m:
                found[m.group(1)] = m.group(2)
        return found

    def rows(self, table):
        """{(row, column): value} of every cell, read from the gateway."""
        st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(table, safe=""))
        if st != 200:
            return None
        return {(unb64(r["key"]), unb64(c["column"])): unb64(c["$"])
                for r in body["Row"] for c in r["Cell"]}

    def table_with_rows(self, t):
        self.be.create(t, families=["cf"], splits=[b"5"])
        self.be.put(t, ROWS)
        want = {(k, c): v for k, cells in ROWS for c, v in cells.items()}
        self.assertEqual(self.rows(t), want)
        return want

    def listed_and_restored(self, prefix, snapshot, into):
        """The snapshots listed under prefix (as snapshots() gives them), then the rows of a
        table cloned from snapshot by the same shell call."""
        listed = self.snapshots(prefix, "clone_snapshot '%s', '%s'\n" % (snapshot, into))
        return listed, self.rows(into)

    def test_snapshot_then_clone_gives_a_table_holding_the_rows(self):
        t = self.name()
        want = self.table_with_rows(t)
        r = self.hb("snapshot", t, "-o", "json")
        self.assertOk(r)
        j = r.json()
        self.assertRegex(j["snapshot"], r"^%s-\d{8}T\d{6}Z$" % re.escape(t))
        self.assertEqual(j["restore"], "clone_snapshot '%s', '%s'" % (j["snapshot"], t))
        listed, restored = self.listed_and_restored(t, j["snapshot"], t + "_back")
        self.assertEqual(listed, {j["snapshot"]: t})
        self.assertEqual(restored, want)

    def test_drop_with_snapshot_leaves_a_snapshot_that_restores_the_rows(self):
        t = self.name()
        want = self.table_with_rows(t)
        r = self.hb("drop", t, "--yes", "--snapshot")
        self.assertOk(r)
        name = re.search(r"clone_snapshot '([^']+)', '%s'" % re.escape(t), r.out).group(1)
        self.assertIn("dropped %s" % t, r.out)
        self.assertIsNone(self.be.boundaries(t))
        listed, restored = self.listed_and_restored(t, name, t)
        self.assertEqual(listed, {name: t})
        self.assertEqual(restored, want)

    def test_rotate_snapshot_before_drop_day_by_day_leaves_one_snapshot_per_dropped_table(self):
        # four days, two tables kept: the tables of days 1 and 2 are dropped on days 3 and 4,
        # each after a snapshot of its own
        prefix = self.name() + "_"
        tmpl = prefix + "%Y%m%d"
        taken = {}
        for day in range(1, 5):
            r = self.hb("rotate", "--template", tmpl, "--hex-splits", "2", "--via", "thrift2",
                        "--ahead", "0", "--retain", "2", "--yes", "--snapshot-before-drop",
                        "--now", "2026-11-%02d" % day, "--lock", os.path.join(self.tmp, "l"))
            self.assertOk(r)
            if day >= 3:
                dropped = prefix + "202611%02d" % (day - 2)
                m = re.search(r"dropped     %s \(N=2\): snapshot '(%s-\d{8}T\d{6}Z)' "
                              r"taken first" % (dropped, dropped), r.out)
                self.assertTrue(m, r)
                taken[dropped] = m.group(1)
        tables = sorted(n for n in self.tables() if n.startswith(prefix))
        self.assertEqual(tables, [prefix + "20261103", prefix + "20261104"])
        snaps, restored = self.listed_and_restored(prefix, taken[prefix + "20261101"],
                                                   prefix + "back")
        self.assertEqual(snaps, {n: tb for tb, n in taken.items()})
        self.assertEqual(sorted(snaps.values()), [prefix + "202611%02d" % d for d in (1, 2)])
        self.assertEqual({k for k, _ in restored}, {b"totalPartition"})

    def test_a_failing_snapshot_drops_nothing(self):
        t = self.name()
        self.table_with_rows(t)
        failing = "/bin/false"
        r = self.hb("drop", t, "--yes", "--snapshot", "--hbase-shell", failing)
        self.assertFails(r, 4, r"table '%s' not dropped: shell snapshot '[^']+' of '%s' failed"
                         % (t, t))
        self.assertIsNotNone(self.be.boundaries(t))
        prefix = self.name() + "_"
        tmpl = prefix + "%Y%m%d"
        for day in (1, 2):
            self.assertOk(self.hb("rotate", "--template", tmpl, "--hex-splits", "2", "--via",
                                  "thrift2", "--ahead", "0", "--now", "2026-11-0%d" % day,
                                  "--lock", os.path.join(self.tmp, "l")))
        r = self.hb("rotate", "--template", tmpl, "--hex-splits", "2", "--via", "thrift2",
                    "--ahead", "0", "--retain", "1", "--max-drops", "5", "--yes",
                    "--snapshot-before-drop", "--now", "2026-11-03", "--hbase-shell", failing,
                    "--lock", os.path.join(self.tmp, "l"))
        self.assertFails(r, 4, r"not dropped")
        self.assertEqual(sorted(n for n in self.tables() if n.startswith(prefix)),
                         [prefix + "20261101", prefix + "20261102", prefix + "20261103"])

    def test_without_a_shell_snapshot_and_drop_snapshot_refuse_with_exit_5(self):
        t = self.name()
        self.be.create(t, families=["cf"])
        for args in (["snapshot", t], ["drop", t, "--yes", "--snapshot"]):
            r = self.hb(*args, "--hbase-shell", "/nonexistent/hbase shell -n")
            self.assertFails(r, 5, r"snapshots are taken with the hbase shell .*cannot be run")
            self.assertIsNotNone(self.be.boundaries(t))

    def tables(self):
        st, body = self.be.rest_get("/")
        return [x["name"] for x in body["table"]]


if __name__ == "__main__":
    hbtest.main()
