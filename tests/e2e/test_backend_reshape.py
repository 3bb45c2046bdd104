"""reshape against a cluster: the emulator, or real HBase (HBTAB_BACKEND=real) with HBase's own
shell running the splits and merges.

A table made by `hbtab create --hex-splits 10` (its metadata row records N and the spec)
holding rows in every region is moved to the boundaries of --hex-splits 16, then 6: the
boundaries read back from the gateway equal `hbtab splits` byte for byte, the metadata row
holds the new N and spec, and every row is still there (counted by a scan of the gateway,
never through hbtab). Designs whose row keys carry N are refused.
"""
import os
import re
import shutil
import signal
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import backend
import hbtest
from hbtest import unb64

NS = "ns_reshape"
ROWS = 160  # spread over the key space: rows in every region of 6, 10 and 16
GUARD = 900  # seconds: a guard against a hang only

# The hbase shell as hbtab runs it (one call a round, or a clearing), with two faults on
# the way: on call RESHAPE_KILL9_AT the real shell runs the round's first command only and
# then the process hbtab started dies of SIGKILL (a shell killed in the middle of a round);
# on call RESHAPE_TERM_AT hbtab itself gets SIGTERM before the round starts (between steps).
FAULTY_SHELL = r"""
import os, signal, subprocess, sys
path = os.environ["RESHAPE_CALLS"]
n = int(open(path).read() or "0") + 1 if os.path.exists(path) else 1
open(path, "w").write(str(n))
if n == int(os.environ["RESHAPE_KILL9_AT"]):
    script = sys.argv[-1]
    first = [ln for ln in open(script) if ln.strip() and not ln.startswith("#")][0]
    short = script + ".first.rb"
    with open(short, "w") as f:
        f.write(first + "exit\n")
    subprocess.run(sys.argv[1:-1] + [short])
    os.kill(os.getpid(), signal.SIGKILL)
if n == int(os.environ["RESHAPE_TERM_AT"]):
    os.kill(os.getppid(), signal.SIGTERM)
    sys.exit(1)
os.execvp(sys.argv[1], sys.argv[1:])
"""


