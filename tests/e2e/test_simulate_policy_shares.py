"""simulate --policy: the regions' and servers' shares add up to 100%, and the servers'
writes cover every write of the run."""

import hbtest
from hbtest import OfflineTest


class PolicySharesAddUp(OfflineTest):
    """Simulate --policy reports shares that add up to 100% for regions and servers,
    and the servers' writes cover every write of the run."""

    ARGS = ["--sampled-splits", "4", "--generator", "md5", "--sample-size", "20000",
            "--count", "200000", "--policy", "increasing", "--row-size", "4K",
            "--flush-size", "1M", "--max-filesize", "16M", "--servers", "3"]

    def test_json_shares_add_up_to_one_and_servers_count_every_write(self):
        r = self.hb("-o", "json", "simulate", *self.ARGS)
        self.assertOk(r)
        doc = r.json()
        self.assertTrue(doc["splits"])  # splits happened: parents took writes
        self.assertAlmostEqual(sum(g["share"] for g in doc["regions"]), 1.0, places=9)
        self.assertAlmostEqual(sum(s["share"] for s in doc["servers"]), 1.0, places=9)
        self.assertEqual(sum(s["writes"] for s in doc["servers"]), doc["count"])
        self.assertEqual(sum(g["writes"] for g in doc["regions"]), doc["region_writes"])
        self.assertLess(doc["region_writes"], doc["count"])

    def test_text_shares_add_up_and_the_columns_say_what_they_count(self):
        r = self.hb("simulate", *self.ARGS)
        self.assertOk(r)
        lines = r.out.splitlines()
        self.assertRegex(lines[1], r"^regions: WRITES since each opened, \d+ of the 200000")
        region_rows = [l.split("\t") for l in lines[2:lines.index("")]]
        server_rows = [l.split("\t") for l in lines if l.startswith("server-")]
        shares = sum(float(row[4].rstrip("%")) for row in region_rows)
        self.assertAlmostEqual(shares, 100.0, delta=0.01 * len(region_rows))
        self.assertEqual(sum(int(row[2]) for row in server_rows), 200000)
        self.assertAlmostEqual(sum(float(row[3].rstrip("%")) for row in server_rows), 100.0,
                               delta=0.03)


if __name__ == "__main__":
    hbtest.main()
