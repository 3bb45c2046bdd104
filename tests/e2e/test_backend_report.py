"""hbtab report of a live table against a cluster: the emulator, or real HBase
(HBTAB_BACKEND=real). The seed-001 table's page (createTable(desc, "0000000000000000",
"ffffffffffffffff", 10) over 16-char hex keys: regions 0 and 3-7 hold no key) is rendered by
headless Chromium and its key-space bar shows each region in the audit's colour at the
audit's place; the servers' table names the servers the regions are on, with the writes each
took; the markup passes a strict reading."""
import os
import re
import shutil
import tempfile

import backend
import hbtest
import htmlpage
from hbtest import unb64
from test_report import GREEN, RED, PageChecks

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]


class ReportOfACluster(backend.BackendTest, PageChecks):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hbtab-report-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_seed001_table_page_matches_the_audit_and_the_servers(self):
        t = self.name()
        r = self.hb("splits", *SEED, "--format", "json")
        self.assertOk(r)
        self.be.create(t, families=["cf"], splits=[unb64(k["base64"]) for k in r.json()["splits"]])
        self.be.put(t, [(b"totalPartition", {"cf:N": b"10", "cf:keyspace": b"hex{16}"}),
                        (b"0123456789abcdef", {"cf:q": b"v"}),
                        (b"fedcba9876543210", {"cf:q": b"v"})])
        page = os.path.join(self.dir, "t.html")
        r = self.hb("report", t, "--hotspots", "--window", "0", "--html", page)
        self.assertEqual(r.rc, 1, r)
        audit = self.hb("-o", "json", "audit", t)
        self.assertEqual(audit.rc, 1, audit)
        regions = audit.json()["regions"]
        self.assertEqual([i for i, x in enumerate(regions) if not x["reachable"]],
                         [0, 3, 4, 5, 6, 7])
        text, words = self.sound(page)
        _, seen, _ = self.look(page, regions, 1)
        self.assertEqual(seen, [GREEN if x["reachable"] else RED for x in regions])
        listed = self.hb("-o", "json", "regions", t).json()["regions"]
        table = text[text.index('<table id="server-table">'):]
        table = table[:table.index("</table>")]
        rows = re.findall(r"<tr><td>([^<]+)</td><td class=\"n\">(\d+)</td>", table)
        counts = {}
        for x in listed:
            counts[x["server"]] = counts.get(x["server"], 0) + 1
        self.assertEqual(dict((s, int(n)) for s, n in rows), counts)
        self.assertNotIn("Request load not measured", words)


if __name__ == "__main__":
    hbtest.main()
