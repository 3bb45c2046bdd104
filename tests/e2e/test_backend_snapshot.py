"""snapshot, drop --snapshot and rotate --snapshot-before-drop against a cluster: the emulator
and its shell stand-in, or real HBase and its own shell (HBTAB_BACKEND=real).

A table leaves the cluster only after the shell's Admin answers that a snapshot of it exists;
the test restores each one with the shell's clone_snapshot and reads the rows back from the
gateway, not through hbtab. Table names are of realistic length (a snapshot name adds 17
characters to them, past the 20 columns the shell's formatter gives a name on a terminal).

Some runs are made with the shell as it runs when JRuby cannot load its native support
(no_native()): IO#tty? then answers true, the formatter lays its tables out for an 80-column
terminal and wraps every longer name, pads each command's time, and stty complains on stderr.
That is how real shells have run on some machines (seen on 2.4.17); hbtab must not care.
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

# The test's own question to the shell: every snapshot whose name starts with a prefix, one
# tab-separated line each (not list_snapshots' table, which wraps).
LIST = ("hbt_p = '%s'; @shell.admin.list_snapshot('.*')"
        ".select { |x| x.getName.start_with?(hbt_p) }"
        ".each { |x| puts \"TEST-SNAPSHOT\\t#{x.getName}\\t#{x.getTableNameAsString}\" }\n")


def no_native(be):
    """The environment that runs be's shell without JRuby's native support."""
    if be.kind == "real":
        return {"JAVA_TOOL_OPTIONS": "-Djruby.native.enabled=false"}
    return {"HBEMU_SHELL_NO_NATIVE": "1"}


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
        """{name: table} of the snapshots whose name starts with prefix, as the shell's Admin
        answers; the shell runs the script `then` afterwards in the same call (HBase's shell is
        a JVM of its own, seconds to start)."""
        out = self.shell(LIST % prefix + then + "exit\n")
        found = {}
        for ln in out.splitlines():
            m = re.search(r"TEST-SNAPSHOT\t(\S+)\t(\S+)$", ln)
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
        r = self.hb("snapshot", t, "-o", "json", env=no_native(self.be))
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
        r = self.hb("drop", t, "--yes", "--snapshot", env=no_native(self.be))
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
                        "--now", "2026-11-%02d" % day, "--lock", os.path.join(self.tmp, "l"),
                        env=no_native(self.be) if day == 4 else None)
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

    def test_drop_of_400_rows_with_snapshot_clones_back_every_row(self):
        # a name of 7+ characters: its snapshot's name (table + 17) is wider than the 20
        # columns the shell's formatter gives a name on a terminal
        t = "events_user_clicks_20261128_%x" % os.getpid()
        self.be.create(t, families=["cf"], splits=[b"row100", b"row200", b"row300"])
        self.be.put(t, [(b"row%03d" % i, {b"cf:n": b"%d" % i, b"cf:pad": b"x" * 64})
                        for i in range(400)])
        self.assertEqual(self.count(t), 400)
        r = self.hb("-o", "json", "drop", t, "--yes", "--snapshot", env=no_native(self.be))
        self.assertOk(r)
        self.assertTrue(r.json()["dropped"], r)
        name = r.json()["snapshot"]
        self.assertRegex(name, r"^%s-\d{8}T\d{6}Z$" % re.escape(t))
        self.assertIsNone(self.be.boundaries(t))
        listed = self.snapshots(name, "clone_snapshot '%s', '%s'\n" % (name, t))
        self.assertEqual(listed, {name: t})
        self.assertEqual(self.count(t), 400)
        self.assertEqual(self.be.boundaries(t), [b"row100", b"row200", b"row300"])

    def test_snapshot_of_a_namespaced_table_and_of_a_name_near_the_limit(self):
        ns = "ev_%x" % os.getpid()
        tables = ["%s:events_user_clicks_20261128" % ns,
                  # 200 characters: the snapshot's name is 217
                  ("events_user_clicks_20261128_%x_" % os.getpid()).ljust(200, "z")]
        self.assertOk(self.hb("create", tables[0], "--hex-splits", "2", "--family", "cf",
                              "--via", "thrift2", "--create-namespace"))
        self.be.create(tables[1], families=["cf"])
        for t in tables:
            self.be.put(t, ROWS)
            r = self.hb("-o", "json", "snapshot", t, env=no_native(self.be))
            self.assertOk(r)
            name = r.json()["snapshot"]
            self.assertRegex(name, r"^%s-\d{8}T\d{6}Z$" % re.escape(t.replace(":", "-")))
            self.assertEqual(self.snapshots(name), {name: t})
        self.assertEqual(len(name), 217)
        # a name of the caller's own, '.' in it: the same name with any other character in
        # that place is not it
        t, mine = tables[1], "evt_%x.v1" % os.getpid()
        r = self.hb("snapshot", t, mine, env=no_native(self.be))
        self.assertOk(r)
        # the name in use: the shell's own message, not stty's complaint or a stack frame
        r = self.hb("snapshot", t, mine, env=no_native(self.be))
        self.assertFails(r, 4, r"failed \(.*exit 1\): .*Snapshot '%s' already stored"
                         % re.escape(mine))
        self.assertNotIn("stty", r.err)
        self.assertNotIn("jar-bootstrap", r.err)
        self.assertEqual(self.snapshots(mine[:-3]), {mine: t})

    def count(self, table):
        """The rows the gateway reads from table."""
        return len({k for k, _ in self.rows(table)})

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
