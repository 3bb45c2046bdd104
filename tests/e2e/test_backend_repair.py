"""repair against a cluster: the emulator, or real HBase (HBTAB_BACKEND=real) with HBase's own
shell running the merges and splits.

The seed design is createTable(desc, "0000000000000000", "ffffffffffffffff", 10) over 16-char
lower-case hex keys: regions 0 and 3-7 hold no key of the key space (docs/hbase-keys.md §4).
Boundaries and rows are read back from the gateway by the test, not by hbtab.
"""
import os
import shlex
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

import backend
import hbtest
from hbtest import tsb, unb64

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]
KEYSPACE = "hex{16}"
# one row in each reachable region (1, 2, 8, 9) and more: none in regions 0 and 3-7
ROWS = [b"0123456789abcdef", b"5555555555555555", b"6000000000000000", b"7abcdef012345678",
        b"9fffffffffffffff", b"a000000000000000", b"cafebabecafebabe", b"fffffffffffffffe",
        b"ffffffffffffffff"]

# A shell that ends hbtab with SIGTERM instead of running its second step, then execs the
# real shell for every other call: an --apply interrupted between two steps.
INTERRUPTER = r"""
import os, signal, sys
path = os.environ["REPAIR_CALLS"]
n = int(open(path).read() or "0") + 1 if os.path.exists(path) else 1
open(path, "w").write(str(n))
if n == 2:
    os.kill(os.getppid(), signal.SIGTERM)
    sys.exit(1)
os.execvp(sys.argv[1], sys.argv[1:])
"""


# A shell whose every command fails as HBase's 2.4 shell reports a master's refusal.
FAILING_SHELL = r"""
import sys
print("Took 0.0100 secondsERROR Java::OrgApacheHadoopHbaseExceptions::MergeRegionException: "
      "Merge switch is off!")
sys.exit(1)
"""


