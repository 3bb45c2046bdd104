"""Kerberos SPNEGO in front of the REST gateway, as hadoop-auth's AuthenticationFilter with
KerberosAuthenticationHandler does it (HBase's REST server installs that filter when
hbase.rest.authentication.type is kerberos). See NOTES.md, "SPNEGO and hadoop.auth".

Per request:
  1. A `hadoop.auth` cookie, if sent, is checked: empty -> rejected; the signature after the
     last "&s=" must be the base64 HMAC-SHA256 of the rest under the filter's secret; the
     token type must be "kerberos"; `e` (ms since the epoch) must lie in the future. A bad
     cookie is ignored (the request is then treated as one without a cookie).
  2. Without a valid token, the handler authenticates: no `Authorization: Negotiate` header
     -> 401 with `WWW-Authenticate: Negotiate`; a header -> accept the GSS token; a reply
     token goes back in `WWW-Authenticate: Negotiate <b64>`; an unfinished context -> 401; a
     GSS failure -> 403.
  3. A newly made token is signed and set as a session cookie
     `hadoop.auth="u=..&p=..&t=kerberos&e=..&s=.."; Path=/; HttpOnly` (`Path=/` because
     HBase's AuthFilter sets cookie.path; `; Secure` before HttpOnly on https);
     a request that carried a valid cookie gets no new one.
  4. Every refusal also clears the cookie (`hadoop.auth=; HttpOnly`).
"""
import base64
import hashlib
import hmac
import os
import threading
import time

import gssapi

COOKIE = "hadoop.auth"
TYPE = "kerberos"


def _b64(data):
    return base64.b64encode(data).decode("ascii")


class AuthFilter(object):
    def __init__(self, keytab, principal=None, validity=36000):
        self.keytab = keytab
        self.validity = float(validity)      # seconds, AuthenticationFilter's token.validity
        self.secret = os.urandom(32)         # RandomSignerSecretProvider
        # HBase's AuthFilter sets cookie.path to "/"; Hadoop's AuthenticationFilter alone
        # leaves it null (no Path attribute).
        self.cookie_path = "/"
        self.lock = threading.Lock()
        store = {"keytab": keytab}
        name = None
        if principal:
            name = gssapi.Name(principal, gssapi.NameType.kerberos_principal)
        # Acquired per request: a keytab replaced during a test is read again.
        self.cred_args = {"name": name, "usage": "accept", "store": store}
        self.counts = {"negotiations": 0, "established": 0, "failures": 0,
                       "cookies_accepted": 0, "cookies_rejected": 0, "challenges": 0,
                       "cookies_issued": 0, "negotiate_headers": 0}
        self.users = []

    def stats(self):
        with self.lock:
            d = dict(self.counts)
            d["users"] = list(self.users)
            d["validity"] = self.validity
            d["cookie_path"] = self.cookie_path
            return d

    def reset_stats(self):
        with self.lock:
            for k in self.counts:
                self.counts[k] = 0
            self.users = []

    def _count(self, key):
        with self.lock:
            self.counts[key] += 1

    # -------------------------------------------------------------- signing
    def sign(self, text):
        mac = hmac.new(self.secret, text.encode("utf-8"), hashlib.sha256).digest()
        return text + "&s=" + _b64(mac)

    def verify(self, signed):
        i = signed.rfind("&s=")
        if i < 0:
            raise ValueError("Invalid signed text: " + signed)
        raw, sig = signed[:i], signed[i + 3:]
        want = self.sign(raw)[i + 3:]
        if not hmac.compare_digest(want.encode("utf-8"), sig.encode("utf-8")):
            raise ValueError("Invalid signature")
        return raw

    @staticmethod
    def parse_token(raw):
        attrs = {}
        for part in raw.split("&"):
            if not part:
                continue
            k, sep, v = part.partition("=")
            if not sep:
                raise ValueError("Invalid authentication token")
            attrs[k] = v
        if not {"u", "p", "t", "e"} <= set(attrs):
            raise ValueError("Invalid token string, missing attributes")
        for k in ("e", "i"):
            if k in attrs:
                int(attrs[k])
        return attrs

    @staticmethod
    def cookie_values(headers):
        """Values of hadoop.auth in the request's Cookie headers, quotes removed as the
        servlet container does for a quoted cookie value."""
        out = []
        for line in headers.get_all("Cookie") or []:
            for part in line.split(";"):
                k, sep, v = part.strip().partition("=")
                if sep and k.strip() == COOKIE:
                    v = v.strip()
                    if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
                        v = v[1:-1]
                    out.append(v)
        return out

    def token_from_cookie(self, headers):
        """(token or None, reason or None): reason is set when a cookie was refused."""
        vals = self.cookie_values(headers)
        if not vals:
            return None, None
        v = vals[0]
        try:
            if not v:
                raise ValueError("Unauthorized access")
            tok = self.parse_token(self.verify(v))
            if tok["t"] != TYPE:
                raise ValueError("Invalid AuthenticationToken type")
            now = int(time.time() * 1000)
            if (int(tok.get("i", -1)) != -1 and now > int(tok["i"])) or \
                    (int(tok["e"]) != -1 and now > int(tok["e"])):
                raise ValueError("AuthenticationToken expired")
        except ValueError as e:
            self._count("cookies_rejected")
            return None, str(e)
        self._count("cookies_accepted")
        return tok, None

    def cookie_header(self, value, https):
        s = COOKIE + "="
        if value:
            s += '"' + value + '"'
        if self.cookie_path is not None:
            s += "; Path=" + self.cookie_path
        if https:
            s += "; Secure"
        return s + "; HttpOnly"

    # ------------------------------------------------------------- the filter
    def check(self, headers, https):
        """Returns (status, headers, reason): status None lets the request through (with
        the headers added to the answer), otherwise the refusal to send."""
        auth = headers.get("Authorization") or ""
        if auth.startswith("Negotiate"):
            self._count("negotiate_headers")
        tok, reason = self.token_from_cookie(headers)
        if tok is not None:
            return None, [], None
        if not auth.startswith("Negotiate"):
            self._count("challenges")
            return 401, [("WWW-Authenticate", "Negotiate"),
                         ("Set-Cookie", self.cookie_header("", https))], \
                reason or "Authentication required"
        self._count("negotiations")
        out_hdrs = []
        try:
            in_tok = base64.b64decode(auth[len("Negotiate"):].strip(), validate=True)
            creds = gssapi.Credentials(**self.cred_args)
            ctx = gssapi.SecurityContext(creds=creds, usage="accept")
            out_tok = ctx.step(in_tok)
            if out_tok:
                out_hdrs.append(("WWW-Authenticate", "Negotiate " + _b64(out_tok)))
            if not ctx.complete:
                out_hdrs.append(("Set-Cookie", self.cookie_header("", https)))
                return 401, out_hdrs, "Authentication required"
            principal = str(ctx.initiator_name)
        except (gssapi.exceptions.GSSError, ValueError) as e:
            self._count("failures")
            msg = "GSSException: %s" % (e,)
            msg = msg.splitlines()[0] if msg else "GSSException"
            return 403, [("Set-Cookie", self.cookie_header("", https))], msg
        self._count("established")
        user = principal.split("@", 1)[0].split("/", 1)[0]
        expires = int((time.time() + self.validity) * 1000)
        raw = "u=%s&p=%s&t=%s&e=%d" % (user, principal, TYPE, expires)
        out_hdrs.append(("Set-Cookie", self.cookie_header(self.sign(raw), https)))
        with self.lock:
            self.counts["cookies_issued"] += 1
            self.users.append(principal)
        return None, out_hdrs, None
