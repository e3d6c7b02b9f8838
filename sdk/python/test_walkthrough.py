"""The README's walkthrough in Python, against a running sandbox server.

go test ./sdk (TestLibraryWalkthroughs) starts a server and runs this with PAYLINE_URL,
PAYLINE_SECRET and a certificate the server trusts for webhooks (PAYLINE_TLS_CERT, PAYLINE_TLS_KEY).
"""

import http.server
import os
import queue
import ssl
import threading
import time
import unittest
from decimal import Decimal

from payline import Client, PaylineError, WebhookError, verify_webhook

NEEDED = ("PAYLINE_URL", "PAYLINE_SECRET", "PAYLINE_TLS_CERT", "PAYLINE_TLS_KEY")


@unittest.skipUnless(all(os.environ.get(k) for k in NEEDED),
                     "needs a sandbox server: go test ./sdk -run TestLibraryWalkthroughs runs this")
class Walkthrough(unittest.TestCase):
    def test_walkthrough(self):
        secret = os.environ["PAYLINE_SECRET"]
        client = Client(os.environ["PAYLINE_URL"], secret)

        platform = client.search(q="summit payroll", response_types=["platform"])["data"][0]

        # 1. A link token for a switch and the data products.
        jobs = ["direct_deposit_switch", "identity", "employment", "income", "paystubs", "tax_forms"]
        token = client.create_link_token({
            "org_name": "Acme Bank", "end_user_id": "python-user", "required_jobs": jobs,
            "allocation": {"targets": [{"name": "Main", "type": "checking",
                                        "account_number": "123456789", "routing_number": "011000015"}]},
        })["data"]

        # 2. The sandbox helper completes Link as the modal would.
        account_id = client.sandbox_link_session({
            "token": token["token"], "platform_id": platform["id"], "username": "user_good", "password": "pass_good",
            "allocation": {"action": "partial_switch", "type": "amount", "value": Decimal("150.00")},
        })["data"]["account_id"]

        # 3. Wait for the six jobs to finish.
        deadline = time.monotonic() + 60
        while True:
            done = [j for j in client.paginate(client.list_jobs, link_token_id=token["id"]) if j["outcome"] != "pending"]
            if len(done) == len(jobs):
                break
            self.assertLess(time.monotonic(), deadline, f"the jobs did not finish: {len(done)} of {len(jobs)}")
            time.sleep(0.2)
        self.assertEqual({j["outcome"] for j in done}, {"success"})
        switch = next(j for j in done if j["name"] == "direct_deposit_switch")
        self.assertEqual(switch["params"]["allocation"]["value"], Decimal("150.00"))

        # 4. Every paystub, five to a page; each adds up.
        stubs = list(client.paginate(client.list_paystubs, account_id, limit=5))
        self.assertGreater(len(stubs), 5, "paginate did not go past the first page of 5")
        for stub in stubs:
            self.assertEqual(sum(e["amount"] for e in stub["earnings"]), stub["gross_pay_amount"], stub["pay_date"])

        # 5. A webhook, received over TLS and verified.
        received: queue.Queue = queue.Queue()

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    verify_webhook(secret, dict(self.headers), body)
                    received.put(None)
                except WebhookError as e:
                    received.put(e)
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(os.environ["PAYLINE_TLS_CERT"], os.environ["PAYLINE_TLS_KEY"])
        server.socket = tls.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        hook = client.create_webhook({"url": f"https://127.0.0.1:{server.server_port}/hooks",
                                      "enabled_events": ["account.added"], "version": "2025-07-08"})["data"]
        client.sandbox_test_webhook(hook["id"])
        self.assertIsNone(received.get(timeout=30), "the delivery did not verify")

        # 6. Errors are typed and carry the request id.
        with self.assertRaises(PaylineError) as caught:
            client.get_account("00000000-0000-4000-8000-000000000000")
        self.assertEqual(caught.exception.status_code, 404)
        self.assertTrue(caught.exception.type and caught.exception.request_id)


if __name__ == "__main__":
    unittest.main()
