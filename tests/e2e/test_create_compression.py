"""End-to-end: compression names LZMA and BROTLI (HBase 2.5+) on every DDL channel; over
Thrift2 they travel in the family's attribute map, since TCompressionAlgorithm has no value
for them (docs/hbase-versions.md, "Compression names")."""
import hbtest
from lib.createbase import STANDIN, CreateTestBase


class Compression25(CreateTestBase):
    def test_create__thrift2_lzma_goes_in_the_attribute_map_and_verifies(self):
        r = self.hb("create", "t1", "--hex-splits", "4", "--via", "thrift2",
                    "--family", "cf:COMPRESSION=lzma,VERSIONS=2", "-o", "json")
        self.assertOk(r)
        self.assertTrue(r.json()["created"])
        self.assertTrue(r.json()["verified"])
        fam = self.emu.table("t1")["families"]["cf"]
        self.assertEqual(fam["COMPRESSION"], "LZMA")
        self.assertEqual(fam["VERSIONS"], "2")

    def test_create__shell_and_rest_accept_brotli(self):
        r = hbtest.run(["--rest", self.emu.rest, "--no-progress", "--hbase-shell", STANDIN,
                        "create", "t1", "--hex-splits", "4", "--via", "shell",
                        "--family", "cf:COMPRESSION=BROTLI"],
                       env={"HBEMU_CONTROL": self.emu.control_url})
        self.assertOk(r)
        self.assertEqual(self.emu.table("t1")["families"]["cf"]["COMPRESSION"], "BROTLI")
        r = self.hb("create", "t2", "--via", "rest", "--family", "cf:COMPRESSION=BROTLI")
        self.assertOk(r)
        self.assertEqual(self.emu.table("t2")["families"]["cf"]["COMPRESSION"], "BROTLI")

    def test_create__existing_lzma_table_is_not_a_family_mismatch(self):
        self.assertOk(self.hb("create", "t1", "--hex-splits", "4", "--via", "thrift2",
                              "--family", "cf:COMPRESSION=LZMA"))
        r = self.hb("create", "t1", "--hex-splits", "4", "--via", "thrift2",
                    "--family", "cf:COMPRESSION=LZMA", "-o", "json")
        self.assertOk(r)
        self.assertFalse(r.json()["created"])
        self.assertTrue(r.json()["verified"])

    def test_create__unknown_compression_name_is_refused_offline(self):
        r = self.hb("create", "t1", "--family", "cf:COMPRESSION=LZMA2")
        self.assertFails(r, 2, "LZMA, BROTLI")
        self.assertEqual(self.emu.requests(), [])


class Compression24(CreateTestBase):
    emulator_args = ("--cluster-version", "2.4.17")

    def test_create__lzma_on_2_4_is_the_servers_refusal(self):
        # Compression.Algorithm has no LZMA before 2.5: the master's descriptor check fails
        r = self.hb("create", "t1", "--hex-splits", "4", "--via", "thrift2",
                    "--family", "cf:COMPRESSION=LZMA")
        self.assertFails(r, 4, "No enum constant .*Compression.Algorithm.LZMA")
        self.assertIsNone(self.emu.table("t1"))


if __name__ == "__main__":
    hbtest.main()
