"""TLS material made at test time with openssl: a CA, and a server certificate it signs (for
the address 127.0.0.1 and the name localhost unless told otherwise)."""
import os
import subprocess


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True, capture_output=True)


def make_ca(d, name):
    """A self-signed CA in directory d: name.pem and name.key."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + name,
            "-keyout", name + ".key", "-out", name + ".pem", cwd=d)


def make_server_cert(d, ca, names="IP:127.0.0.1,DNS:localhost"):
    """server.pem and server.key in d, signed by the CA ca (made by make_ca in d), for the
    subject alternative names names."""
    with open(os.path.join(d, "ext.cnf"), "w") as f:
        f.write("subjectAltName=%s\n" % names)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", "server.key", "-out", "server.csr", cwd=d)
    openssl("x509", "-req", "-in", "server.csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
            "-CAcreateserial", "-days", "2", "-extfile", "ext.cnf", "-out", "server.pem", cwd=d)
