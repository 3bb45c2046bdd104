"""hbtab advise of a split specification: offline, every input from the flags."""
import hbtest

GiB = 1 << 30


class AdviseSplitSpec(hbtest.OfflineTest):
    def advise(self, *args):
        r = hbtest.run(["advise"] + list(args) + ["-o", "json"])
        self.assertOk(r)
        return r.json()

    def test_advise__the_size_decides_rounded_to_a_multiple_of_the_servers(self):
        # 32 GiB at 5 GiB a region: 7, rounded up to 9 for 3 servers
        j = self.advise("--hex-splits", "10", "--servers", "3", "--size", "32G")
        self.assertEqual((j["N"], j["splitspec"], j["current_splitspec"]),
                         (9, "--hex-splits 9", "--hex-splits 10"))
        self.assertEqual(j["rule"], {"n_for_servers": 6, "n_for_size": 7, "n_wanted": 9,
                                     "size_decides": True, "limited_by": None})
        inp = j["inputs"]
        self.assertEqual((inp["servers"], inp["store_size"], inp["split_size"],
                          inp["target_region_size"], inp["servers_from"]),
                         (3, 32 * GiB, 10 * GiB, 5 * GiB, "--servers"))
        self.assertEqual((j["now"]["regions"], j["now"]["scanners_per_server"]), (10, 4))
        self.assertEqual((j["recommended"]["region_size"], j["recommended"]["scan_scanners"]),
                         (32 * GiB // 9, 9))
        self.assertIsNone(j["skew_sample"])
        # a smaller split size makes more regions
        j = self.advise("--hex-splits", "10", "--servers", "3", "--size", "32G",
                        "--max-filesize", "2G")
        self.assertEqual((j["N"], j["inputs"]["split_size_from"]), (33, "--max-filesize"))

    def test_advise__the_servers_decide_a_small_table_and_k_is_asked_for(self):
        j = self.advise("--hex-splits", "10", "--servers", "4", "--size", "10M",
                        "--regions-per-server", "3")
        self.assertEqual((j["N"], j["rule"]["size_decides"]), (12, False))
        self.assertIn("servers decide", j["why"])
        # N = auto takes the same K
        j = self.advise("--hex-splits", "auto", "--regions-per-server", "3", "--servers", "4",
                        "--size", "0")
        self.assertEqual((j["N"], j["now"]["regions"]), (12, 12))

    def test_advise__what_the_specification_and_the_buckets_can_hold(self):
        j = self.advise("--hex-splits", "4", "--first", "0", "--last", "f", "--servers", "10",
                        "--size", "1G")
        self.assertEqual((j["N"], j["splitspec"], j["rule"]["limited_by"]),
                         (16, "--hex-splits 16 --first 0 --last f", "splitspec"))
        j = self.advise("--salt-splits", "16", "--servers", "5", "--size", "1T",
                        "--keyspace", "u8<16 *")
        self.assertEqual((j["N"], j["rule"]["limited_by"], j["inputs"]["buckets"]),
                         (16, "buckets", 16))
        self.assertTrue(j["inputs"]["keys_depend_on_n"])
        self.assertIn("new table", j["why"])

    def test_advise__skew_drawn_from_the_key_space(self):
        # hex{8} over --hex-splits: even either way
        j = self.advise("--hex-splits", "10", "--servers", "4", "--size", "1G",
                        "--keyspace", "hex{8}")
        self.assertEqual(j["skew_sample"], {"source": "keyspace", "keys": 100000,
                                            "keyspace": "hex{8}"})
        self.assertLess(j["now"]["skew"], 1.05)
        # keys all below 'a' (dec{8}) over hex splits: the regions above 9 get none
        j = self.advise("--hex-splits", "16", "--servers", "8", "--size", "1G",
                        "--keyspace", "dec{8}")
        self.assertGreater(j["now"]["skew"], 1.5)

    def test_advise__text_answers_first(self):
        r = hbtest.run(["advise", "--hex-splits", "10", "--servers", "3", "--size", "32G"])
        self.assertOk(r)
        self.assertTrue(r.out.startswith(
            "split specification: N = 9 (--hex-splits 9), now 10\n"), r.out)
        self.assertRegex(r.out, r"(?m)^store size\t32\.0 GiB\t--size$")
        self.assertRegex(r.out, r"(?m)^full scan: region scanners\t10\t9$")
        self.assertRegex(r.out, r"(?m)^why: N = max\(3 servers x 2 regions per server = 6, "
                                r"ceil\(32\.0 GiB / 5\.0 GiB target region size\) = 7\), "
                                r"rounded up to a multiple of 3 servers: 9\. The size decides")

    def test_advise__bad_input_is_a_usage_error(self):
        cases = [
            (["t1", "--hex-splits", "3"], "either TABLE or a split specification"),
            ([], "missing TABLE or a split specification"),
            (["--hex-splits", "3", "--servers", "2"], "needs --servers S and --size"),
            (["t1", "--servers", "3"], "go with a split specification"),
            (["--hex-splits", "3", "--servers", "2", "--size", "12Q"], "--size"),
            (["--hex-splits", "3", "--servers", "0", "--size", "1G"], "--servers"),
            (["--hex-splits", "3", "--servers", "2", "--size", "1G", "--keyspace", "hex{"],
             "--keyspace 'hex{'"),
            (["--hex-splits", "3", "--servers", "2", "--size", "1G",
              "--regions-per-server", "0"], "--regions-per-server"),
        ]
        for args, msg in cases:
            self.assertFails(hbtest.run(["advise"] + args), 2, msg)


if __name__ == "__main__":
    hbtest.main()
