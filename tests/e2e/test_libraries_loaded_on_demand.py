"""The libraries hbtab opens only when a command needs them (docs/ARCHITECTURE.md): an
offline command runs with neither libcurl nor libcrypto loaded; a command that talks to HBase
loads libcurl, and libcrypto when it must take the MD5 of a region name itself, and then names
the regions as HBase does. The dynamic loader's own trace (LD_DEBUG=files) says which
libraries a run loaded."""
import hbtest
from hbtest import EmulatorTest, OfflineTest


def loaded(r, lib):
    """Whether the run's loader trace shows lib being loaded."""
    return any("file=" + lib in line for line in r.err.splitlines())


TRACE = {"LD_DEBUG": "files"}


class Offline(OfflineTest):
    def test_offline_commands_load_neither_libcurl_nor_libcrypto(self):
        runs = {
            "simulate": self.hb("--no-progress", "simulate", "--sampled-splits", "4",
                                "--generator", "md5", "--count", "1000", env=TRACE),
            "splits": self.hb("splits", "--range-splits", "4", "--start", "a", "--end", "b",
                              env=TRACE),
        }
        for name, r in runs.items():
            with self.subTest(command=name):
                self.assertOk(r)
                # the trace is there: libc is always loaded
                self.assertTrue(loaded(r, "libc.so"), r.err[:2000])
                self.assertFalse(loaded(r, "libcurl"), r.err[:2000])
                self.assertFalse(loaded(r, "libcrypto"), r.err[:2000])


class RegionNames(EmulatorTest):
    def setUp(self):
        super().setUp()
        # a start key that is not UTF-8 reaches hbtab mangled in the gateway's region names,
        # so hbtab takes the MD5 of the real name itself
        self.emu.create("t1", [b"\xfe\x01", b"m"])

    def test_regions_over_rest_load_libcurl_and_name_regions_as_hbase_does(self):
        r = self.hb("-o", "json", "regions", "t1", env=TRACE)
        self.assertOk(r)
        # libcurl brings libcrypto with it (TLS); hbtab's own opening of it finds it there
        self.assertTrue(loaded(r, "libcurl"), r.err[:2000])
        # a region name ends in ".<encoded name>."
        got = {x["name"].split(".")[-2] for x in r.json()["regions"]}
        state = {x["encoded"] for t in self.emu.state()["tables"] if t["name"] == "t1"
                 for x in t["regions"]}
        self.assertEqual(len(got), 3)
        self.assertEqual(got, state)


if __name__ == "__main__":
    hbtest.main()
