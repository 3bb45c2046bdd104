"""End-to-end fault matrix of create through Thrift2 (the default channel) and through the
hbase shell (the emulator's Ruby stand-in): every emulator fault kind at every request
step. The shell run itself is no HTTP request; the REST steps around it (the absence
check, the wait for regions, the verification and the metadata row) get every kind. The
cells, the expected exit codes and the workers come from lib/faultmatrix.py."""
import hbtest
from lib.faultmatrix import SHELL_WAIT, CreateMatrixBase

SHELL = "ruby %s -n" % hbtest.SHELL_STANDIN
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
