"""N = auto follows one rule everywhere (--servers S where the command takes it, no server
asked; else the cluster's live servers), and every source of split keys has one cap."""
import os

import hbtest
from hbtest import EmulatorTest


class OneAutoRuleOneRegionCap(EmulatorTest):
    """N = auto follows one rule everywhere (--servers S where the command takes it, no
    server asked; else the cluster's live servers), and every split source has one cap."""

    def test_splits_auto_with_servers_asks_no_server(self):
        r = hbtest.run(["--rest", "http://127.0.0.1:9", "--retries", "0", "splits",
                        "--hex-splits", "auto", "--regions-per-server", "2", "--servers", "3"])
        self.assertOk(r)
        self.assertEqual(len(r.out.splitlines()), 5)
        self.assertFails(self.hb("splits", "--hex-splits", "4", "--servers", "3"), 2,
                         r"--servers goes with N = auto")

    def test_audit_of_a_split_set_takes_auto_like_splits(self):
        offline = hbtest.run(["--rest", "http://127.0.0.1:9", "--retries", "0", "-o", "json",
                              "audit", "--hex-splits", "auto", "--regions-per-server", "2",
                              "--servers", "3", "--keyspace", "hex{8}"])
        self.assertOk(offline)
        self.assertEqual(len(offline.json()["regions"]), 6)
        # without --servers: the emulator's 3 live region servers, as splits and create count
        self.emu.clear_requests()
        live = self.hb("-o", "json", "audit", "--hex-splits", "auto", "--regions-per-server",
                       "2", "--keyspace", "hex{8}")
        self.assertOk(live)
        self.assertEqual(live.json()["regions"], offline.json()["regions"])
        self.assertIn("/status/cluster", [q["path"] for q in self.emu.requests()])
        keys = self.hb("splits", "--hex-splits", "auto", "--regions-per-server", "2")
        self.assertEqual([g["start"] for g in live.json()["regions"][1:]], keys.out.split())

    def test_a_splits_file_over_the_region_cap_is_refused_like_n(self):
        self.assertFails(self.hb("splits", "--hex-splits", "10000001"), 2, r"10000000")
        path = os.path.join(self.emu.tmp, "many.txt")
        with open(path, "w") as f:
            for base in range(0, 10000000, 100000):
                f.write("".join("%07x\n" % i for i in range(base, base + 100000)))
        r = self.hb("splits", "--splits-file", path, "--format", "json")
        self.assertFails(r, 2, r"many\.txt:10000000: more than 9999999 split keys")


if __name__ == "__main__":
    hbtest.main()
