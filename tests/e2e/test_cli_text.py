"""Text an operator reads: counts of one are singular, a quote inside a quoted key or name is
escaped (\\x27, which toBytesBinary reads back), a reported elapsed time is the time that
passed, and every man page opens with the same header."""
import os
import re
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest, b64

# "1 regions", "1 keys", "1 writes"...: a count of one with a plural noun.
ONE_PLURAL = re.compile(r"(?<![\d.])1 (region|key|write|finding|split|partition|server|table|"
                        r"row|byte|attempt|cell|change|point|live region|split point)s\b")


class Singular(OfflineTest):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hbtab-text-")

    def tearDown(self):
        import shutil
        shutil.rmtree(self.tmp, ignore_errors=True)

    def file(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def assertSingular(self, r, *wanted):
        text = r.out + r.err
        self.assertIsNone(ONE_PLURAL.search(text), text)
        for w in wanted:
            self.assertIn(w, text)

    def test_text__counts_of_one_are_singular(self):
        splits = self.file("s", b"b\n")
        r = self.hb("audit", "--splits-file", splits, "--keyspace", "[a]")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertSingular(r, "2 regions, 1 finding, keyspace '[a]' (1 key)")
        r = self.hb("audit", "--hex-splits", "1", "--keyspace", "hex{8}")
        self.assertOk(r)
        self.assertSingular(r, "healthy: 1 region, 0 findings")
        r = self.hb("simulate", "--hex-splits", "1", "--keyspace", "hex{8}", "--count", "1")
        self.assertOk(r)
        self.assertSingular(r, "1 write over 1 region")
        r = self.hb("splits", "--sampled-splits", "4", "--sample-file", self.file("k", b"a\n"))
        self.assertFails(r, 2)
        self.assertSingular(r, "a sample of 1 key is too small")

    def test_text__quotes_inside_quoted_keys_are_escaped(self):
        r = self.hb("audit", "--splits-file", self.file("q", b"b'c\n"), "--keyspace", "[a]")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertIn("region 1 ['b\\x27c', '')", r.out)
        r = self.hb("splits", "--splits-file", self.file("o", b"b\na'x\n"))
        self.assertFails(r, 2, r"key 'a\\x27x' is not greater")
        r = self.hb("regions", "a'b")
        self.assertFails(r, 2, r"invalid table name 'a\\x27b': character \"'\" is not allowed")
        # inside quotes nothing is left that ends the quote early
        for text in (r.err,):
            for quoted in re.findall(r"'((?:[^'\\]|\\.)*)'", text):
                self.assertNotIn("'", quoted)


class QuotedMetadataRow(EmulatorTest):
    def test_text__metadata_row_name_with_a_quote_is_escaped(self):
        self.emu.create("t1", [])
        r = self.hb("meta", "get", "t1", "--metadata-row", "it's")
        self.assertFails(r, 1, r"no metadata row 'it\\x27s' in table 't1'")


class Elapsed(EmulatorTest):
    def test_text__hotspot_window_reports_the_time_that_passed(self):
        self.emu.create("t1", [b"m"])
        # the second counter reading answers 2 s late: the writes counted span window + 2 s
        self.emu.fault(server="rest", method="GET", path="^/status/cluster", kind="delay",
                       seconds=2, count=-1)
        r = self.hb("-o", "json", "audit", "t1", "--hotspots", "--window", "1")
        self.assertOk(r)
        hot = r.json()["hotspots"]
        self.assertEqual(hot["window"], 1)
        self.assertGreaterEqual(hot["elapsed"], 3.0)
        r = self.hb("audit", "t1", "--hotspots", "--window", "1")
        m = re.search(r"(\d+) writes? in (\d+\.\d) s", r.out)
        self.assertIsNotNone(m, r.out)
        self.assertGreaterEqual(float(m.group(2)), 3.0)

    def test_text__one_reading_says_since_the_regions_opened(self):
        self.emu.create("t1", [b"m"])
        r = self.hb("audit", "t1", "--hotspots", "--window", "0")
        self.assertOk(r)
        self.assertRegex(r.out, r"\d+ writes? since the regions opened")
        self.assertNotIn(" in 0 s", r.out)

    def test_text__stored_n_against_one_live_region_is_singular(self):
        self.emu.create("t1", [])
        self.emu.control("POST", "/control/put", {"table": "t1", "rows": [{
            "key": b64("totalPartition"), "cells": [{"column": b64("cf:N"), "value": b64("4")}]}]})
        r = self.hb("audit", "t1")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertIn("the table has 1 live region (", r.out)
        self.assertIsNone(ONE_PLURAL.search(r.out), r.out)


class ManHeaders(OfflineTest):
    def test_text__every_man_page_has_the_same_header_style(self):
        version = self.hb("--version").out.split()[1]
        man = os.path.join(hbtest.SRC, "man")
        dates = set()
        for name in sorted(os.listdir(man)):
            with open(os.path.join(man, name), encoding="utf-8") as f:
                first = f.readline().rstrip("\n")
            title = name[:-2].upper().replace("-", "\\-")
            with self.subTest(page=name):
                m = re.match(r'^\.TH (\S+) 1 "([^"]+)" "hbtab ([^"]+)" "hbtab manual"$', first)
                self.assertIsNotNone(m, first)
                self.assertEqual((m.group(1), m.group(3)), (title, version))
                dates.add(m.group(2))
        self.assertEqual(len(dates), 1, "man pages carry different dates: %s" % sorted(dates))

if __name__ == "__main__":
    hbtest.main()
