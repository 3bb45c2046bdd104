"""End-to-end fault matrix of the REST gateway's DDL: create --via rest (the schema PUT)
and drop (the schema DELETE), every emulator fault kind at every request step; and the
answers to a schema PUT that carry a body. The cells, the expected exit codes and the
workers come from lib/faultmatrix.py."""
import hbtest
from lib.faultmatrix import STATUS_DELIVERED, CreateMatrixBase, FaultMatrix


class CreateRestMatrix(CreateMatrixBase):
    """One region (the schema resource cannot split), through PUT /t1/schema."""
    name = "create --via rest"
    splits = []
    spec = ["--hex-splits", "1", "--family", "cf"]
    via = ["--via", "rest"]
    schema_put = True

    def check_steps(self, steps):
        reqs = [(s["server"], s["method"], s["path"], s["status"]) for s in steps]
        self.assertEqual(reqs[:2], [("rest", "GET", "/t1/exists", 404),
                                    ("rest", "PUT", "/t1/schema", 201)])
        self.assertNotIn("thrift", [s["server"] for s in steps])
        self.assertEqual([s["cls"] for s in steps].count("schema_put"), 1)

    def test_fault_matrix__create_via_rest(self):
        self.run_matrix()


class DropMatrix(FaultMatrix):
    """drop t1 --yes with a bystander t2; the rerun that completes it is the idempotent
    form (--if-exists), since the faulted run may have dropped t1 without learning it."""
    name = "drop"
    min_steps = 1

    def prepare(self, w):
        w.emu.create("t1", [b"m"])
        w.emu.create("t2", [b"m"])

    def command(self, w):
        return ["drop", "t1", "--yes"]

    def rerun(self, w):
        return ["drop", "t1", "--yes", "--if-exists"]

    def check_steps(self, steps):
        self.assertEqual([(s["method"], s["path"], s["status"], s["cls"]) for s in steps],
                         [("GET", "/t1/exists", 200, "get_empty"),
                          ("DELETE", "/t1/schema", 200, "drop")])

    def check_no_harm(self, w, requests):
        for q in requests:
            self.assertEqual(q["server"], "rest", q)
            # the existence checks (before the drop, and after a 200 with a body) and the
            # drop itself
            self.assertIn((q["method"], q["path"]), (("DELETE", "/t1/schema"),
                                                    ("GET", "/t1/exists")), q)
        methods = [q["method"] for q in requests]
        self.assertLessEqual(methods.count("DELETE"), 1, "the drop was sent twice")
        if "DELETE" in methods:
            # sent only once the table was seen to exist: a 200 to /t1/exists delivered
            # whole (it has no body for a fault to cut or slow down)
            first = methods.index("DELETE")
            self.assertTrue(any(q["path"] == "/t1/exists" and q["status"] == 200
                                and q["fault"] in STATUS_DELIVERED
                                for q in requests[:first]),
                            "the drop was sent before the table was seen to exist")
        self.assertEqual(w.emu.boundaries("t2"), [b"m"])
        if w.emu.table("t1") is not None:
            self.assertEqual(w.emu.boundaries("t1"), [b"m"])

    def check_done(self, w):
        self.assertIsNone(w.emu.table("t1"))
        self.assertEqual(w.emu.boundaries("t2"), [b"m"])

    def test_fault_matrix__drop(self):
        self.run_matrix()


class BodiedCreateAnswers(hbtest.EmulatorTest):
    """SchemaResource answers a create with Response.created(...): 201 Created, a Location
    and no body (docs/hbase-wire.md §2). The 201 is what counts; a body added to it (a
    proxy, another gateway) changes nothing, and the read-back that follows decides."""

    def create(self, *extra):
        return self.hb("create", "t1", "--hex-splits", "1", "--family", "cf", "--via", "rest",
                       *extra)

    def answer(self, body, ctype=None, execute=True):
        st, _ = self.emu.control("POST", "/control/create-answer",
                                 {"body": body, "ctype": ctype, "execute": execute})
        self.assertEqual(st, 200)

    def test_create_rest__201_with_a_body_is_our_create_verified(self):
        for body, ctype in (('{"created":"t1"}', "application/json"), ("Created\r\n", None),
                            ("<html><body>201 Created</body></html>", "text/html")):
            self.emu.reset()
            self.answer(body, ctype)
            r = self.create("-o", "json")
            self.assertOk(r)
            self.assertEqual(r.err, "", body)  # no warning: nothing went wrong
            j = r.json()
            self.assertEqual((j["created"], j["verified"], j["via"], j["regions"]),
                             (True, True, "rest", 1), body)
            self.assertEqual(self.emu.boundaries("t1"), [])
            self.assertEqual(self.emu.metadata_row("t1")["cf:N"], "1")
            self.assertEqual([q["method"] for q in self.emu.requests()
                              if q["path"] == "/t1/schema"], ["PUT", "GET"])

    def test_create_rest__201_with_a_body_says_created_in_text(self):
        self.answer("Created\r\n")
        r = self.create()
        self.assertOk(r)
        self.assertIn("created table 't1' with 1 region via rest", r.out)

    def test_create_rest__201_with_a_body_but_no_table_is_exit_1_after_the_read_back(self):
        self.answer('{"created":"t1"}', "application/json", execute=False)
        r = self.create("--wait", "1")
        self.assertFails(r, 1, "does not exist after the rest create")
        self.assertIsNone(self.emu.table("t1"))
        self.assertIsNone(self.emu.metadata_row("t1"))

    def test_create_rest__200_with_a_body_is_no_create_answer(self):
        # not executed: the table stays absent, the failed create is exit 4
        self.emu.fault(server="rest", method="PUT", path="^/t1/schema$", kind="wrong_ctype",
                       count=-1)
        r = self.create()
        self.assertFails(r, 4, "HTTP 200 with a [0-9]+-byte body")
        self.assertIsNone(self.emu.table("t1"))

    def test_create_rest__empty_201_unchanged(self):
        r = self.create("-o", "json")
        self.assertOk(r)
        self.assertEqual(r.err, "")
        self.assertTrue(r.json()["created"])


if __name__ == "__main__":
    hbtest.main()
