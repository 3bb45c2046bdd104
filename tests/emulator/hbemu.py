#!/usr/bin/python3
"""hbemu: HBase 2.x emulator for hbtab's tests (REST gateway, hbase:meta,
Thrift2 over HTTP, a control channel). Run with /usr/bin/python3.

Prints one line when ready:
  HBEMU-READY {"rest": P, "thrift": P, "control": P, "pid": N}
"""
import argparse
import json
import os
import signal
import ssl
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hbemu import gen, httpbase  # noqa: E402
from hbemu.control import ControlHandler  # noqa: E402
from hbemu.httpbase import Faults, Runner  # noqa: E402
from hbemu.meta import MetaView  # noqa: E402
from hbemu.rest import RestHandler  # noqa: E402
from hbemu.state import State  # noqa: E402
from hbemu.thrift2 import THBaseHandler, ThriftHandler  # noqa: E402


class Emulator(object):
    def __init__(self, args):
        self.gen = gen.load(args.gen_dir)
        self.state = State(args.servers, args.data_dir, args.cluster_version)
        self.state.read_only = args.read_only
        self.read_only_default = args.read_only
        self.legacy_default = args.thrift_legacy_17
        self.state.thrift_legacy_17 = args.thrift_legacy_17
        self.meta = MetaView(self.state, self.gen[2])
        self.faults = Faults()
        self.scanners = {}
        self.scanners_lock = threading.Lock()
        self.basic_auth = args.basic_auth
        self.spnego = None
        if args.spnego_keytab:
            from hbemu.spnego import AuthFilter
            self.spnego = AuthFilter(args.spnego_keytab, args.spnego_principal,
                                     args.spnego_validity)
        self.tls = bool(args.tls_cert)
        self.thrift_handler = THBaseHandler(self)
        ctx = None
        if self.tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(args.tls_cert, args.tls_key)
        emu = self
        rest_cls = type("BoundRest", (RestHandler,), {"ctx": emu})
        thrift_cls = type("BoundThrift", (ThriftHandler,), {"ctx": emu})
        control_cls = type("BoundControl", (ControlHandler,), {"ctx": emu})
        self.runners = {
            "rest": Runner(rest_cls, args.rest_port, ctx),
            "thrift": Runner(thrift_cls, args.thrift_port, ctx),
            "control": Runner(control_cls, args.control_port, None),
        }
        self.rest_port = self.runners["rest"].port

    def start(self):
        for r in self.runners.values():
            r.start()

    def ports(self):
        return {"rest": self.runners["rest"].port, "thrift": self.runners["thrift"].port,
                "control": self.runners["control"].port, "pid": os.getpid()}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="hbemu", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rest-port", type=int, default=0)
    ap.add_argument("--thrift-port", type=int, default=0)
    ap.add_argument("--control-port", type=int, default=0)
    ap.add_argument("--servers", type=int, default=3)
    ap.add_argument("--data-dir")
    ap.add_argument("--read-only", action="store_true")
    ap.add_argument("--gen-dir")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    ap.add_argument("--basic-auth", metavar="USER:PASS")
    ap.add_argument("--spnego-keytab", metavar="KEYTAB",
                    help="require Kerberos SPNEGO on REST (hadoop-auth's AuthenticationFilter)")
    ap.add_argument("--spnego-principal", metavar="PRINCIPAL",
                    help="acceptor principal (default: any key in the keytab)")
    ap.add_argument("--spnego-validity", type=float, default=36000, metavar="SEC",
                    help="lifetime of the hadoop.auth token (default 36000)")
    ap.add_argument("--cluster-version", default="2.5.8")
    ap.add_argument("--thrift-legacy-17", action="store_true",
                    help="DDL handlers are no-ops like branch-1 1.7.x")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        ap.error("--tls-cert and --tls-key go together")
    if args.servers < 1:
        ap.error("--servers must be at least 1")
    httpbase.VERBOSE[0] = args.verbose

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    emu = Emulator(args)
    emu.start()
    sys.stdout.write("HBEMU-READY " + json.dumps(emu.ports()) + "\n")
    sys.stdout.flush()
    while not stop.wait(0.5):
        pass
    for r in emu.runners.values():
        try:
            r.httpd.shutdown()
            r.httpd.server_close()
        except Exception:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
