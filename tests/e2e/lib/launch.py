"""The ready line of the emulator and of the real clusters, and the launcher of a cluster
whose ready line goes to a file.

The emulator (tests/emulator/hbemu.py) and tests/realhbase/run print one line once they
serve: "HBEMU-READY " and a JSON object of their ports (rest, thrift, control; the real ones
also zk, pid, version...). A suite fixture (backend.py start, secure_cluster.py start)
starts a cluster in a session of its own with stdout in FILE.out and waits for that line,
copies it to FILE, and the tests read FILE; stop asks the control channel to shut down."""
import json
import os
import signal
import subprocess

READY = "HBEMU-READY "


def ready_ports(line):
    """The ports (and facts) of a ready line; RuntimeError for any other line."""
    if not line.startswith(READY):
        raise RuntimeError("not a ready line: %r" % line)
    return json.loads(line[len(READY):])


def read_ports(path):
    """The ports of the ready line in file path (RuntimeError without one)."""
    import hbtest  # hbtest reads ready lines with this module: imported when first used
    return ready_ports(hbtest.first_line(path).strip())


class DidNotStart(RuntimeError):
    """A cluster ended, or printed something else, before its ready line; tail is the end
    of its log."""

    def __init__(self, exit_status, tail):
        super().__init__("exit %s" % exit_status)
        self.exit_status = exit_status
        self.tail = tail


def start_cluster(argv, ready_file, what, guard=1500):
    """Starts argv in a session of its own (stdout to ready_file.out, stderr to .log) and
    waits (guard: a hang guard, seconds) for its ready line, which then goes to ready_file.
    Returns (the Popen, the line); raises DidNotStart."""
    import hbtest
    out, log = ready_file + ".out", ready_file + ".log"
    for f in (ready_file, out):
        if os.path.exists(f):
            os.unlink(f)
    with open(out, "wb") as o, open(log, "wb") as e:
        proc = subprocess.Popen(argv, stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    hbtest.wait_for(lambda: proc.poll() is not None or hbtest.first_line(out).endswith("\n"),
                    what + "'s ready line", guard=guard)
    line = hbtest.first_line(out)
    if not line.startswith(READY):
        with open(log, "rb") as f:
            tail = f.read()[-6000:].decode("utf-8", "replace")
        raise DidNotStart(proc.poll(), tail)
    with open(ready_file, "w") as f:
        f.write(line)
    return proc, line


def stop_cluster(ready_file, what, before=None):
    """Shuts down the cluster of ready_file through its control channel (killed if it has
    not gone within a minute) and removes the file; before(ports) runs first. Nothing to do
    without a ready file. Returns the ports, or None."""
    import hbtest
    try:
        p = read_ports(ready_file)
    except RuntimeError:
        return None
    if before is not None:
        before(p)
    hbtest.control_call("http://127.0.0.1:%d/control/shutdown" % p["control"], "POST", {},
                        guard=30)

    def gone():
        try:
            os.kill(p["pid"], 0)
            return False
        except ProcessLookupError:
            return True
    try:
        hbtest.wait_for(gone, what + "'s exit", guard=60)
    except AssertionError:
        os.kill(p["pid"], signal.SIGKILL)
    os.unlink(ready_file)
    return p