class RepairAgainstCluster(backend.BackendTest):
    def planned(self, *spec):
        r = self.hb("splits", *spec, "--format", "json")
        self.assertOk(r)
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def seeded(self, t, extra_rows=()):
        keys = self.planned(*SEED)
        self.be.create(t, families=["info"], splits=keys)
        self.be.put(t, [(k, {"info:q": b"v" + k}) for k in ROWS + list(extra_rows)])
        return keys

    def rows(self, t):
        """Every row key of t with its info:q value, read with a scan of the gateway."""
        st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(t, safe=""))
        self.assertEqual(st, 200, body)
        out = {}
        for row in (body or {}).get("Row", []):
            for c in row["Cell"]:
                if unb64(c["column"]) == b"info:q":
                    out[unb64(row["key"])] = unb64(c["$"])
        return out

    def repair(self, t, *args, env=None):
        return self.hb("repair", t, "--keyspace", KEYSPACE, *args, "-o", "json", env=env)

    def test_plan_names_every_merge_and_changes_nothing(self):
        t = self.name()
        keys = self.seeded(t)
        r = self.repair(t)
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual((j["table"], j["applied"], j["fixed"]), (t, False, False), r)
        merges = [s for s in j["steps"] if s["action"] == "merge"]
        self.assertEqual([[x["index"] for x in s["regions"]] for s in merges],
                         [[0, 1], [2, 3, 4, 5, 6, 7]], r)
        for s in merges:
            self.assertEqual(s["finding"], "unreachable")
            self.assertEqual(s["command"], "merge_region " + ", ".join(
                "'%s'" % x["name"] for x in s["regions"]))
            for a, b in zip(s["regions"], s["regions"][1:]):
                self.assertEqual(a["end"], b["start"], "regions of a merge are adjacent")
        self.assertEqual(merges[1]["regions"][1]["start"], tsb(keys[2]))
        self.assertEqual(self.be.boundaries(t), keys)
        # the text plan: one line a step, the finding, the regions and the command
        r = self.hb("repair", t, "--keyspace", KEYSPACE)
        self.assertEqual(r.rc, 1, r)
        lines = [ln for ln in r.out.splitlines() if ln.startswith("unreachable:")]
        self.assertEqual(len(lines), 2, r)
        self.assertTrue(all(": merge_region '" in ln for ln in lines), r)
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "--via", "print")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([ln for ln in r.out.splitlines() if not ln.startswith("#")],
                         [s["command"] for s in merges] + ["exit"], r)
        self.assertEqual(self.be.boundaries(t), keys)

    def test_seed_design_is_repaired_keeping_reachable_boundaries_and_rows(self):
        t = self.name()
        keys = self.seeded(t)
        before = self.rows(t)
        self.assertEqual(sorted(before), sorted(ROWS))
        r = self.repair(t, "--apply")
        self.assertOk(r)
        j = r.json()
        self.assertEqual((j["applied"], j["fixed"], j["steps_done"]), (True, True, 2), r)
        self.assertRegex(r.err, r"step 1/2 \(unreachable\): merge_region")
        self.assertRegex(r.err, r"step 2/2 done")
        # the reachable regions 1, 2, 8, 9 start where they did (region 1 now at the start)
        self.assertEqual(self.be.boundaries(t), [keys[1], keys[7], keys[8]])
        self.assertEqual(self.rows(t), before)
        a = self.hb("audit", t, "--keyspace", KEYSPACE, "-o", "json")
        self.assertNotIn("unreachable", [f["kind"] for f in a.json()["findings"]], a)
        self.assertTrue(all(x["reachable"] for x in a.json()["regions"]), a)
        # a second run finds nothing to do
        r = self.repair(t, "--apply")
        self.assertOk(r)
        self.assertEqual((r.json()["steps"], r.json()["fixed"], r.json()["steps_done"]),
                         ([], True, 0), r)
        self.assertEqual(self.be.boundaries(t), [keys[1], keys[7], keys[8]])
        r = self.hb("repair", t, "--keyspace", KEYSPACE)
        self.assertOk(r)
        self.assertRegex(r.out, "nothing to repair")

    def test_unreachable_region_holding_rows_is_reported_and_not_merged(self):
        t = self.name()
        stray = b"Bstray"  # not hex: it lands in region 3, ['=\xBD...', 'D\x84...')
        keys = self.seeded(t, [(stray)])
        r = self.repair(t, "--apply")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        reported = [s for s in j["steps"] if s["action"] == "report"]
        self.assertEqual([(s["finding"], [x["index"] for x in s["regions"]]) for s in reported],
                         [("unreachable_not_empty", [3])], r)
        self.assertFalse(j["fixed"], r)
        # region 3 is still there with its bounds, its row with it
        bounds = self.be.boundaries(t)
        self.assertIn(keys[2], bounds)
        self.assertIn(keys[3], bounds)
        self.assertEqual(self.rows(t)[stray], b"v" + stray)
        self.assertEqual(sorted(self.rows(t)), sorted(ROWS + [stray]))
        # the rerun merges nothing more and still reports it
        r = self.repair(t, "--apply")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([s["action"] for s in r.json()["steps"]], ["report"], r)
        self.assertEqual(self.be.boundaries(t), bounds)

    def test_interrupted_apply_is_completed_by_a_rerun(self):
        t = self.name()
        keys = self.seeded(t)
        with tempfile.TemporaryDirectory() as d:
            wrapper = os.path.join(d, "interrupt.py")
            with open(wrapper, "w") as f:
                f.write(INTERRUPTER)
            shell = "%s %s %s" % (sys.executable, wrapper, self.be.shell)
            env = {"REPAIR_CALLS": os.path.join(d, "calls")}
            r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "--hbase-shell", shell,
                        env=env)
            self.assertEqual(r.rc, 143, r)
            self.assertRegex(r.err, r"step 1/2 done")
            self.assertNotRegex(r.err, r"step 2/2 done")
        # one merge was made, the other not
        self.assertEqual(len(self.be.boundaries(t)), 8)
        r = self.repair(t, "--apply")
        self.assertOk(r)
        self.assertEqual((r.json()["steps_done"], r.json()["fixed"]), (1, True), r)
        self.assertEqual(self.be.boundaries(t), [keys[1], keys[7], keys[8]])
        self.assertEqual(sorted(self.rows(t)), sorted(ROWS))

    def test_a_failing_step_stops_the_run_with_the_shells_error(self):
        t = self.name()
        keys = self.seeded(t)
        with tempfile.TemporaryDirectory() as d:
            wrapper = os.path.join(d, "fail.py")
            with open(wrapper, "w") as f:
                f.write(FAILING_SHELL)
            r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "--hbase-shell",
                        "%s %s" % (sys.executable, wrapper))
        self.assertFails(r, 4, "step 1/2 failed: shell .*MergeRegionException.*Merge switch is off")
        self.assertNotRegex(r.err, "step 2/2")
        self.assertEqual(self.be.boundaries(t), keys)

    def test_max_steps_bounds_one_run(self):
        t = self.name()
        keys = self.seeded(t)
        r = self.repair(t, "--apply", "--max-steps", "1")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual((r.json()["steps_done"], r.json()["deferred"]), (1, 1), r)
        self.assertEqual(len(self.be.boundaries(t)), 8)
        r = self.repair(t, "--apply", "--max-steps", "1")
        self.assertOk(r)
        self.assertEqual(self.be.boundaries(t), [keys[1], keys[7], keys[8]])

    def test_hot_region_is_split_at_a_key_inside_it(self):
        t = self.name()
        r = self.hb("create", t, "--hex-splits", "4", "--family", "info")
        self.assertOk(r)
        # every write goes to region 2, [80000000, c0000000)
        written = [b"9%07d" % i for i in range(300)]
        self.be.put(t, [(k, {"info:q": b"v"}) for k in written])

        def planned():
            # region servers report their counters every few seconds (docs/hbase-wire.md §1)
            r = self.hb("repair", t, "--split-hot", "--window", "0", "-o", "json")
            return r.rc == 1 and any(s["action"] == "split" for s in r.json()["steps"])
        hbtest.wait_for(planned, "the writes to show in /status/cluster")
        r = self.hb("repair", t, "--split-hot", "--window", "0", "--apply", "-o", "json")
        self.assertOk(r)
        split = [s for s in r.json()["steps"] if s["action"] == "split"]
        self.assertEqual(len(split), 1, r)
        self.assertEqual([x["index"] for x in split[0]["regions"]], [2], r)
        key = split[0]["split_key"].encode()
        self.assertTrue(b"80000000" < key < b"c0000000", key)
        self.assertIn(key, written)  # the median of a sample of the region's own rows
        bounds = self.be.boundaries(t)
        self.assertIn(key, bounds)
        self.assertEqual(bounds, sorted(self.planned("--hex-splits", "4") + [key]))
        self.assertEqual(sorted(k for k in self.rows(t)), sorted(written))

    def test_hot_region_is_split_where_the_tables_split_restriction_puts_the_key(self):
        t = self.name()
        restriction = "hbase.regionserver.region.split_restriction."
        r = self.hb("create", t, "--hex-splits", "4", "--family", "info",
                    "--attr", restriction + "type=KeyPrefix",
                    "--attr", restriction + "prefix_length=2")
        self.assertOk(r)
        # every write goes to the last region, [c0000000, ); the sample's median is 'mb1',
        # and HBase splits at its first 2 bytes
        written = [b"m%c%d" % (c, i) for c in b"ab" for i in range(1, 10)]
        for _ in range(20):
            self.be.put(t, [(k, {"info:q": b"v"}) for k in written])

        def planned():
            r = self.hb("repair", t, "--split-hot", "--window", "0", "-o", "json")
            return r.rc == 1 and any(s["action"] == "split" for s in r.json()["steps"])
        hbtest.wait_for(planned, "the writes to show in /status/cluster")
        r = self.hb("repair", t, "--split-hot", "--window", "0", "-o", "json")
        split = [s for s in r.json()["steps"] if s["action"] == "split"]
        self.assertEqual(len(split), 1, r)
        self.assertEqual((split[0]["split_key"], [x["index"] for x in split[0]["regions"]]),
                         ("mb", [3]), r)
        self.assertIn("KeyPrefix, prefix_length 2", split[0]["message"], r)
        self.assertTrue(split[0]["command"].endswith(', "mb"'), r)
        r = self.hb("repair", t, "--split-hot", "--window", "0", "--apply", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["steps_done"], 1, r)
        self.assertNotIn("warning", r.err, r)
        self.assertEqual(self.be.boundaries(t), self.planned("--hex-splits", "4") + [b"mb"])
        self.assertEqual(sorted(self.rows(t)), written)

    def test_empty_regions_are_merged_but_never_below_min_regions(self):
        t = self.name()
        keys = self.planned("--hex-splits", "6")
        self.be.create(t, families=["info"], splits=keys)
        rows = [b"10000000", b"1fffffff", b"e0000000", b"ffffffff"]  # regions 0 and 5 only
        self.be.put(t, [(k, {"info:q": b"v"}) for k in rows])

        def merges(*extra):
            r = self.hb("repair", t, "--empty", *extra, "-o", "json")
            return [[x["index"] for x in s["regions"]] for s in r.json()["steps"]
                    if s["action"] == "merge"]
        # region servers report their regions' loads every few seconds
        hbtest.wait_for(lambda: merges() == [[1, 2, 3, 4]], "the empty regions' loads")
        self.assertEqual(merges("--min-regions", "5"), [[1, 2]])
        r = self.hb("repair", t, "--empty", "--min-regions", "5", "--apply", "-o", "json")
        self.assertOk(r)
        self.assertEqual(self.be.boundaries(t), [keys[0]] + keys[2:])
        self.assertEqual(sorted(self.rows(t)), rows)
        # never fewer than 5 regions: nothing more to do
        r = self.hb("repair", t, "--empty", "--min-regions", "5", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["steps"], [], r)

    def test_nothing_is_applied_while_a_region_is_closed(self):
        t = self.name()
        keys = self.seeded(t)
        self.be.unassign(t, 8)
        r = self.repair(t, "--apply")
        self.assertFails(r, 5, "refusing to change table")
        self.assertEqual(self.be.boundaries(t), keys)
        r = self.repair(t)
        self.assertEqual(r.rc, 1, r)
        self.assertEqual([s["action"] for s in r.json()["steps"] if s["action"] != "report"],
                         [], r)

    def shell(self, script):
        """Runs an hbase shell script through the backend's shell (as an operator would)."""
        with tempfile.NamedTemporaryFile("w", suffix=".rb", delete=False) as f:
            f.write(script + "\nexit\n")
        try:
            env = dict(os.environ)
            env.update(getattr(self.be, "shell_env", {}))
            p = subprocess.run(shlex.split(self.be.shell) + [f.name], capture_output=True,
                               env=env, timeout=600)
            self.assertNotIn(b"ERROR", p.stdout + p.stderr, p)
        finally:
            os.unlink(f.name)

    def merge_qualifiers(self, t, encoded):
        """Whether the meta row of the region with this encoded name names merge parents."""
        st, body = self.be.rest_get("/hbase:meta/*?startrow=%s&endrow=%s&column=info" % (
            urllib.parse.quote(t), urllib.parse.quote(t + " ,,")))
        for row in (body or {}).get("Row", []):
            if unb64(row["key"]).decode("utf-8", "replace").endswith("." + encoded + "."):
                return any(unb64(c["column"]).startswith(b"info:merge") for c in row["Cell"])
        return False

    def test_a_region_merged_moments_ago_waits_for_its_compaction(self):
        t = self.name()
        self.be.create(t, families=["info"], splits=[b"b", b"d", b"f", b"h"])
        self.be.put(t, [(k, {"info:q": b"v"}) for k in (b"c", b"e", b"g")])
        ks = ("--keyspace", "[cg] *")
        # regions 0 and 4 go to 1 and 3; region 2 holds 'e', outside the key space
        r = self.hb("repair", t, *ks, "--apply", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.json()["steps_done"], 2, r)
        self.assertEqual(self.be.boundaries(t), [b"d", b"f"])
        req = urllib.request.Request(self.be.rest + "/%s/e" % t, method="DELETE")
        with urllib.request.urlopen(req, timeout=60) as resp:
            self.assertEqual(resp.status, 200)
        # now empty, region 1 has only merged neighbours that still reference their parents'
        # files: HBase would refuse the merge, so the plan names the compaction instead
        r = self.hb("repair", t, *ks, "-o", "json")
        self.assertEqual(r.rc, 1, r)
        steps = r.json()["steps"]
        st, body = self.be.rest_get("/%s/regions" % urllib.parse.quote(t, safe=""))
        names = [x["name"].rsplit(".", 2)[1] for x in
                 sorted(body["Region"], key=lambda x: unb64(x.get("startKey", "")))]
        blocked = self.merge_qualifiers(t, names[0]) and self.merge_qualifiers(t, names[2])
        # (real HBase's CatalogJanitor may have run since the merges: nothing to wait for then)
        self.assertTrue(blocked or self.be.kind == "real")
        if blocked:
            self.assertEqual([(s["finding"], s["action"], s["command"]) for s in steps],
                             [("merge_blocked", "report", "major_compact '%s'" % names[0])], r)
            self.assertEqual([x["index"] for s in steps for x in s["regions"]], [1], r)

        # major_compact is asynchronous; once the compacted files have left the stores (the
        # real cluster's discharger runs every second, tests/realhbase/README.md) the
        # CatalogJanitor clears the merge qualifiers from meta. The janitor is run again
        # only while meta still names the merge parents.
        self.shell("major_compact '%s'\nmajor_compact '%s'\ncatalogjanitor_run"
                   % (names[0], names[2]))

        def mergeable():
            if self.merge_qualifiers(t, names[0]) or self.merge_qualifiers(t, names[2]):
                self.shell("catalogjanitor_run")
            r = self.hb("repair", t, *ks, "-o", "json")
            return any(s["action"] == "merge" for s in r.json()["steps"])
        hbtest.wait_for(mergeable, "the merged regions' references to be compacted away",
                        guard=600)
        r = self.hb("repair", t, *ks, "--apply", "-o", "json")
        self.assertOk(r)
        self.assertEqual(self.be.boundaries(t), [b"f"])
        self.assertEqual(sorted(self.rows(t)), [b"c", b"g"])

    def compactions(self, on):
        """The region servers' compactions on or off (the shell's compaction_switch)."""
        if self.be.kind == "real":
            self.shell("compaction_switch %s" % ("true" if on else "false"))
        else:
            self.be._post("/control/compaction-switch", {"enabled": bool(on)})

    def split_parent_rows(self, t):
        """How many rows of t in hbase:meta are split parents naming their daughters."""
        st, body = self.be.rest_get("/hbase:meta/*?startrow=%s&endrow=%s&column=info" % (
            urllib.parse.quote(t), urllib.parse.quote(t + " ,,")))
        return sum(1 for row in (body or {}).get("Row", [])
                   if any(unb64(c["column"]) == b"info:splitA" for c in row["Cell"]))

    def test_split_daughters_holding_references_are_reported_blocked_not_merged(self):
        t = self.name()
        self.be.create(t, families=["info"], splits=[b"b", b"h"])
        self.addCleanup(self.compactions, True)
        self.compactions(False)
        rows = [b"g1", b"g2", b"g3", b"h1"]
        self.be.put(t, [(k, {"info:q": b"v"}) for k in [b"c1"] + rows])
        if self.be.kind == "real":
            self.shell("flush '%s'" % t)
        req = urllib.request.Request(self.be.rest + "/%s/c1" % t, method="DELETE")
        with urllib.request.urlopen(req, timeout=60) as resp:
            self.assertEqual(resp.status, 200)
        if self.be.kind == "real":
            self.shell("flush '%s'" % t)
        # the file of [b, h) spans 'e' ('c1', deleted, and 'g1'...): both daughters reference
        # it (a file on one side only would go to its daughter as an HFileLink, which is no
        # reference), and the lower daughter holds no row
        self.shell("split '%s', 'e'" % t)
        hbtest.wait_for(lambda: self.be.boundaries(t) == [b"b", b"e", b"h"], "the split")
        ks = ("--keyspace", "[gh] *")
        # regions 0 and 1 ([, b) and the lower daughter) are unreachable and empty; the
        # reachable region after them is the upper daughter, which HBase will not merge
        r = self.hb("repair", t, *ks, "-o", "json")
        self.assertEqual(r.rc, 1, r)
        steps = r.json()["steps"]
        self.assertEqual([s["action"] for s in steps], ["report", "report"], r)
        self.assertEqual({s["finding"] for s in steps}, {"merge_blocked"}, r)
        st, body = self.be.rest_get("/%s/regions" % urllib.parse.quote(t, safe=""))
        names = [x["name"].rsplit(".", 2)[1] for x in
                 sorted(body["Region"], key=lambda x: unb64(x.get("startKey", "")))]
        for s in steps:
            self.assertEqual(s["command"], "major_compact '%s'; major_compact '%s'"
                             % (names[1], names[2]), r)
            self.assertIn("catalogjanitor_run", s["message"], r)
        r = self.hb("repair", t, *ks, "--apply", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.json()["steps_done"], 0, r)
        self.assertEqual(self.be.boundaries(t), [b"b", b"e", b"h"])
        # compactions back on, the daughters compacted: the janitor removes the parent's
        # row, and the merge is planned and done
        self.compactions(True)
        self.shell("major_compact '%s'\nmajor_compact '%s'" % (names[1], names[2]))

        def mergeable():
            if self.split_parent_rows(t):
                self.shell("catalogjanitor_run")
            r = self.hb("repair", t, *ks, "-o", "json")
            return any(s["action"] == "merge" for s in r.json()["steps"])
        hbtest.wait_for(mergeable, "the daughters' references to be compacted away",
                        guard=600)
        r = self.hb("repair", t, *ks, "--apply", "-o", "json")
        self.assertOk(r)
        self.assertEqual(self.be.boundaries(t), [b"h"])
        self.assertEqual(sorted(self.rows(t)), rows)

    def test_system_tables_and_bad_flags_are_refused_before_any_request(self):
        self.assertFails(self.hb("repair", "hbase:meta", "--apply"), 5)
        self.assertFails(self.hb("repair", "t", "--min-regions", "3"), 2, "--min-regions")
        self.assertFails(self.hb("repair", "t", "--via", "print", "--apply"), 2)
        self.assertFails(self.hb("repair", "t", "--max-steps", "0"), 2, "--max-steps")


if __name__ == "__main__":
    hbtest.main()
