"""What repair --apply reports after its steps ran, against a cluster (the emulator, or real
HBase with HBase's own shell): the entries left open name the regions that exist after the
steps, and a shell that hangs after its step took effect does not undo the step's success.

The seed design is the one of test_backend_repair: createTable(desc, "0000000000000000",
"ffffffffffffffff", 10) over 16-char lower-case hex keys, regions 0 and 3-7 unreachable.
"""
import os
import re
import sys
import tempfile
import urllib.parse

import backend
import hbtest
from hbtest import tsb, unb64

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]
KEYSPACE = "hex{16}"
ROWS = [b"0123456789abcdef", b"5555555555555555", b"6000000000000000", b"7abcdef012345678",
        b"9fffffffffffffff", b"a000000000000000", b"cafebabecafebabe", b"fffffffffffffffe",
        b"ffffffffffffffff"]

# Runs the shell it is given to the end, then hangs as some hbase shells do after their
# script: hbtab kills it at its timeout, after the step took effect.
HANGS_AFTER = r"""
import subprocess, sys, time
subprocess.run(sys.argv[1:])
sys.stdout.flush()
time.sleep(3600)
"""


class RepairOutcomesAgainstCluster(backend.BackendTest):
    def seeded(self, t, extra_rows=()):
        r = self.hb("splits", *SEED, "--format", "json")
        self.assertOk(r)
        keys = [unb64(k["base64"]) for k in r.json()["splits"]]
        self.be.create(t, families=["info"], splits=keys)
        self.be.put(t, [(k, {"info:q": b"v" + k}) for k in ROWS + list(extra_rows)])
        return keys

    def regions_now(self, t):
        """The table's regions from the gateway, in key order: (encoded name, start, end)."""
        st, body = self.be.rest_get("/%s/regions" % urllib.parse.quote(t, safe=""))
        self.assertEqual(st, 200, body)
        regs = [(x["name"].rsplit(".", 2)[1], unb64(x.get("startKey", "")),
                 unb64(x.get("endKey", ""))) for x in body["Region"]]
        return sorted(regs, key=lambda x: x[1])

    def assertOpenNamesRegionsNow(self, t, j):
        now = self.regions_now(t)
        for entry in j["open"]:
            for x in entry["regions"]:
                name, start, end = now[x["index"]]
                self.assertEqual((x["name"], x["start"], x["end"]),
                                 (name, tsb(start), tsb(end)), j)
            if entry["action"] == "merge":
                self.assertEqual(entry["command"], "merge_region " + ", ".join(
                    "'%s'" % x["name"] for x in entry["regions"]), j)

    def test_open_steps_after_apply_name_the_regions_left_by_the_steps(self):
        t = self.name()
        self.seeded(t)
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "--max-steps", "1",
                    "-o", "json")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual((j["steps_done"], j["fixed"]), (1, False), r)
        merges = [s for s in j["open"] if s["action"] == "merge"]
        self.assertEqual(len(merges), 1, r)
        # the merge left open is regions 1..6 of the table as it is now, the merged region
        # 0 its neighbour: none of them is a region the first step merged away
        self.assertEqual([x["index"] for x in merges[0]["regions"]], [1, 2, 3, 4, 5, 6], r)
        gone = {x["name"] for s in j["steps"][:1] for x in s["regions"]}
        self.assertFalse(gone & {x["name"] for x in merges[0]["regions"]}, r)
        self.assertOpenNamesRegionsNow(t, j)
        # the text lists the same regions
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "-o", "json")
        self.assertEqual(r.json()["steps"][0]["regions"], merges[0]["regions"], r)

    def test_open_report_after_apply_names_the_region_that_holds_rows(self):
        t = self.name()
        stray = b"Bstray"  # not hex: it lands in region 3, ['=\xBD...', 'D\x84...')
        keys = self.seeded(t, [stray])
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        reports = [s for s in j["open"] if s["finding"] == "unreachable_not_empty"]
        self.assertEqual(len(reports), 1, r)
        self.assertEqual([(x["start"], x["end"]) for x in reports[0]["regions"]],
                         [(tsb(keys[2]), tsb(keys[3]))], r)
        self.assertOpenNamesRegionsNow(t, j)
        # the text's "left open" lines too
        t = self.name("_text")
        self.seeded(t, [stray])
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply")
        self.assertEqual(r.rc, 1, r)
        left = r.out.split("left open:\n", 1)[1]
        self.assertRegex(left, r"^unreachable_not_empty: region 2 %s \['%s', '%s'\)" % (
            self.regions_now(t)[2][0], re.escape(tsb(keys[2])), re.escape(tsb(keys[3]))))

    def test_a_shell_that_hangs_after_its_merge_counts_the_step_done(self):
        t = self.name()
        keys = self.seeded(t)
        # the real shell starts a JVM: its budget leaves room for that; the stand-in's not
        budget = ["--timeout", "60", "--wait", "30"] if self.be.kind == "real" else \
            ["--timeout", "2", "--wait", "5"]
        with tempfile.TemporaryDirectory() as d:
            wrapper = os.path.join(d, "hang.py")
            with open(wrapper, "w") as f:
                f.write(HANGS_AFTER)
            r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "--max-steps", "1",
                        "--hbase-shell", "%s %s %s" % (sys.executable, wrapper, self.be.shell),
                        *budget, "-o", "json")
        self.assertEqual(r.rc, 1, r)  # one step deferred: findings, not a failure
        j = r.json()
        self.assertEqual((j["steps_done"], j["deferred"]), (1, 1), r)
        self.assertRegex(r.err, r"timed out after \d+ s and was killed.*its result shows: "
                                r"the step is done")
        self.assertRegex(r.err, r"step 1/1 done")
        self.assertNotRegex(r.err, "failed")
        self.assertEqual(len(self.be.boundaries(t)), 8)
        self.assertEqual(self.be.boundaries(t)[0], keys[1])
        # the rerun plans only the step left
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "-o", "json")
        self.assertEqual([s["action"] for s in r.json()["steps"]], ["merge"], r)

    def test_a_shell_that_hangs_before_its_step_fails_the_step(self):
        t = self.name()
        keys = self.seeded(t)
        r = self.hb("repair", t, "--keyspace", KEYSPACE, "--apply", "--hbase-shell",
                    "%s -c 'import time; time.sleep(3600)'" % sys.executable,
                    "--timeout", "2", "--wait", "1")
        self.assertFails(r, 3, r"step 1/2 failed: shell merge_region .* timed out after 3 s "
                               r"and was killed .*; its result did not show within 1 s")
        self.assertEqual(self.be.boundaries(t), keys)
        # said once: as the step failed, not again at the end
        self.assertEqual(r.err.count("timed out"), 1, r)


if __name__ == "__main__":
    backend.main()
