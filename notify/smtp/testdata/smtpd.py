"""A real SMTP server for notify/smtp's tests: Debian's aiosmtpd.

Run with Debian's /usr/bin/python3 (python3-aiosmtpd). It listens on
127.0.0.1 on a port the system picks, prints "READY <port>" once it
accepts connections, and writes each message it takes to --dir as
N.eml (the bytes received) and N.json (envelope sender and recipients).
It accepts AUTH for one --user/--password; with --cert and --key it
offers STARTTLS (or, with --implicit-tls, speaks TLS from the first
byte). A recipient whose address starts with "refuse" is answered 550,
as a server that knows no such mailbox does.
"""
import argparse
import asyncio
import json
import os
import socket
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Keep:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refuse"):
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                       "tls": server.transport.get_extra_info("cipher") is not None}, f)
        # The .eml last: its presence says the message is whole.
        with open(base + ".tmp", "wb") as f:
            f.write(envelope.original_content)
        os.rename(base + ".tmp", base + ".eml")
        return "250 2.0.0 Ok: queued as %d" % self.count


def main():
    # aiosmtpd 1.4 warns of its own deprecated attribute on every login.
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--implicit-tls", action="store_true")
    a = p.parse_args()

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login == a.user.encode() and auth_data.password == a.password.encode())
        return AuthResult(success=ok, handled=False)

    context = None
    if a.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(a.cert, a.key)
    handler = Keep(a.dir)
    starttls = context if (context and not a.implicit_tls) else None

    def factory():
        return SMTP(handler, hostname="payline-test-smtp", authenticator=authenticate,
                    auth_require_tls=starttls is not None, require_starttls=starttls is not None,
                    tls_context=starttls)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(
        factory, sock=sock, ssl=context if a.implicit_tls else None))
    print("READY %d" % sock.getsockname()[1], flush=True)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
