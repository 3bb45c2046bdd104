"""A throw-away MIT Kerberos realm on loopback for hbtab's end-to-end tests.

Everything lives under one temporary directory: krb5.conf (KRB5_CONFIG), kdc.conf
(KRB5_KDC_PROFILE), the KDC database and stash, keytabs and credential caches. The KDC
(krb5kdc from Debian's krb5-kdc) listens on a free loopback port, UDP and TCP. Nothing here
touches /etc or the system's default cache. If any step fails, Realm() raises: a test that
needs the realm then fails instead of being skipped.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

REALM = "HBTAB.TEST"
SBIN = ("/usr/sbin", "/usr/bin", "/sbin", "/bin")


def tool(name):
    found = shutil.which(name, path=os.pathsep.join(list(SBIN) + [os.environ.get("PATH", "")]))
    if not found:
        raise RuntimeError("%s is not installed (Debian packages krb5-kdc, krb5-admin-server, "
                           "krb5-user; scripts/dev.sh installs them)" % name)
    return found


def free_port():
    """A port free for both TCP and UDP on 127.0.0.1."""
    for _ in range(50):
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.bind(("127.0.0.1", 0))
        port = t.getsockname()[1]
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            u.bind(("127.0.0.1", port))
        except OSError:
            t.close()
            u.close()
            continue
        t.close()
        u.close()
        return port
    raise RuntimeError("no free port for the KDC")


class Realm:
    def __init__(self, clockskew=1):
        self.dir = tempfile.mkdtemp(prefix="hbtab-krb-")
        self.proc = None
        try:
            self._start(clockskew)
        except Exception:
            self.stop()
            raise

    def path(self, name):
        return os.path.join(self.dir, name)

    def _start(self, clockskew):
        self.port = free_port()
        d = self.dir
        with open(self.path("krb5.conf"), "w") as f:
            f.write("""[libdefaults]
    default_realm = %(realm)s
    dns_lookup_realm = false
    dns_lookup_kdc = false
    dns_canonicalize_hostname = false
    rdns = false
    ignore_acceptor_hostname = false
    udp_preference_limit = 1
    clockskew = %(skew)d
    default_ccache_name = FILE:%(d)s/ccache-default
    default_keytab_name = FILE:%(d)s/none.keytab
[realms]
    %(realm)s = {
        kdc = 127.0.0.1:%(port)d
    }
[domain_realm]
    localhost = %(realm)s
    127.0.0.1 = %(realm)s
""" % {"realm": REALM, "port": self.port, "d": d, "skew": clockskew})
        with open(self.path("kdc.conf"), "w") as f:
            f.write("""[kdcdefaults]
    kdc_listen = 127.0.0.1:%(port)d
    kdc_tcp_listen = 127.0.0.1:%(port)d
[realms]
    %(realm)s = {
        database_name = %(d)s/principal
        key_stash_file = %(d)s/stash
        acl_file = %(d)s/kadm5.acl
        max_life = 1h
        max_renewable_life = 0
        supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
    }
[logging]
    kdc = FILE:%(d)s/kdc.log
""" % {"realm": REALM, "port": self.port, "d": d})
        with open(self.path("kadm5.acl"), "w") as f:
            f.write("")
        self.env = {
            "KRB5_CONFIG": self.path("krb5.conf"),
            "KRB5_KDC_PROFILE": self.path("kdc.conf"),
            "KRB5CCNAME": "FILE:" + self.path("ccache-default"),
            "KRB5_KTNAME": "FILE:" + self.path("none.keytab"),
            "KRB5RCACHETYPE": "none",
        }
        self._run([tool("kdb5_util"), "create", "-s", "-r", REALM, "-P", "hbtab-master-key"])
        with open(self.path("krb5kdc.err"), "wb") as err:
            self.proc = subprocess.Popen([tool("krb5kdc"), "-n", "-r", REALM],
                                         stdout=subprocess.DEVNULL, stderr=err,
                                         env=self._env(), start_new_session=True)
        self._wait_listening()

    def _env(self, extra=None):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        env.update(self.env)
        if extra:
            env.update(extra)
        return env

    def _run(self, cmd, extra=None, check=True, stdin=None):
        p = subprocess.run(cmd, capture_output=True, env=self._env(extra), input=stdin,
                           timeout=60)
        if check and p.returncode != 0:
            raise RuntimeError("%s failed (exit %d): %s %s" % (
                " ".join(cmd), p.returncode, p.stdout.decode("utf-8", "replace"),
                p.stderr.decode("utf-8", "replace")))
        return p

    def _wait_listening(self):
        # A generous guard against a KDC that never comes up, not a speed bound.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("krb5kdc exited with %d: %s" % (self.proc.returncode,
                                                                   self.log()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("krb5kdc did not listen on port %d: %s" % (self.port, self.log()))

    def log(self):
        out = []
        for name in ("krb5kdc.err", "kdc.log"):
            try:
                with open(self.path(name), "rb") as f:
                    out.append(f.read().decode("utf-8", "replace")[-2000:])
            except OSError:
                pass
        return "\n".join(out)

    def kadmin(self, query):
        return self._run([tool("kadmin.local"), "-r", REALM, "-q", query])

    def add_service(self, principal, keytab):
        """A principal with a random key, exported to keytab (a path under the realm dir)."""
        self.kadmin("addprinc -randkey %s" % principal)
        self.kadmin("ktadd -k %s %s" % (keytab, principal))

    def add_user(self, name, password):
        self.kadmin("addprinc -pw %s %s" % (password, name))

    def kinit(self, name, password, ccache, lifetime=None):
        cmd = [tool("kinit")]
        if lifetime:
            cmd += ["-l", lifetime]
        cmd.append(name)
        return self._run(cmd, {"KRB5CCNAME": "FILE:" + ccache}, stdin=(password + "\n").encode())

    def klist_valid(self, ccache):
        """True while the cache holds an unexpired TGT (klist -s)."""
        p = self._run([tool("klist"), "-s"], {"KRB5CCNAME": "FILE:" + ccache}, check=False)
        return p.returncode == 0

    def client_env(self, ccache):
        env = dict(self.env)
        env["KRB5CCNAME"] = "FILE:" + ccache
        return env

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except OSError:
                self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
