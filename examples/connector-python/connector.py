#!/usr/bin/env python3
"""An example Payline connector in Python 3.11, standard library only.

It serves Payline's connector protocol v1 (docs/connector-protocol.yaml) for
two made-up platforms, Acme Paydesk (payroll) and Tickwork Timeclock (time
and attendance), with test users whose credentials decide the scenario the
way Payline's sandbox does. See README.md beside this file.

    PAYLINE_CONNECTOR_SECRET=... python3 connector.py [--addr 127.0.0.1:8091]

This file is the protocol: signatures, deadlines, routing, errors,
idempotent job runs and paging. platforms.py is what the platforms answer;
synthetic.py makes their people and pay.
"""

import sys

if sys.version_info < (3, 11):
    sys.exit(f"connector.py needs Python 3.11 or newer; this is {sys.version.split()[0]}")
sys.dont_write_bytecode = True  # keep the example's directory clean

import argparse  # noqa: E402
import hashlib  # noqa: E402
import hmac  # noqa: E402
import ipaddress  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from datetime import datetime, timezone  # noqa: E402
from decimal import Decimal  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import platforms  # noqa: E402
from platforms import Refusal, invalid  # noqa: E402

PREFIX = "/connector/v1"
REPLAY_WINDOW = 300  # seconds a request's timestamp may be from this clock
MAX_BODY = 1 << 20  # a request body's limit
PAGE_SIZE = 100  # items in a page of a list product
MEMO_SECONDS = 600  # how long a job attempt's answer is kept for a retried request

HEADER_TIMESTAMP = "X-Connector-Timestamp"
HEADER_SIGNATURE = "X-Connector-Signature"
HEADER_DEADLINE = "X-Connector-Deadline"


# Signing.

def sign(secret: bytes, method: str, path: str, timestamp: int, body: bytes) -> str:
    """v1=hex(HMAC-SHA256(secret, "v1:{timestamp}:{METHOD}:{path}:{body}"))."""
    message = f"v1:{timestamp}:{method}:{path}:".encode() + body
    return "v1=" + hmac.new(secret, message, hashlib.sha256).hexdigest()


def verify(secret: bytes, headers, method: str, path: str, body: bytes, now: float) -> bool:
    ts = headers.get(HEADER_TIMESTAMP, "")
    if not re.fullmatch(r"[0-9]{1,18}", ts):
        return False
    if abs(now - int(ts)) > REPLAY_WINDOW:
        return False
    return hmac.compare_digest(headers.get(HEADER_SIGNATURE, "").encode(), sign(secret, method, path, int(ts), body).encode())


# Deadlines.

class DeadlinePassed(Exception):
    pass


class Deadline:
    """The request's X-Connector-Deadline: work stops when it passes."""

    def __init__(self, header: str):
        self.at = None
        if header:
            try:
                self.at = parse_time(header).timestamp()
            except ValueError:
                pass  # as the reference server: an unreadable deadline is no deadline

    def check(self):
        if self.at is not None and time.time() >= self.at:
            raise DeadlinePassed()

    def sleep(self, seconds: float):
        end = time.time() + seconds
        if self.at is not None:
            end = min(end, self.at)
        time.sleep(max(0.0, end - time.time()))
        self.check()


def parse_time(value) -> datetime:
    """An RFC 3339 date-time (Payline sends up to nanoseconds; Python keeps
    microseconds)."""
    if not isinstance(value, str):
        raise ValueError("not a string")
    t = datetime.fromisoformat(value)
    if t.tzinfo is None:
        raise ValueError("no time zone")
    return t


# Requests.

def decode(body: bytes) -> dict:
    try:
        req = json.loads(body, parse_float=Decimal)  # a switch's dollars, exactly
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise invalid("INVALID_JSON", f"the body is not this operation's JSON: {e.msg}")
    if not isinstance(req, dict):
        raise invalid("INVALID_JSON", "the body is not this operation's JSON: want an object")
    return req


def field(req: dict, path: str, kind, required: bool = True):
    """The value at a dotted path, checked to be of kind."""
    value = req
    for name in path.split("."):
        value = value.get(name) if isinstance(value, dict) else None
    if value is None or (kind is str and value == "" and required):
        if required:
            raise invalid("MISSING_FIELDS", f"missing required fields: {path}")
        return kind()
    if not isinstance(value, kind):
        raise invalid("INVALID_FIELDS", f"{path}: want a {kind.__name__}")
    return value


def time_field(req: dict, path: str) -> datetime:
    try:
        return parse_time(field(req, path, str))
    except ValueError:
        raise invalid("INVALID_FIELDS", f"{path}: want an RFC 3339 date-time")


def loggable(name) -> str:
    """A job or product name as the log shows it: one of the protocol's
    names, or "?" (a request's text never reaches the log as it is)."""
    return name if isinstance(name, str) and re.fullmatch(r"[a-z_]{1,40}", name) else "?"


