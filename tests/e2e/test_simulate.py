"""hbtab simulate through the binary: reports, threads, key files, live tables, bad input."""
import os
import struct
import subprocess
import tempfile
import unittest

import hbtest
from hbtest import tsb


def md5_splits(regions, sample=1000000):
    """Seed 000's HashChoreWoker over its HashRowKeyGenerator (seed 0, start 0), in Python."""
    import hashlib
    seed = (0 ^ 0x5DEECE66D) & ((1 << 48) - 1)
    ts, keys = 0, set()

    def next_int(bound):
        nonlocal seed
        while True:
            seed = (seed * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
            u = seed >> 17
            r = u % bound
            if u - r + bound - 1 < (1 << 31):
                return r
    for i in range(1, sample + 1):
        ts += next_int(1000)
        raw = struct.pack(">II", i & 0xFFFFFFFF, ts & 0xFFFFFFFF)
        keys.add(hashlib.md5(raw).hexdigest()[:8].encode() + struct.pack(">q", i))
    rows = sorted(keys)
    base = len(rows) // regions
    return [rows[p] for p in range(base, len(rows), base)][:regions - 1]


def md5_splits_seeded(regions, sample, seed):
    """md5_splits for another java.util.Random seed (start time 0)."""
    import hashlib
    state = (seed ^ 0x5DEECE66D) & ((1 << 48) - 1)
    ts, keys = 0, set()
    for i in range(1, sample + 1):
        while True:
            state = (state * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
            u = state >> 17
            if u - u % 1000 + 999 < (1 << 31):
                break
        ts += u % 1000
        raw = struct.pack(">II", i & 0xFFFFFFFF, ts & 0xFFFFFFFF)
        keys.add(hashlib.md5(raw).hexdigest()[:8].encode() + struct.pack(">q", i))
    rows = sorted(keys)
    base = len(rows) // regions
    return [rows[p] for p in range(base, len(rows), base)][:regions - 1]


class Simulate(hbtest.OfflineTest):
    def sim(self, *args, **kw):
        return self.hb("simulate", "--no-progress", *args, **kw)

    def test_simulate__json_has_the_documented_fields(self):
        r = self.sim("--partition-splits", "10", "--generator", "partition:10", "--count",
                     "100000", "--servers", "3", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(doc["count"], 100000)
        self.assertEqual(doc["skew"], 1)
        self.assertEqual(len(doc["regions"]), 10)
        for i, reg in enumerate(doc["regions"]):
            self.assertEqual(reg["index"], i)
            self.assertEqual(reg["writes"], 10000)
            self.assertAlmostEqual(reg["share"], 0.1)
            self.assertEqual(reg["server"], "server-%d" % (i % 3 + 1))
        self.assertEqual(doc["regions"][1]["start"], tsb(struct.pack(">q", 1)))
        self.assertEqual(doc["regions"][0]["start"], "")
        self.assertEqual(doc["regions"][9]["end"], "")
        # round-robin placement: server-1 holds regions 0, 3, 6, 9
        self.assertEqual([s["regions"] for s in doc["servers"]], [4, 3, 3])
        self.assertEqual([s["writes"] for s in doc["servers"]], [40000, 30000, 30000])

    def test_simulate__n_auto_counts_the_servers_flag_offline(self):
        r = self.sim("--hex-splits", "auto", "--regions-per-server", "3", "--servers", "2",
                     "--generator", "md5", "--count", "6000", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(len(doc["regions"]), 6)
        self.assertEqual([s["regions"] for s in doc["servers"]], [3, 3])

    def test_simulate__sampled_md5_splits_are_the_seed_programs_and_even(self):
        r = self.sim("--sampled-splits", "4", "--generator", "md5", "--sample-size", "20000",
                     "--count", "20000", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        want = md5_splits(4, 20000)
        self.assertEqual([reg["start"] for reg in doc["regions"][1:]], [tsb(k) for k in want])
        # the written keys are the sample itself: each region gets exactly its quarter
        self.assertEqual([reg["writes"] for reg in doc["regions"]], [5000, 5000, 5000, 5000])

    def test_simulate__every_thread_count_gives_the_same_numbers(self):
        outs = []
        for k in ("1", "2", "3", "7"):
            r = self.sim("--hex-splits", "16", "--generator", "md5", "--count", "300000",
                         "--threads", k, "-o", "json")
            self.assertOk(r)
            outs.append(r.json())
        for o in outs[1:]:
            self.assertEqual(o, outs[0])
        self.assertEqual(sum(reg["writes"] for reg in outs[0]["regions"]), 300000)

    def test_simulate__sampled_splits_are_the_same_for_every_thread_count(self):
        # seed 340's clock draws again at its draw 2786 (nextInt(1000) refuses it), so the
        # spans the threads make of the sample and of the writes start past a redrawn draw
        want = md5_splits_seeded(6, 150000, 340)
        for design in ("md5", "transaction", "hex8", "partition:9", "salt:300"):
            outs = []
            for k in ("1", "2", "3"):
                r = self.sim("--sampled-splits", "6", "--generator", design, "--seed", "340",
                             "--sample-size", "150000", "--count", "150000", "--threads", k,
                             "-o", "json")
                self.assertOk(r)
                outs.append(r.json())
            for o in outs[1:]:
                self.assertEqual(o, outs[0], design)
            if design == "md5":
                self.assertEqual([reg["start"] for reg in outs[0]["regions"][1:]],
                                 [tsb(k) for k in want])
                self.assertEqual([reg["writes"] for reg in outs[0]["regions"]], [25000] * 6)

    def test_simulate__sequential_keys_all_land_in_the_last_region(self):
        r = self.sim("--partition-splits", "5", "--generator", "sequential", "--count", "5000",
                     "-o", "json")
        self.assertOk(r)
        # partition split keys are toBytes(1..4): id 1..3 each open a region, the rest pile up
        writes = [reg["writes"] for reg in r.json()["regions"]]
        self.assertEqual(writes, [0, 1, 1, 1, 4997])

    def test_simulate__keys_file_replays_toStringBinary_lines(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("a\nb\\x00\nzz\r\n\\xFF\n")
            path = f.name
        try:
            r = self.sim("--splits-file", "-", "--keys-file", path, "-o", "json",
                         stdin=b"b\nc\n")
            self.assertOk(r)
            self.assertEqual([reg["writes"] for reg in r.json()["regions"]], [1, 1, 2])
            self.assertEqual(r.json()["count"], 4)
        finally:
            os.unlink(path)

    def test_simulate__keys_from_stdin_and_count_limit(self):
        r = self.sim("--hex-splits", "2", "--keys-file", "-", "--count", "2", "-o", "json",
                     stdin=b"00\n90\nff\n")
        self.assertOk(r)
        self.assertEqual([reg["writes"] for reg in r.json()["regions"]], [1, 1])

    def test_simulate__keyspace_draws_follow_exact_shares(self):
        # UniformSplit over lower-case hex keys: regions 1..3 get 20 %, 42.5 %, 37.5 %
        r = self.sim("--uniform-splits", "10", "--keyspace", "hex{8}", "--count", "200000",
                     "-o", "json")
        self.assertOk(r)
        shares = [reg["share"] for reg in r.json()["regions"]]
        self.assertEqual(shares[0], 0)
        self.assertEqual(shares[5:], [0, 0, 0, 0, 0])
        self.assertAlmostEqual(shares[1], 0.2, delta=0.01)
        self.assertAlmostEqual(shares[2], 0.425, delta=0.01)
        self.assertAlmostEqual(shares[3], 0.375, delta=0.01)

    def test_simulate__policy_reports_splits_and_cold_regions(self):
        r = self.sim("--partition-splits", "1", "--generator", "sequential", "--count",
                     "100000", "--policy", "stepping", "--flush-size", "1M", "--max-filesize",
                     "8M", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(doc["policy"]["name"], "stepping")
        self.assertEqual(doc["policy"]["initial_size"], 2 << 20)
        self.assertGreaterEqual(len(doc["splits"]), 3)
        self.assertEqual(doc["splits"][0]["threshold"], 2 << 20)
        n = len(doc["regions"])
        self.assertEqual(n, len(doc["splits"]) + 1)
        self.assertEqual(doc["cold"], list(range(n - 1)))
        self.assertTrue(doc["regions"][-1]["writes"] > 0)
        text = self.sim("--partition-splits", "1", "--generator", "sequential", "--count",
                        "100000", "--policy", "stepping", "--flush-size", "1M",
                        "--max-filesize", "8M")
        self.assertOk(text)
        self.assertIn("policy stepping", text.out)
        self.assertIn("cold", text.out)

    def test_simulate__text_report_has_a_bar_per_region(self):
        r = self.sim("--salt-splits", "4", "--generator", "salt:4", "--count", "4000")
        self.assertOk(r)
        lines = r.out.split("\n")
        self.assertRegex(lines[0], r"^4000 writes over 4 regions \(salt:4\): skew ")
        rows = [l for l in lines[1:5]]
        self.assertEqual(len(rows), 4)
        for row in rows:
            self.assertRegex(row, r"#+$")

    def test_simulate__bad_input_exits_2(self):
        cases = [
            (["--hex-splits", "4", "--generator", "murmur"], r"unknown generator 'murmur'"),
            (["--hex-splits", "4", "--generator", "md5", "--count", "0"], r"--count"),
            (["--hex-splits", "4", "--generator", "md5", "--policy", "busy"],
             r"unknown policy 'busy'"),
            (["--hex-splits", "4", "--generator", "md5", "--policy", "stepping",
              "--flush-size", "1000"], r"--flush-size must be between"),
            (["--hex-splits", "4", "--generator", "md5", "--policy", "stepping",
              "--max-filesize", "1M"], r"--max-filesize must be between"),
            (["--hex-splits", "4", "--generator", "md5", "--row-size", "10"],
             r"need --policy"),
            (["--hex-splits", "4", "--generator", "md5", "--threads", "0"], r"--threads"),
            (["--generator", "md5"], r"missing a split specification"),
            (["--hex-splits", "4"], r"missing the keys"),
            (["--hex-splits", "4", "--keyspace", "hex{8}", "--policy", "stepping"],
             r"--policy needs the keys"),
            (["--hex-splits", "4", "--keyspace", "hex{"], r"--keyspace"),
        ]
        for args, pattern in cases:
            self.assertFails(self.sim(*args), 2, pattern)

    def test_simulate__bad_keys_file_line_is_named(self):
        r = self.sim("--hex-splits", "4", "--keys-file", "-", stdin=b"a\nb\n\nc\n")
        self.assertFails(r, 2, r"stdin:3: empty line")
        r = self.sim("--hex-splits", "4", "--keys-file", "-", stdin=b"a\n\xff\xfe\n")
        self.assertFails(r, 2, r"stdin:2: cannot parse key")
        r = self.sim("--hex-splits", "4", "--keys-file", "/nonexistent/keys")
        self.assertFails(r, 2, r"cannot read --keys-file '/nonexistent/keys'")

    @unittest.skipIf(hbtest.SANITIZED, "a run sized to last over a second on any machine is "
                     "minutes under ASan; the stdin-fed test below covers progress there")
    def test_simulate__long_generated_runs_show_progress_with_the_total_on_a_terminal(self):
        rc, out, err = hbtest.TtyStderr(
            ["simulate", "--hex-splits", "4", "--generator", "sequential", "--count",
             "400000000", "--threads", "2"]).finish()
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, rb"\rsimulating: \d+/400000000")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertTrue(out.startswith(b"400000000 writes over 4 regions"), out[:80])

    def test_simulate__keys_on_stdin_show_progress_while_they_arrive_and_erase_it(self):
        batch = b"".join(b"key%08d\n" % i for i in range(65536))
        t = hbtest.TtyStderr(["simulate", "--hex-splits", "4", "--keys-file", "-"],
                             stdin=subprocess.PIPE)
        sent = [0]

        def feed():
            t.p.stdin.write(batch)
            t.p.stdin.flush()
            sent[0] += 65536

        # progress is drawn once a second has passed, at the next 65,536-key mark: keep the
        # keys coming until it shows, then end the input
        t.wait_for_err(rb"\rsimulating: \d+ ", poke=feed)
        rc, out, err = t.finish()
        self.assertEqual(rc, 0, err)
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertTrue(out.startswith(b"%d writes over 4 regions" % sent[0]), out[:80])
        self.assertNotIn(b"simulating", out)


class SimulateLive(hbtest.EmulatorTest):
    def test_simulate__table_gives_boundaries_and_live_servers(self):
        splits = [struct.pack(">q", i) for i in range(1, 6)]
        self.emu.create("events", splits=splits)
        r = self.hb("simulate", "--table", "events", "--generator", "partition:6", "--count",
                    "6000", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual([reg["writes"] for reg in doc["regions"]], [1000] * 6)
        names = {s["name"] for s in doc["servers"]}
        self.assertTrue(all(":" in n for n in names), names)
        self.assertEqual(sum(s["regions"] for s in doc["servers"]), 6)

    def test_simulate__policy_takes_the_tables_max_filesize_and_flush_size(self):
        self.emu.create("sized", attrs={"MAX_FILESIZE": str(8 << 20),
                                        "MEMSTORE_FLUSHSIZE": str(1 << 20)})
        r = self.hb("simulate", "--table", "sized", "--generator", "sequential", "--count",
                    "60000", "--policy", "constant", "-o", "json")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(doc["policy"]["max_filesize"], 8 << 20)
        self.assertEqual(doc["policy"]["flush_size"], 1 << 20)
        self.assertGreaterEqual(len(doc["splits"]), 3)
        # a flag still wins
        r = self.hb("simulate", "--table", "sized", "--generator", "sequential", "--count",
                    "1000", "--policy", "constant", "--max-filesize", "64M", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["policy"]["max_filesize"], 64 << 20)

    def test_simulate__missing_table_exits_4(self):
        r = self.hb("simulate", "--table", "nope", "--generator", "md5")
        self.assertFails(r, 4, r"table 'nope' not found")


if __name__ == "__main__":
    hbtest.main()
