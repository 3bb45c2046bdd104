"""The documentation says what runs: hbtab(1)'s SEE ALSO names every command page, rotate's
synopsis and usage, --help's spacing, every generator listed where it is accepted,
regions(1) and meta(1) naming the requests that run; and JSON numbers are the shortest exact
text."""
import json
import os
import re

import hbtest
from hbtest import EmulatorTest


MAN = os.path.join(hbtest.SRC, "man")


def man(name):
    with open(os.path.join(MAN, name), encoding="utf-8") as f:
        return f.read().replace("\\-", "-")


def significant_digits(tok):
    mant = re.sub(r"[eE].*$", "", tok).lstrip("-").replace(".", "").lstrip("0")
    return len(mant)


class DocsSayWhatRuns(EmulatorTest):
    """The listed doc fixes (SEE ALSO, rotate's synopsis, help spacing, generator lists,
    regions(1)/meta(1) naming the requests that run) and JSON numbers in shortest exact form."""

    GENERATORS = ("md5", "hash", "partition:4", "sequential", "hex8", "salt:4", "roundrobin:4",
                  "transaction", "statistics:10")

    def test_hbtab_1_see_also_names_every_command_page(self):
        see_also = man("hbtab.1").split(".SH SEE ALSO", 1)[1]
        for page in sorted(os.listdir(MAN)):
            if page.startswith("hbtab-") and page.endswith(".1"):
                self.assertIn(".BR %s (1)" % page[:-2], see_also)

    def test_rotate_synopsis_and_usage_name_sample_previous(self):
        r = self.hb("rotate", "--help")
        self.assertRegex(r.out.split("\n")[0], r"--sample-previous")
        synopsis = man("hbtab-rotate.1").split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
        self.assertIn("--sample-previous", synopsis)

    def test_every_help_line_has_a_space_between_option_and_text(self):
        for cmd in ("splits", "simulate", "create", "rotate", "audit"):
            r = self.hb(cmd, "--help")
            for line in r.out.split("\n"):
                m = re.match(r"^    (-\S, )?--\S+( [A-Z|0-9]+)?(.*)$", line)
                if m and m.group(3):
                    self.assertRegex(m.group(3), r"^ ", "%s --help: %r" % (cmd, line))

    def test_every_accepted_generator_is_listed_in_help_and_splits_1(self):
        helptext = self.hb("simulate", "--help").out
        gen_line = [l for l in helptext.split("\n") if l.strip().startswith("--generator")][0]
        splits_man = man("hbtab-splits.1")
        for g in self.GENERATORS:
            r = self.hb("splits", "--sampled-splits", "2", "--generator", g, "--sample-size", "50")
            self.assertOk(r)
            name = g.split(":")[0]
            if name == "hash":
                continue  # documented as md5's alias
            self.assertIn(name, gen_line)
            self.assertRegex(splits_man, r"\.B[RI]? %s\b" % name)

    def test_regions_and_meta_pages_name_the_requests_that_run(self):
        self.emu.create("t", [b"m"])
        self.assertOk(self.hb("meta", "set", "t", "2"))
        self.emu.clear_requests()
        self.assertOk(self.hb("regions", "t", "--source", "meta"))
        self.assertOk(self.hb("meta", "get", "t"))
        paths = [q["method"] + " " + q["path"] for q in self.emu.requests()]
        self.assertFalse([p for p in paths if "scanner" in p], paths)
        self.assertTrue([p for p in paths if p.startswith("GET /hbase%3Ameta/*?startrow=")],
                        paths)
        self.assertTrue([p for p in paths if p.startswith("GET /t/totalPartition")], paths)
        regions = man("hbtab-regions.1")
        self.assertNotIn("with a REST scanner", regions)
        self.assertIn("stateless scan", regions)
        self.assertIn("row GET", man("hbtab-meta.1"))

    def test_json_numbers_are_the_shortest_exact_text(self):
        r = self.hb("-o", "json", "simulate", "--hex-splits", "7", "--generator", "md5",
                    "--count", "1000")
        self.assertOk(r)
        r2 = self.hb("-o", "json", "audit", "--hex-splits", "10", "--keyspace", "hex{8}")
        self.assertOk(r2)
        for out in (r.out, r2.out):
            json.loads(out)
            toks = re.findall(r"(?<=[:\[,])-?\d+\.\d+(?:[eE][-+]?\d+)?", out)
            self.assertTrue(toks)
            for tok in toks:
                self.assertLessEqual(significant_digits(tok), significant_digits(repr(float(tok))),
                                     tok)
        self.assertIn('"share":0.141', r.out)


if __name__ == "__main__":
    hbtest.main()
