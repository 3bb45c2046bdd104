"""End-to-end: hbtab audit of planned split sets (no table, no network)."""
import os
import re
import tempfile

import hbtest
from hbtest import OfflineTest

SEED001 = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]


def flagged(doc, kind="unreachable"):
    return [f["region"] for f in doc["findings"] if f["kind"] == kind]


class AuditOffline(OfflineTest):
    def test_audit__seed001_hex16_flags_regions_0_and_3_to_7(self):
        r = self.hb("audit", *SEED001, "--keyspace", "hex{16}")
        self.assertEqual(r.rc, 1, repr(r))
        lines = [l for l in r.out.splitlines() if l.startswith("unreachable: ")]
        self.assertEqual([int(l.split()[2]) for l in lines], [0, 3, 4, 5, 6, 7])
        # Boundaries appear in toStringBinary form.
        self.assertIn("['=\\xBD\\xBD", r.out)
        self.assertEqual(r.err, "")

    def test_audit__needs_no_temporary_file(self):
        # The split set is walked again for the findings: nothing is held back on disk, so an
        # unusable TMPDIR changes nothing and nothing is left in a usable one.
        want = self.hb("audit", *SEED001, "--keyspace", "hex{16}")
        self.assertEqual(want.rc, 1, repr(want))
        self.assertEqual(len([l for l in want.out.splitlines()
                              if l.startswith("unreachable: ")]), 6)
        with tempfile.TemporaryDirectory(prefix="hbtab-tmpdir-") as d:
            for tmpdir in (d, os.path.join(d, "missing")):
                for out in ([], ["-o", "json"]):
                    r = self.hb(*out, "audit", *SEED001, "--keyspace", "hex{16}",
                                env={"TMPDIR": tmpdir})
                    self.assertEqual((r.rc, r.err), (1, ""), repr(r))
                    if not out:
                        self.assertEqual(r.out, want.out)
            self.assertEqual(os.listdir(d), [])  # nothing left behind

    def test_audit__seed001_hex1_16_flags_regions_3_to_7(self):
        r = self.hb("-o", "json", "audit", *SEED001, "--keyspace", "hex{1,16}")
        self.assertEqual(r.rc, 1, repr(r))
        doc = r.json()
        self.assertFalse(doc["healthy"])
        self.assertEqual(flagged(doc), [3, 4, 5, 6, 7])
        self.assertEqual(doc["regions"][0]["keys"], "15")  # the 15 short all-zero keys

    def test_audit__json_shape_and_exact_shares(self):
        r = self.hb("-o", "json", "audit", *SEED001, "--keyspace", "hex{16}")
        doc = r.json()
        self.assertEqual(set(doc) >= {"healthy", "regions", "findings"}, True)
        regs = doc["regions"]
        self.assertEqual(len(regs), 10)
        for i, reg in enumerate(regs):
            self.assertEqual(reg["index"], i)
            for k in ("start", "end", "reachable", "share", "keys"):
                self.assertIn(k, reg)
            self.assertIsInstance(reg["reachable"], bool)
            self.assertIsInstance(reg["share"], float if reg["share"] else (int, float))
            self.assertIsInstance(reg["keys"], str)
        self.assertEqual(regs[0]["start"], "")
        self.assertEqual(regs[9]["end"], "")
        self.assertEqual(regs[1]["start"], "0000000000000000")
        self.assertEqual(regs[1]["end"], "6" + "\\xF6" * 15)
        total = 16 ** 16
        self.assertEqual(int(regs[1]["keys"]), 7 * 16 ** 15)
        self.assertEqual(int(regs[2]["keys"]), 3 * 16 ** 15)
        self.assertEqual(int(regs[8]["keys"]), 6 * 16 ** 15 - 1)
        self.assertEqual(regs[9]["keys"], "1")
        self.assertEqual(sum(int(x["keys"]) for x in regs), total)
        self.assertAlmostEqual(regs[1]["share"], 7 / 16, places=12)
        for f in doc["findings"]:
            self.assertEqual(set(f), {"kind", "region", "message"})
            self.assertIsInstance(f["region"], int)

    def test_audit__hex_splits_with_hex8_keys_is_healthy(self):
        r = self.hb("audit", "--hex-splits", "10", "--keyspace", "hex{8}")
        self.assertEqual(r.rc, 0, repr(r))
        self.assertTrue(r.out.startswith("healthy: 10 regions, 0 findings"), repr(r))
        doc = self.hb("-o", "json", "audit", "--hex-splits", "10", "--keyspace", "hex{8}").json()
        self.assertTrue(doc["healthy"])
        self.assertEqual(doc["findings"], [])
        self.assertTrue(all(x["reachable"] for x in doc["regions"]))

    def test_audit__upper_case_hex_keys_pile_up(self):
        doc = self.hb("-o", "json", "audit", "--hex-splits", "10", "--keyspace", "HEX{8}").json()
        shares = [round(100 * x["share"], 2) for x in doc["regions"]]
        self.assertEqual(shares, [10, 10, 11.25, 8.75, 10, 10, 40, 0, 0, 0])
        self.assertEqual(flagged(doc), [7, 8, 9])

    def test_audit__uniform_splits_vs_md5_prefix_key(self):
        doc = self.hb("-o", "json", "audit", "--uniform-splits", "10",
                      "--keyspace", "hex{8} byte{8}").json()
        self.assertEqual(flagged(doc), [0, 5, 6, 7, 8, 9])
        self.assertEqual(int(doc["regions"][4]["keys"]), 3 * 256 ** 8)

    def test_audit__partition_splits_vs_partition_key(self):
        r = self.hb("audit", "--partition-splits", "20", "--keyspace", "u64<20 byte{8}")
        self.assertEqual(r.rc, 0, repr(r))
        doc = self.hb("-o", "json", "audit", "--partition-splits", "20",
                      "--keyspace", "u64<20 *").json()
        self.assertTrue(doc["healthy"])
        self.assertEqual([x["keys"] for x in doc["regions"]], ["1"] * 20)

    def test_audit__quiet_prints_findings_only(self):
        r = self.hb("-q", "audit", *SEED001, "--keyspace", "hex{1,16}")
        self.assertEqual(r.rc, 1)
        self.assertEqual(len(r.out.splitlines()), 5)
        self.assertTrue(all(l.startswith("unreachable: region ") for l in r.out.splitlines()))
        r = self.hb("-q", "audit", "--hex-splits", "4", "--keyspace", "hex{8}")
        self.assertEqual((r.rc, r.out), (0, ""))

    def test_audit__bad_keyspaces_exit_2_with_position(self):
        cases = [
            ("hex{1,}", "--keyspace 'hex{1,}': column 7: expected a number"),
            ("hex{8} fo{2}", "column 8: unknown field 'fo'"),
            ("hex{5,3}", "column 5: minimum length is larger than the maximum"),
            ("* hex", "column 1: '*' must be the last field"),
            ("[z-a]", "column 2: bad range 'z-a'"),
            ("u8<300", "column 4: the bound N is too large for u8"),
            ("u16<0", "column 5: the bound N must be at least 1"),
            ("", "column 1: empty key space"),
        ]
        for spec, pattern in cases:
            r = self.hb("audit", "--hex-splits", "4", "--keyspace", spec)
            self.assertFails(r, 2, re.escape(pattern))
            self.assertEqual(r.out, "")

    def test_audit__usage_errors_exit_2(self):
        self.assertFails(self.hb("audit", "--hex-splits", "4"), 2, "needs --keyspace")
        self.assertFails(self.hb("audit"), 2, "missing TABLE")
        self.assertFails(self.hb("audit", "t1", "--hex-splits", "4", "--keyspace", "hex{8}"), 2,
                         "not both")
        self.assertFails(self.hb("audit", "--hex-splits", "4", "--keyspace", "hex{8}",
                                 "--hotspots"), 2, "need a TABLE")
        self.assertFails(self.hb("audit", "--hex-splits", "1x", "--keyspace", "hex{8}"), 2)

    def test_audit__streamed_text_matches_the_json_document_row_for_row(self):
        # The two renderings are made in separate passes over the regions; every row, share
        # and finding of one must be the other's, whatever repeats or changes along the chain.
        cases = [
            ["--range-splits", "3000", "--start", "0000000000000000", "--end",
             "ffffffffffffffff", "--keyspace", "hex{1,16}"],
            ["--hex-splits", "2000", "--keyspace", "HEX{8}"],
            ["--uniform-splits", "1500", "--keyspace", "hex{2} byte{3}"],
        ]
        for args in cases:
            text = self.hb("audit", *args)
            raw = self.hb("-o", "json", "audit", *args)
            self.assertIn(text.rc, (0, 1), repr(text))
            self.assertEqual(text.rc, raw.rc)
            doc = raw.json()
            shares = re.findall(r'"share":([^,]+),', raw.out)
            self.assertEqual(len(shares), len(doc["regions"]))
            want = ["%s: %s" % (f["kind"], f["message"]) for f in doc["findings"]]
            nf = len(want)
            if nf:
                want.append("")
            want.append("%s: %d regions, %d finding%s, keyspace '%s' (%s key%s)" % (
                "unhealthy" if nf else "healthy", len(doc["regions"]), nf,
                "" if nf == 1 else "s", doc["keyspace"], doc["total_keys"],
                "" if doc["total_keys"] == "1" else "s"))
            want.append("")
            total = 0
            for reg, lit in zip(doc["regions"], shares):
                self.assertEqual(float(lit), reg["share"])  # the same number, shortest text
                share = reg["share"]
                cell = "<0.01%" if 0 < share < 0.0001 else "%.2f%%" % (100.0 * share)
                want.append("\t".join([str(reg["index"]), reg["start"], reg["end"],
                                       "yes" if reg["reachable"] else "no", cell,
                                       reg["keys"]]))
                total += int(reg["keys"])
            self.assertEqual(text.out.split("\n")[:-1], want)
            self.assertEqual(total, int(doc["total_keys"]))
            self.assertEqual([i for i, r in enumerate(doc["regions"]) if not r["reachable"]],
                             flagged(doc))

    def test_audit__help_shows_both_forms(self):
        r = self.hb("audit", "--help")
        self.assertOk(r)
        self.assertIn("audit TABLE [--keyspace SPEC]", r.out)
        self.assertIn("audit SPLITSPEC --keyspace SPEC", r.out)


if __name__ == "__main__":
    hbtest.main()
