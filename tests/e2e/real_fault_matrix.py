"""The real cluster's control channel (tests/realhbase): each fault verb leaves a cluster that
serves. The fault matrix built on these verbs follows."""
import os
import urllib.parse

import backend
import hbtest
from hbtest import unb64

NS = "mx"
ROWS = [b"0123456789abcdef", b"5555555555555555", b"9fffffffffffffff", b"cafebabecafebabe",
        b"fffffffffffffffe"]


class ControlVerbs(backend.BackendTest):
    """Each fault verb of the real cluster's control channel leaves a cluster that serves:
    three live region servers, a table written through Java and read through the gateway."""

    def test_each_fault_verb_leaves_a_serving_cluster(self):
        if self.be.kind != "real":
            self.skipTest("the control channel's faults are real HBase's")
        t = "%s:events_user_clicks_20261128_control_%x" % (NS, os.getpid())
        self.be.create(t, families=["cf"], splits=[b"5", b"a"])
        self.be.put(t, [(k, {"cf:q": b"v" + k}) for k in ROWS])
        for verb, body in (("abort", {"index": 0}), ("expire", {"index": 1}), ("master", {}),
                           ("rest", {}), ("thrift", {})):
            out = self.be.control(verb, body)
            self.assertIn("ms", out, verb)
            self.assertEqual(self.be.live_servers(), 3, verb)
            st, body = self.be.rest_get("/%s/*" % urllib.parse.quote(t, safe=""))
            self.assertEqual(st, 200, (verb, body))
            self.assertEqual(sorted(unb64(r["key"]) for r in body["Row"]), sorted(ROWS), verb)
        # later: answered at once, run on the fault thread, waited for
        out = self.be.control("thrift", {"delay_ms": 200})
        self.assertIn("scheduled", out)
        out = self.be.control("faults", {"wait": True})
        self.assertEqual((out["pending"], out["errors"]), (0, []), out)
        r = self.hb("regions", t, "--source", "meta")
        self.assertOk(r)
        st, out = hbtest.control_call(self.be.control_url + "/control/abort", "POST",
                                      {"index": 7})
        self.assertEqual(st, 400, out)


if __name__ == "__main__":
    backend.main()
