"""A real SMTP server on 127.0.0.1 for pbem's mail tests (aiosmtpd).

Two listeners share one Maildir: STARTTLS required + AUTH on one port, implicit TLS (SMTPS)
+ AUTH on another. Each accepted message is stored byte for byte in MAILDIR/new, with a
Return-Path line in front as a delivering MTA writes it. Prints
"ready starttls=PORT smtps=PORT" once both listen; stops when its standard input closes (the
test ended or died), on SIGTERM, or after TIMEOUT seconds, whichever comes first.

usage: server.py MAILDIR CERT KEY USER PASSWORD TIMEOUT
"""

import mailbox
import os
import signal
import socket
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

maildir, cert, key, user, password, timeout = sys.argv[1:7]
box = mailbox.Maildir(maildir, create=True)


class Deliver:
    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        box.add(b"Return-Path: <" + (envelope.mail_from or "").encode() + b">\r\n" + raw)
        return "250 OK delivered"


def authenticate(server, session, envelope, mechanism, data):
    ok = (
        isinstance(data, LoginPassword)
        and data.login == user.encode()
        and data.password == password.encode()
    )
    # handled=False makes aiosmtpd answer 535 on failure instead of staying silent.
    return AuthResult(success=ok, handled=False)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)


def start(**kw):
    for _ in range(20):
        c = Controller(Deliver(), hostname="127.0.0.1", port=free_port(),
                       authenticator=authenticate, auth_required=True, **kw)
        try:
            c.start()
            return c
        except Exception:  # the port was taken meanwhile: try another one
            continue
    sys.exit("could not bind a port on 127.0.0.1")


starttls = start(tls_context=ctx, require_starttls=True, auth_require_tls=True)
smtps = start(ssl_context=ctx, auth_require_tls=False)
print(f"ready starttls={starttls.port} smtps={smtps.port}", flush=True)

done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
signal.signal(signal.SIGTERM, lambda *_: done.set())
done.wait(float(timeout))
starttls.stop()
smtps.stop()
os._exit(0)