def account_of(req: dict) -> dict:
    """The request's account, with the fields the platforms read."""
    field(req, "account", dict)
    out = {"id": field(req, "account.id", str)}
    for name in ("customer_id", "end_user_id", "platform_id", "employer_name", "connection"):
        out[name] = field(req, "account." + name, str, False)
    return out


class Connector:
    """The protocol's operations over platforms.py."""

    def __init__(self):
        self._lock = threading.Lock()
        self._runs: dict[str, tuple[float, dict]] = {}  # idempotency key -> (when, first answer)

    def capabilities(self, _req, _deadline, note):
        return platforms.capabilities()

    def login(self, req, deadline, note):
        platform = platforms.platform_for(field(req, "platform.id", str), field(req, "platform.type", str, False))
        username = field(req, "credentials.username", str, False)
        password = field(req, "credentials.password", str, False)
        mfa_code = field(req, "credentials.mfa_code", str, False)
        note["platform"] = platform.name
        out = platforms.login(platform, username, password, mfa_code, deadline)
        note["outcome"] = "mfa_required" if "mfa_required" in out else "connected"
        return out

    def match(self, req, _deadline, note):
        matching = field(req, "matching", dict, False)
        candidates = field(req, "candidates", list)
        ids = platforms.match(matching, [c for c in candidates if isinstance(c, dict)])
        note["matched"] = f"{len(ids)}/{len(candidates)}"
        return {"platform_ids": ids}

    def run(self, req, _deadline, note):
        key = field(req, "idempotency_key", str)
        job, account = field(req, "job", dict), account_of(req)
        started_at, now = time_field(req, "started_at"), time_field(req, "now")
        note["job"] = loggable(job.get("name"))
        at = time.monotonic()
        with self._lock:
            for k in [k for k, (when, _) in self._runs.items() if at - when > MEMO_SECONDS]:
                del self._runs[k]
            memo = self._runs.get(key)
        if memo is not None:
            note["outcome"] = memo[1]["outcome"] + " (repeated)"
            return memo[1]
        out = platforms.run(job, account, started_at, now)
        with self._lock:
            # Two attempts racing under one key both computed the same
            # answer (it is a pure function of the request); keep the first.
            out = self._runs.setdefault(key, (at, out))[1]
        note["outcome"] = out["outcome"]
        return out

    def fetch(self, req, deadline, note):
        product = field(req, "product", str)
        note["product"] = loggable(product)
        account = account_of(req)
        switches = [j for j in field(req, "switches", list, False) if isinstance(j, dict)]
        since, now = time_field(req, "since"), time_field(req, "now")
        cursor = field(req, "cursor", str, False)
        whole = platforms.fetch(product, account, switches, since, now, deadline)
        if not isinstance(whole, list):
            return {"data": whole, "next_cursor": None}
        # A list product is paged: the cursor is the offset of the page.
        if cursor and not re.fullmatch(r"[0-9]{1,9}", cursor):
            raise invalid("INVALID_FIELDS", "cursor: not one this connector gave")
        start = int(cursor or 0)
        if start > len(whole):
            raise invalid("INVALID_FIELDS", "cursor: not one this connector gave")
        end = min(start + PAGE_SIZE, len(whole))
        note["page"] = f"{start}-{end}/{len(whole)}"
        return {"data": whole[start:end], "next_cursor": str(end) if end < len(whole) else None}


OPERATIONS = {
    ("GET", PREFIX + "/capabilities"): Connector.capabilities,
    ("POST", PREFIX + "/login"): Connector.login,
    ("POST", PREFIX + "/match"): Connector.match,
    ("POST", PREFIX + "/jobs/run"): Connector.run,
    ("POST", PREFIX + "/products/fetch"): Connector.fetch,
}


# HTTP.

