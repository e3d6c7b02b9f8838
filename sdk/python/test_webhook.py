import unittest

from payline import WebhookError, sign_webhook, verify_webhook

SECRET = "sk_sandbox_0123456789abcdef"
BODY = b'{"event":"account.added","event_id":"e1","payload":{"account_id":"a"}}'
NOW = 1795000000


class WebhookTest(unittest.TestCase):
    def test_round_trip(self):
        verify_webhook(SECRET, sign_webhook(SECRET, BODY, at=NOW), BODY, now=NOW + 60)

    def test_refusals(self):
        headers = sign_webhook(SECRET, BODY, at=NOW)
        cases = {
            "signature": (SECRET, headers, BODY + b" ", NOW),
            "signature ": ("sk_other", headers, BODY, NOW),
            "stale": (SECRET, headers, BODY, NOW + 301),
            "stale ": (SECRET, headers, BODY, NOW - 301),
            "missing": (SECRET, {"X-Timestamp": str(NOW)}, BODY, NOW),
        }
        for reason, (secret, h, body, now) in cases.items():
            with self.assertRaises(WebhookError) as caught:
                verify_webhook(secret, h, body, now=now)
            self.assertEqual(caught.exception.reason, reason.strip())

    def test_header_case(self):
        headers = {k.upper(): v for k, v in sign_webhook(SECRET, BODY, at=NOW).items()}
        verify_webhook(SECRET, headers, BODY, now=NOW)


if __name__ == "__main__":
    unittest.main()