class ReshapeAgainstCluster(backend.BackendTest):
    def table(self, *spec, family="cf", suffix=""):
        """ns_reshape:events_user_clicks_20261128_<test>: created by hbtab with spec (its
        metadata row written), ROWS rows across the key space."""
        t = "%s:events_user_clicks_20261128_%s%s_%x" % (
            NS, self._testMethodName.replace("test_", "", 1)[:24], suffix, os.getpid())
        self.assertOk(self.hb("create", t, *spec, "--family", family, "--create-namespace"))
        self.be.put(t, [(self.key(i), {("%s:q" % family).encode(): b"v%d" % i})
                        for i in range(ROWS)])
        return t

    @staticmethod
    def key(i):
        return b"%08x-click-%04d" % (i * (1 << 32) // ROWS, i)

    def planned(self, *spec):
        r = self.hb("splits", *spec, "-o", "json")
        self.assertOk(r)
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def rows(self, t):
        """Every row key of t (the metadata row aside), read with a scan of the gateway."""
        st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(t, safe=""))
        self.assertEqual(st, 200, body)
        return {unb64(r["key"]) for r in (body or {}).get("Row", [])} - {b"totalPartition"}

    def recorded(self, t):
        r = self.hb("meta", "get", t, "-o", "json")
        self.assertOk(r)
        return r.json()

    def reshape(self, t, *args, env=None):
        return self.hb("reshape", t, *args, "-o", "json", env=env, timeout=GUARD)

    def assertReshaped(self, t, n, rows):
        self.assertEqual(self.be.boundaries(t), self.planned("--hex-splits", str(n)))
        m = self.recorded(t)
        self.assertEqual(str(m.get("N")), str(n), m)
        self.assertEqual(self.rows(t), rows)

    def test_plan_moves_10_regions_to_16_and_changes_nothing(self):
        t = self.table("--hex-splits", "10")
        before = self.be.boundaries(t)
        r = self.reshape(t, "--hex-splits", "16")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual((j["regions"], j["target_regions"], j["applied"]), (10, 16, False))
        self.assertFalse(j["matches"])
        self.assertLessEqual(j["peak"], 16 + 2, j)
        self.assertGreaterEqual(j["low"], 10, j)
        splits = [s for s in j["steps"] if s["action"] == "split"]
        merges = [s for s in j["steps"] if s["action"] == "merge"]
        # every new boundary is a split at its exact key; every old one goes in a merge
        self.assertEqual(sorted(s["split_key"] for s in splits),
                         sorted(hbtest.tsb(k) for k in self.planned("--hex-splits", "16")))
        self.assertEqual(len(merges), 9, j)
        for s in j["steps"]:
            self.assertTrue(16 + 2 >= s["regions_after"] >= 10, s)
            self.assertEqual(s["command"] is None, s["round"] > 1, s)
        # the script: round 1's commands only, then exit
        r = self.hb("reshape", t, "--hex-splits", "16", "--via", "print")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([ln for ln in r.out.splitlines() if not ln.startswith("#")],
                         [s["command"] for s in j["steps"] if s["round"] == 1] + ["exit"])
        # text: one line a step
        r = self.hb("reshape", t, "--hex-splits", "16")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(len([ln for ln in r.out.splitlines() if ln.startswith("round ")]),
                         len(j["steps"]), r)
        self.assertEqual(self.be.boundaries(t), before)
        # the same spec: nothing to do
        r = self.reshape(t, "--hex-splits", "10")
        self.assertOk(r)
        self.assertTrue(r.json()["matches"])

    def test_designs_whose_keys_carry_n_are_refused(self):
        t = self.table("--salt-splits", "8")
        r = self.hb("reshape", t, "--hex-splits", "16")
        self.assertFails(r, 5, re.escape("refusing to reshape '%s': it is a salt design of 8 "
                                          "buckets" % t))
        self.assertIn("modulo N", r.err)
        self.assertIn("MIGRATING A DESIGN THAT DEPENDS ON N", r.err)
        t2 = self.table("--hex-splits", "4", suffix="_hex")
        r = self.hb("reshape", t2, "--partition-splits", "8")
        self.assertFails(r, 5, re.escape("refusing to reshape '%s' to --partition splits" % t2))
        r = self.hb("reshape", t2, "--hex-splits", "8", "--keyspace", "u8<8 hex{8}")
        self.assertFails(r, 5, "partition number")
        r = self.hb("reshape", t2)
        self.assertFails(r, 2, "a split specification is needed")

    def writing(self, t):
        """A writer putting rows into t through the gateway until the block ends; the keys
        it wrote are appended to the list the block gets."""
        test = self

        class Writer:
            def __enter__(self):
                self.written, self.stop = [], threading.Event()
                self.th = threading.Thread(target=self.run)
                self.th.start()
                return self.written

            def run(self):
                i = 0
                while not self.stop.is_set():
                    k = b"%08x-live-%06d" % ((i * 2654435761) % (1 << 32), i)
                    test.be.put(t, [(k, {b"cf:q": b"w"})])
                    self.written.append(k)
                    i += 1
                    time.sleep(0.05)

            def __exit__(self, *exc):
                self.stop.set()
                self.th.join()
                return False
        return Writer()

    def test_apply_10_to_16_then_6_with_a_writer_keeps_every_row(self):
        t = self.table("--hex-splits", "10")
        rows = self.rows(t)
        self.assertEqual(len(rows), ROWS)
        r = self.reshape(t, "--hex-splits", "16", "--apply")
        self.assertOk(r)
        j = r.json()
        self.assertEqual((j["applied"], j["verified"], j["metadata"]), (True, True, "recorded"))
        self.assertReshaped(t, 16, rows)
        self.assertEqual(self.recorded(t).get("splits"), "--hex-splits 16")
        # 16 to 6 with a writer putting rows through the gateway the whole time
        with self.writing(t) as written:
            r = self.reshape(t, "--hex-splits", "6", "--apply")
        self.assertOk(r)
        self.assertGreater(len(written), 10)
        self.assertReshaped(t, 6, rows | set(written))
        self.assertEqual(self.recorded(t).get("splits"), "--hex-splits 6")
        # nothing left: a rerun plans nothing and exits 0
        self.assertOk(self.reshape(t, "--hex-splits", "6"))

    def test_apply_interrupted_twice_goes_on_to_the_same_end(self):
        t = self.table("--hex-splits", "4")
        rows = self.rows(t)
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        script = os.path.join(d, "faulty.py")
        with open(script, "w") as f:
            f.write(FAULTY_SHELL)
        shell = "/usr/bin/python3 %s %s" % (script, self.be.shell)
        env = {"RESHAPE_CALLS": os.path.join(d, "calls"), "RESHAPE_KILL9_AT": "1",
               "RESHAPE_TERM_AT": "3"}

        def run(*extra):
            return self.hb("reshape", t, "--hex-splits", "6", "--apply", *extra,
                           "--hbase-shell", shell, env=env, timeout=GUARD)
        # 1: the shell killed after the first of round 1's three splits; the others never
        # show, the run fails and records nothing
        r = run("--wait", "15")
        self.assertFails(r, 4, "did not show within 15 s")
        self.assertEqual(len(self.be.boundaries(t)), 4)
        self.assertEqual(str(self.recorded(t).get("N")), "4")
        # 2: planned again from the table as it is; SIGTERM before its second round
        r = run()
        self.assertEqual(r.rc, 128 + signal.SIGTERM, r)
        self.assertRegex(r.err, "round 1: ")
        self.assertNotIn("reshaped", r.out + r.err)
        moved = self.be.boundaries(t)
        self.assertNotEqual(moved, self.planned("--hex-splits", "6"))
        self.assertEqual(str(self.recorded(t).get("N")), "4")
        # 3: to the end, every row kept
        r = run()
        self.assertOk(r)
        self.assertReshaped(t, 6, rows)
        self.assertEqual(self.recorded(t).get("splits"), "--hex-splits 6")

if __name__ == "__main__":
    hbtest.main()
