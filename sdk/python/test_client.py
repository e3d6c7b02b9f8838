"""The client's own behaviour against a scripted server: headers, retries, errors, pages, amounts."""

import http.server
import json
import threading
import unittest
from decimal import Decimal

from payline import API_VERSION, Client, PaylineError
from payline.client import _dumps


class Scripted(http.server.BaseHTTPRequestHandler):
    answers: list = []
    seen: list = []

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        type(self).seen.append((self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        status, headers, payload = type(self).answers.pop(0)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("x-service-request-id", "req-1")
        self.end_headers()
        self.wfile.write(payload.encode())

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


def error(status, type_, code="", **headers):
    return (status, headers, json.dumps({"error": {"type": type_, "code": code, "message": "told", "status_code": status}}))


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        Scripted.answers, Scripted.seen = [], []
        self.client = Client(f"http://127.0.0.1:{self.server.server_port}/v1", "sk_test", max_retries=3, max_wait=2)

    def test_headers_and_amounts(self):
        Scripted.answers = [(200, {}, '{"data": {"min_amount": 5.00, "id": "p"}}')]
        got = self.client.get_platform("p 1")
        self.assertEqual(got["data"]["min_amount"], Decimal("5.00"))
        method, path, headers, _ = Scripted.seen[0]
        self.assertEqual((method, path), ("GET", "/v1/platforms/p%201"))
        self.assertEqual(headers["x-api-secret"], "sk_test")
        self.assertEqual(headers["service-version"], API_VERSION)

    def test_429_is_retried_with_the_same_body(self):
        Scripted.answers = [error(429, "RATE_LIMIT_EXCEEDED", **{"Retry-After": "0"}), (200, {}, '{"data": {}}')]
        self.client.create_link_token({"org_name": "Acme", "amount": Decimal("25.00")})
        self.assertEqual(len(Scripted.seen), 2)
        self.assertEqual(Scripted.seen[0][3], Scripted.seen[1][3])
        self.assertIn('"amount":25.00', Scripted.seen[0][3])

    def test_post_after_503_is_not_retried(self):
        Scripted.answers = [error(503, "SERVICE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE")]
        with self.assertRaises(PaylineError) as caught:
            self.client.create_link_token({"org_name": "Acme"})
        e = caught.exception
        self.assertEqual((e.status_code, e.code, e.request_id, len(Scripted.seen)), (503, "UPSTREAM_UNAVAILABLE", "req-1", 1))

    def test_get_after_503_is_retried_until_the_limit(self):
        Scripted.answers = [error(503, "SERVICE_UNAVAILABLE")] * 4
        with self.assertRaises(PaylineError):
            self.client.get_platform("p")
        self.assertEqual(len(Scripted.seen), 4)

    def test_retry_after_beyond_max_wait_is_raised(self):
        Scripted.answers = [error(429, "RATE_LIMIT_EXCEEDED", **{"Retry-After": "120"})]
        with self.assertRaises(PaylineError) as caught:
            self.client.get_platform("p")
        self.assertEqual(caught.exception.retry_after, 120)
        self.assertEqual(len(Scripted.seen), 1)

    def test_paginate_follows_the_cursor(self):
        Scripted.answers = [(200, {}, '{"data": [1, 2], "meta": {"next_cursor": "c1"}}'),
                            (200, {}, '{"data": [3], "meta": {"next_cursor": null}}')]
        self.assertEqual(list(self.client.paginate(self.client.list_employers, limit=2)), [1, 2, 3])
        self.assertIn("cursor=c1", Scripted.seen[1][1])
        self.assertIn("limit=2", Scripted.seen[1][1])

    def test_dumps_writes_decimals_as_literals(self):
        self.assertEqual(_dumps({"a": [Decimal("19.99"), Decimal("1000000.00")], "b": "x"}),
                         '{"a":[19.99,1000000.00],"b":"x"}')
        with self.assertRaises(ValueError):
            _dumps({"a": Decimal("NaN")})


if __name__ == "__main__":
    unittest.main()
