"""End-to-end fault matrix of create through Thrift2 (the default channel) and through the
hbase shell (the emulator's Ruby stand-in): every emulator fault kind at every request
step. The shell run itself is no HTTP request; the REST steps around it (the absence
check, the wait for regions, the verification and the metadata row) get every kind. The
cells, the expected exit codes and the workers are those of test_fault_matrix.py."""
import hbtest
from test_fault_matrix import HEX4, SHELL_WAIT, WAIT, FaultMatrix

SHELL = "ruby %s -n" % hbtest.SHELL_STANDIN
# the faults that still deliver the status line of the answer they hit
STATUS_DELIVERED = (None, "reset_headers", "reset_body", "drip")


class CreateMatrixBase(FaultMatrix):
    """create t1 with planned boundaries `splits`; the metadata row records N."""
    # The region states come from hbase:meta, and from Thrift2 when meta cannot be read.
    optional = (("GET", r"^/hbase%3Ameta/"),)
    splits = HEX4
    spec = ["--hex-splits", "4", "--family", "cf"]
    via = []
    wait = WAIT
    schema_put = False  # the channel creates with PUT /t1/schema

    def command(self, w):
        return ["create", "t1"] + self.spec + self.via + ["--wait", self.wait]

    def check_no_harm(self, w, requests):
        for q in requests:
            if q["method"] == "DELETE":
                self.assertIn("/scanner/", q["path"])
            if q["server"] == "rest" and q["method"] in ("PUT", "POST"):
                self.assertTrue(q["path"] == "/t1/hbtab-row?check=put"
                                or q["path"].endswith("/scanner")
                                or (self.schema_put and q["method"] == "PUT"
                                    and q["path"] == "/t1/schema"), q)
        # the DDL: a schema PUT, or a Thrift2 call before the wait for regions (after it,
        # Thrift2 only reads the region states when meta cannot be read)
        waits = [i for i, q in enumerate(requests) if q["path"] == "/t1/regions"]
        ddl = [i for i, q in enumerate(requests)
               if (q["server"] == "thrift" and (not waits or i < waits[0]))
               or (q["method"] == "PUT" and q["path"] == "/t1/schema")]
        if w.emu.table("t1") is not None or ddl:
            # no DDL (a shell run leaves only the table) unless the absence check that
            # comes first was answered 404
            first = requests[0]
            self.assertEqual((first["method"], first["path"], first["status"]),
                             ("GET", "/t1/exists", 404), "created without an absence check")
            self.assertIn(first["fault"], STATUS_DELIVERED,
                          "created though the absence check failed")
            self.assertLessEqual(len(ddl), 1, "the create was sent twice")
        if w.emu.table("t1") is not None:
            self.assertEqual(w.emu.boundaries("t1"), self.splits)
            row = w.emu.metadata_row("t1")
            if row is not None:
                self.assertEqual(row["cf:N"], str(len(self.splits) + 1))

    def check_done(self, w):
        self.assertEqual(w.emu.boundaries("t1"), self.splits)
        self.assertEqual(w.emu.metadata_row("t1")["cf:N"], str(len(self.splits) + 1))


class CreateMatrix(CreateMatrixBase):
    name = "create"

    def check_steps(self, steps):
        self.assertEqual([s["server"] for s in steps].count("thrift"), 1, steps)

    def test_fault_matrix__create(self):
        self.run_matrix()


class CreateShellMatrix(CreateMatrixBase):
    name = "create --via shell"
    via = ["--via", "shell"]
    wait = SHELL_WAIT

    def command(self, w):
        return ["--hbase-shell", SHELL] + CreateMatrixBase.command(self, w)

    def env(self, w):
        return {"HBEMU_CONTROL": w.emu.control_url}

    def check_steps(self, steps):
        # every step is a REST request: the absence check first, the metadata row last
        self.assertEqual({s["server"] for s in steps}, {"rest"})
        self.assertEqual((steps[0]["method"], steps[0]["path"], steps[0]["status"]),
                         ("GET", "/t1/exists", 404))
        self.assertIn(("PUT", "/t1/hbtab-row?check=put"),
                      [(s["method"], s["path"]) for s in steps])
        self.assertNotIn("/t1/schema", [s["path"] for s in steps if s["method"] != "GET"])

    def test_fault_matrix__create_via_shell(self):
        self.run_matrix()


if __name__ == "__main__":
    hbtest.main()
