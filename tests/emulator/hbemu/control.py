"""The control channel: JSON over HTTP on its own loopback port. Lets tests
create pre-split tables, inject region defects and faults, and read the
request log."""
import base64
import json

from . import state as st
from .httpbase import Fault, HOLD_GUARD, KINDS, Handler, Response


def ok(obj, status=200):
    return Response(status, json.dumps(obj).encode("utf-8"), "application/json")


def error(status, msg, **extra):
    d = {"error": msg}
    d.update(extra)
    return Response(status, json.dumps(d).encode("utf-8"), "application/json")


def region_json(r):
    return {"start": st.b64(r.start), "end": st.b64(r.end), "id": r.rid,
            "name": st.b64(r.name), "encoded": r.encoded}


def reopen(emu, servers=None):
    """Reopens the ports a refuse fault closed until the control channel reopens them;
    returns once they listen."""
    for name in servers or ("rest", "thrift"):
        emu.runners[name].reopen()


class ControlHandler(Handler):
    server_kind = "control"

    def dispatch(self, method, path, body):
        emu = self.ctx
        s = emu.state
        p = path.split("?")[0].rstrip("/")
        try:
            req = json.loads(body.decode("utf-8")) if body.strip() else {}
        except ValueError:
            return error(400, "invalid JSON body")
        if not isinstance(req, dict):
            return error(400, "JSON body must be an object")
        try:
            return self.route(emu, s, method, p, req)
        except st.TableNotFound as e:
            return error(404, e.message, type="TableNotFoundException")
        except st.NamespaceNotFound as e:
            return error(404, e.message, type="NamespaceNotFoundException")
        except st.TableExists as e:
            return error(409, e.message, type="TableExistsException")
        except st.HBaseError as e:
            return error(400, e.message, type=e.java.rsplit(".", 1)[-1])
        except (KeyError, ValueError, TypeError) as e:
            return error(400, "bad request: %r" % (e,))

    def route(self, emu, s, method, p, req):
        if p == "/control/state" and method == "GET":
            return ok(s.dump())
        if p == "/control/reset" and method == "POST":
            s.reset()
            s.read_only = emu.read_only_default
            s.thrift_legacy_17 = emu.legacy_default
            with emu.scanners_lock:
                emu.scanners.clear()
            emu.faults.clear()
            reopen(emu)
            emu.faults.clear_requests()
            return ok({"ok": True})
        if p == "/control/create" and method == "POST":
            fams = [(f["name"], f.get("attrs") or {}) for f in req.get("families") or []]
            splits = [base64.b64decode(x) for x in req.get("splits") or []]
            t = s.create_table(req["table"], fams, req.get("attrs") or {}, splits)
            return ok({"table": t.name, "regions": len(t.regions)}, 201)
        if p == "/control/split" and method == "POST":
            a, b = s.split_region(req["table"], base64.b64decode(req["key"]),
                                  bool(req.get("leave_parent", False)))
            return ok({"daughters": [region_json(a), region_json(b)]})
        if p == "/control/merge" and method == "POST":
            return ok({"merged": region_json(s.merge_regions(req["table"], int(req["index"])))})
        if p == "/control/merge-regions" and method == "POST":
            # the shell's merge_region: regions by encoded or full name, in the order given
            m = s.merge_named([str(x) for x in req["regions"]], bool(req.get("force", False)))
            return ok({"merged": region_json(m)})
        if p == "/control/split-region" and method == "POST":
            # the shell's split: a region (encoded or full name) or a table, at key
            a, b = s.split_named(str(req["region"]), base64.b64decode(req["key"]))
            return ok({"daughters": [region_json(a), region_json(b)]})
        if p == "/control/compact" and method == "POST":
            # the shell's major_compact: a region (encoded or full name) or a table
            t = s.compact_named(str(req["region"]))
            return ok({"table": t.name})
        if p == "/control/master-config" and method == "POST":
            # settings of the master's hbase-site.xml (the split restriction's)
            with s.lock:
                s.master_conf = {str(k): str(v) for k, v in (req.get("settings") or {}).items()}
            return ok({"settings": s.master_conf})
        if p == "/control/compaction-switch" and method == "POST":
            # the shell's compaction_switch
            with s.lock:
                s.compactions = bool(req["enabled"])
            return ok({"enabled": s.compactions})
        if p == "/control/offline" and method == "POST":
            return ok({"region": region_json(s.set_offline(req["table"], int(req["index"])))})
        if p == "/control/unassign" and method == "POST":
            return ok({"region": region_json(s.unassign(req["table"], int(req["index"])))})
        if p == "/control/drop-state" and method == "POST":
            # the region's meta row loses its info:state cell, nothing else
            return ok({"region": region_json(s.drop_state(req["table"], int(req["index"])))})
        if p == "/control/hole" and method == "POST":
            return ok({"region": region_json(s.make_hole(req["table"], int(req["index"])))})
        if p == "/control/overlap" and method == "POST":
            r = s.add_overlap(req["table"], base64.b64decode(req.get("start") or ""),
                              base64.b64decode(req.get("end") or ""))
            return ok({"region": region_json(r)})
        if p == "/control/server" and method == "POST":
            state = req.get("state", "stop")
            if state not in ("stop", "start"):
                return error(400, "state must be stop or start")
            s.set_server(int(req["index"]), state == "start")
            return ok({"servers": s.dump()["servers"]})
        if p == "/control/open-delay" and method == "POST":
            secs = float(req.get("seconds", 0))
            if not 0 <= secs <= 3600:
                return error(400, "seconds must be 0..3600")
            with s.lock:
                s.open_delay = secs
            return ok({"open_delay": secs})
        if p == "/control/open" and method == "POST":
            s.open_now(req["table"])
            return ok({"table": req["table"], "opening": False})
        if p == "/control/disable" and method == "POST":
            s.disable_table(req["table"])
            return ok({"table": req["table"], "enabled": False})
        if p == "/control/enable" and method == "POST":
            s.enable_table(req["table"])
            return ok({"table": req["table"], "enabled": True})
        if p == "/control/truncate" and method == "POST":
            # Admin.truncateTable: the table must be disabled first
            s.truncate_table(req["table"], bool(req.get("preserve", True)))
            return ok({"table": req["table"], "enabled": True})
        if p == "/control/meta-cut" and method == "POST":
            # the next stateless scans of hbase:meta end after this many rows, the last one
            # cut after its first cell, as a 200 with valid JSON: a scan that failed part-way
            # after the body had started (Jackson closes the open arrays); null: off.
            # path: only the scans whose request path holds this text are cut
            n = req.get("rows")
            s.meta_cut = None if n is None else int(n)
            s.meta_cut_path = req.get("path")
            return ok({"meta_cut": s.meta_cut, "path": s.meta_cut_path})
        if p == "/control/protobuf" and method == "POST":
            answer = req.get("answer", "protobuf")
            if answer not in ("protobuf", "json", "406", "cut", "406-after-read"):
                return error(400, "answer must be protobuf, json, 406, cut or 406-after-read")
            s.protobuf_answer = answer
            s.scan_fetch_size = int(req.get("scan_fetch_size", 10))
            return ok({"answer": answer, "scan_fetch_size": s.scan_fetch_size})
        if p == "/control/readonly" and method == "POST":
            s.read_only = bool(req.get("on", True))
            return ok({"read_only": s.read_only})
        if p == "/control/regioninfo-extra" and method == "POST":
            # raw protobuf bytes (hex) appended to every info:regioninfo value, e.g. a field
            # that Apache HBase's RegionInfo does not define, as a fork or later release might
            try:
                s.regioninfo_extra = bytes.fromhex(req.get("hex", ""))
            except (ValueError, TypeError):
                return error(400, "hex expected")
            return ok({"regioninfo_extra": s.regioninfo_extra.hex()})
        if p == "/control/thrift-legacy-17" and method == "POST":
            s.thrift_legacy_17 = bool(req.get("on", True))
            return ok({"thrift_legacy_17": s.thrift_legacy_17})
        if p == "/control/create-answer" and method == "POST":
            # a body in the 201 that answers a schema PUT/POST create; HBase's
            # SchemaResource sends none (NOTES.md), a proxy or another gateway might.
            # "execute": false answers that 201 without creating the table.
            body = req.get("body")
            with s.lock:
                s.create_answer = None if body is None else (
                    body.encode(), req.get("ctype") or "text/plain",
                    bool(req.get("execute", True)))
            return ok({"create_answer": body})
        if p == "/control/race" and method == "POST":
            with s.lock:
                s.races.add(st.canonical_name(req["table"]))
            return ok({"race": sorted(s.races)})
        if p == "/control/fault":
            if method == "DELETE":
                emu.faults.clear()
                reopen(emu)
                return ok({"ok": True})
            if method == "GET":
                with emu.faults.lock:
                    return ok([f.to_json() for f in emu.faults.faults])
            if method == "POST":
                kind = str(req.get("kind"))
                if kind not in KINDS:
                    return error(400, "unknown fault kind %s" % kind)
                server = req.get("server", "rest")
                if server not in ("rest", "thrift"):
                    return error(400, "server must be rest or thrift")
                f = Fault(req)
                if kind == "refuse" and not req.get("at_request"):
                    if f.until == "reopen":
                        secs = float(req.get("seconds") or HOLD_GUARD)
                        emu.runners[server].refuse(secs, until_reopen=True)
                        return ok({"refused_until": "reopen", "guard": secs})
                    secs = float(req.get("seconds") or 1.0)
                    emu.runners[server].refuse(secs)
                    return ok({"refused_for": secs})
                emu.faults.add(f)
                return ok(f.to_json())
        if p == "/control/reopen" and method == "POST":
            server = req.get("server")
            if server not in (None, "rest", "thrift"):
                return error(400, "server must be rest or thrift")
            reopen(emu, [server] if server else None)
            return ok({"ok": True})
        if p == "/control/release" and method == "POST":
            emu.faults.release()
            return ok({"ok": True})
        if p == "/control/held" and method == "GET":
            return ok({"held": emu.faults.held, "released": emu.faults.released_running})
        if p == "/control/scanners" and method == "GET":
            with emu.scanners_lock:
                return ok(sorted(emu.scanners))
        if p == "/control/spnego":
            if emu.spnego is None:
                return error(404, "SPNEGO is not enabled (--spnego-keytab)")
            if method == "GET":
                return ok(emu.spnego.stats())
            if method == "DELETE":
                emu.spnego.reset_stats()
                return ok({"ok": True})
            if method == "POST":
                if "validity" in req:
                    emu.spnego.validity = float(req["validity"])
                if "cookie_path" in req:
                    emu.spnego.cookie_path = req["cookie_path"]
                return ok(emu.spnego.stats())
        if p == "/control/requests":
            if method == "GET":
                return ok(emu.faults.get_requests())
            if method == "DELETE":
                emu.faults.clear_requests()
                return ok({"ok": True})
        if p == "/control/snapshot" and method == "POST":
            snap = s.snapshot_table(req["table"], req["name"], req.get("ttl", 0))
            return ok({"name": snap["name"], "table": snap["table"]}, 201)
        if p == "/control/snapshots" and method == "GET":
            return ok([{"name": x["name"], "table": x["table"], "created": x["created"]}
                       for x in s.list_snapshots()])
        if p == "/control/list-snapshots" and method == "POST":
            return ok([{"name": x["name"], "table": x["table"], "created": x["created"],
                        "ttl": x.get("ttl", 0)}
                       for x in s.list_snapshots(req.get("regex") or ".*")])
        if p == "/control/clone-snapshot" and method == "POST":
            t = s.clone_snapshot(req["name"], req["table"])
            return ok({"table": t.name, "regions": len(t.regions)}, 201)
        if p == "/control/put" and method == "POST":
            t = s.get_table(req["table"])
            rows = []
            for r in req.get("rows") or []:
                cells = []
                for c in r.get("cells") or []:
                    col = base64.b64decode(c["column"])
                    if b":" not in col:
                        return error(400, "column must be family:qualifier")
                    f, q = col.split(b":", 1)
                    ts = c.get("timestamp")
                    cells.append((f, q, int(ts) if ts is not None else None,
                                  base64.b64decode(c.get("value") or "")))
                rows.append((base64.b64decode(r["key"]), cells))
            s.put_rows(t, rows)
            return ok({"rows": len(rows)})
        return error(404, "no such control resource: %s %s" % (method, p))