def log(line: str):
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    sys.stderr.write(f"{stamp} {line}\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: every answer has a Content-Length
    disable_nagle_algorithm = True  # headers and body leave at once, not 40 ms apart
    server_version = "payline-example-connector-python/1"
    sys_version = ""
    secret: bytes = b""
    connector: Connector = None

    def do_GET(self):
        self.serve()

    def do_POST(self):
        self.serve()

    do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_POST

    def serve(self):
        began = time.monotonic()
        path = urlsplit(self.path).path
        note: dict = {}
        try:
            status, out = 200, self.answer(path, note)
        except Refusal as r:
            status, out = r.status, {"error": {"type": r.type, "code": r.code, "message": r.message}}
        except DeadlinePassed:
            # Payline stopped waiting at the same moment, so this answer is
            # rarely read. When it is (it can beat Payline's own timer), it
            # must read as "the connector did not answer in time", which any
            # 5XX without PLATFORM_UNAVAILABLE does; PLATFORM_UNAVAILABLE
            # would tell the user the platform is down.
            status, out = 504, {"error": {"type": "PLATFORM_ERROR", "code": "DEADLINE_EXCEEDED",
                                          "message": "the request's deadline passed before the platform answered"}}
        except Exception as e:  # noqa: BLE001 - the answer must be the protocol's error body
            frame = traceback.extract_tb(e.__traceback__)[-1]
            # The type and place only: an exception's text may quote data.
            note["failure"] = f"{type(e).__name__} at {os.path.basename(frame.filename)}:{frame.lineno}"
            status, out = 500, {"error": {"type": "UNKNOWN_ERROR", "code": "UNKNOWN_ERROR",
                                          "message": "the connector failed; its log says why"}}
        body = json.dumps(out).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            note["client"] = "gone"  # Payline gave up (its deadline) before the answer
            self.close_connection = True
        code = out["error"]["code"] if status >= 400 else "-"
        extra = " ".join(f"{k}={v}" for k, v in note.items())
        # Method, operation, status, code and timing; never credentials,
        # account state or anyone's data.
        log(f"{self.command} {path} {status} {code} {(time.monotonic() - began) * 1000:.1f}ms {extra}".rstrip())

    def answer(self, path: str, note: dict):
        body = self.read_body()
        # The signature is checked before anything else, as the reference
        # server does: an unsigned caller learns nothing, not even which
        # operations exist.
        if not verify(self.secret, self.headers, self.command, path, body, time.time()):
            raise Refusal(401, "AUTHENTICATION_ERROR", "INVALID_SIGNATURE",
                          "the request's signature is missing, wrong, or outside the replay window")
        deadline = Deadline(self.headers.get(HEADER_DEADLINE, ""))
        op = OPERATIONS.get((self.command, path))
        if op is None:
            raise Refusal(404, "NOT_FOUND", "OPERATION_NOT_FOUND",
                          f"no operation {self.command} {path} in connector protocol v1")
        deadline.check()
        req = decode(body) if self.command == "POST" else {}
        out = op(self.connector, req, deadline, note)
        deadline.check()
        return out

    def read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self.read_chunked()
        length = self.headers.get("Content-Length", "0") or "0"
        if not length.isdigit():
            self.close_connection = True
            raise invalid("INVALID_REQUEST", "Content-Length is not a number")
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is left unread
            raise Refusal(413, "INVALID_REQUEST", "REQUEST_TOO_LARGE", "the request body is over 1 MiB")
        return self.rfile.read(int(length))

    def read_chunked(self) -> bytes:
        out = bytearray()
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                self.close_connection = True
                raise invalid("INVALID_REQUEST", "a malformed chunked body")
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return bytes(out)
            if len(out) + size > MAX_BODY:
                self.close_connection = True
                raise Refusal(413, "INVALID_REQUEST", "REQUEST_TOO_LARGE", "the request body is over 1 MiB")
            out += self.rfile.read(size)
            self.rfile.readline()

    def log_request(self, code="-", size="-"):
        pass  # serve() logs every answered request, in its own words

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        # Only the base class's own complaints (a malformed request line)
        # come here; every answered request is logged by serve().
        log("http: " + (format % args))


def parse_addr(addr: str) -> tuple[str, int]:
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--addr {addr!r}: want HOST:PORT, like 127.0.0.1:8091")
    return host.strip("[]") or "127.0.0.1", int(port)


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="An example Payline connector (protocol v1) for two made-up platforms.")
    parser.add_argument("--addr", default="127.0.0.1:8091", help="HOST:PORT to listen on (default %(default)s)")
    parser.add_argument("--pending-seconds", type=float, default=platforms.settings.pending_seconds,
                        help="how long user_pending's jobs stay pending before they succeed (default %(default)s)")
    parser.add_argument("--any-platform", action="store_true",
                        help="serve platform ids this connector does not list as its platform of the same type "
                             "(payroll or time_and_attendance), e.g. behind Payline's own sandbox directory")
    args = parser.parse_args(argv)
    secret = os.environ.get("PAYLINE_CONNECTOR_SECRET", "")
    if not secret:
        print("connector.py: PAYLINE_CONNECTOR_SECRET is not set: Payline signs every request with it, "
              "so set the same value for both", file=sys.stderr)
        return 2
    try:
        host, port = parse_addr(args.addr)
    except ValueError as e:
        print(f"connector.py: {e}", file=sys.stderr)
        return 2
    platforms.settings.pending_seconds = max(0.0, args.pending_seconds)
    platforms.settings.any_platform = args.any_platform

    Handler.secret, Handler.connector = secret.encode(), Connector()
    server_class = ThreadingHTTPServer
    if ":" in host:
        server_class = type("ThreadingHTTPServer6", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6})
    server_class.daemon_threads = True
    try:
        server = server_class((host, port), Handler)
    except OSError as e:
        print(f"connector.py: cannot listen on {args.addr}: {e.strerror}", file=sys.stderr)
        return 1
    if not loopback(host):
        log(f"warning: {host} is not a loopback address: this plain-http connector would receive users' credentials "
            "in the clear, and Payline calls plain http only on loopback; put TLS in front of it")

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    bound_host, bound_port = server.server_address[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    names = ", ".join(p.name for p in platforms.PLATFORMS.values())
    log(f"connector protocol v1 on http://{shown}:{bound_port} ({names})")
    with server:
        server.serve_forever()
    log("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
