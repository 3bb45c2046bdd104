"""The base of the create tests (tests/e2e/test_create*.py): an emulator per class, a splits
file of binary keys per test, and readers of what a create left (metadata row, DDL
requests)."""
import os
import subprocess
import tempfile

import hbtest
from hbtest import tsb

# The hbase shell stand-in as --hbase-shell takes it.
STANDIN = "ruby %s -n" % hbtest.SHELL_STANDIN

# Split keys with 0x00, 0x5C, 0x27 and 0x20 at both ends, and 0x7F, 0x80, 0xFF inside.
BINARY_KEYS = sorted([
    b"\x00a\\",
    b"\x00\x27",
    b" lead-space",
    b"'quoted'",
    b"\\back\\",
    b"mid\x7f\x80\xff",
    b"trail-space ",
    b"\x7f",
    b"\x80\x00",
    b"\xff\x27 ",
    b"\xff\xff\\",
])


def write_splits_file(keys, directory=None):
    fd, path = tempfile.mkstemp(prefix="hbtab-test-splits-", suffix=".txt", dir=directory)
    with os.fdopen(fd, "w") as f:
        for k in keys:
            f.write(tsb(k) + "\n")
    return path


class CreateTestBase(hbtest.EmulatorTest):
    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="hbtab-create-")
        self.splits_path = write_splits_file(BINARY_KEYS, self.tmp)

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.tmp])

    def metadata(self, table, family="cf", row="totalPartition"):
        """The metadata row's cells in family, by qualifier; None without the row."""
        cells = self.emu.metadata_row(table, row)
        if cells is None:
            return None
        return {k.split(":", 1)[1]: v for k, v in cells.items() if k.startswith(family + ":")}

    def ddl_requests(self, server=None):
        """Requests that could change a table: everything on thrift, writes on REST schema."""
        out = []
        for r in self.emu.requests():
            if r["server"] == "thrift" and (server in (None, "thrift")):
                out.append(r)
            elif r["server"] == "rest" and r["method"] in ("PUT", "POST", "DELETE") \
                    and "/schema" in r["path"] and server in (None, "rest"):
                out.append(r)
        return out

    def create(self, *args, **kw):
        return self.hb("create", *args, **kw)

    def run_printed_script(self, script_bytes):
        """Feeds a `create --via print` script to the hbase shell stand-in, as an operator
        pasting it into `hbase shell -n` would; the stand-in must exit 0."""
        script = os.path.join(self.tmp, "create.rb")
        with open(script, "wb") as f:
            f.write(script_bytes)
        env = dict(os.environ, HBEMU_CONTROL=self.emu.control_url)
        p = subprocess.run(["ruby", hbtest.SHELL_STANDIN, "-n", script], env=env,
                           capture_output=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
