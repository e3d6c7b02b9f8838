"""Unit tests of the example connector's own logic (stdlib unittest).

    cd examples/connector-python && python3 -m unittest -v

connector_test.go runs these too, then checks the protocol end to end with
Payline's Go client.
"""

import sys
import unittest
from datetime import date, datetime, timezone

sys.dont_write_bytecode = True

import connector  # noqa: E402
import platforms  # noqa: E402
import synthetic  # noqa: E402

ACCOUNT = {"id": "acct-1", "customer_id": "cust", "end_user_id": "ada", "platform_id": platforms.ACME_PAYDESK.id,
           "employer_name": "Sycamore Publishing Inc", "connection": "v1:%s:good" % platforms.ACME_PAYDESK.id,
           "created_at": "2026-11-01T00:00:00Z"}


class Signing(unittest.TestCase):
    def test_matches_the_reference(self):
        # The value Go's protocol.Sign gives for these inputs.
        self.assertEqual(connector.sign(b"s3cret", "POST", "/connector/v1/login", 1700000000, b'{"a":1}'),
                         "v1=" + __import__("hmac").new(b"s3cret", b'v1:1700000000:POST:/connector/v1/login:{"a":1}',
                                                        "sha256").hexdigest())

    def test_window(self):
        headers = {connector.HEADER_TIMESTAMP: "1700000000",
                   connector.HEADER_SIGNATURE: connector.sign(b"k", "GET", "/p", 1700000000, b"")}
        self.assertTrue(connector.verify(b"k", headers, "GET", "/p", b"", 1700000000 + 299))
        self.assertFalse(connector.verify(b"k", headers, "GET", "/p", b"", 1700000000 + 301))
        self.assertFalse(connector.verify(b"k", headers, "GET", "/p", b"", 1700000000 - 301))
        self.assertFalse(connector.verify(b"other", headers, "GET", "/p", b"", 1700000000))
        self.assertFalse(connector.verify(b"k", headers, "POST", "/p", b"", 1700000000))
        self.assertFalse(connector.verify(b"k", {**headers, connector.HEADER_TIMESTAMP: "17e8"}, "GET", "/p", b"", 1700000000))


class Data(unittest.TestCase):
    def test_deterministic(self):
        a, b = synthetic.Person.of(ACCOUNT), synthetic.Person.of(dict(ACCOUNT))
        self.assertEqual(a, b)
        self.assertEqual(a.paystubs(date(2024, 11, 25), date(2026, 11, 25)),
                         b.paystubs(date(2024, 11, 25), date(2026, 11, 25)))

    def test_ytd_adds_up_per_year(self):
        for i in range(20):
            p = synthetic.Person.of({**ACCOUNT, "id": f"acct-{i}"})
            stubs = p.paystubs(date(2024, 1, 1), date(2026, 11, 25))
            by_year = {}
            for s in stubs:
                by_year.setdefault(s["pay_date"][:4], []).append(s)
            for year, ss in by_year.items():
                self.assertEqual(ss[-1]["gross_pay_ytd"], sum(s["gross_pay_amount"] for s in ss), (i, year))
                self.assertEqual(ss[-1]["net_pay_ytd"], sum(s["net_pay_amount"] for s in ss), (i, year))
            for s in stubs:
                self.assertEqual(s["net_pay_amount"], s["gross_pay_amount"] - s["total_taxes"] - s["total_deductions"])
                self.assertEqual(s["gross_pay_amount"], sum(e["amount"] for e in s["earnings"]))
                for k, v in s.items():
                    if k.endswith(("_amount", "_ytd")) or k.startswith("total_"):
                        self.assertIsInstance(v, int, k)

    def test_weekly_accounts_have_over_a_page(self):
        weekly = [p for p in (synthetic.Person.of({**ACCOUNT, "id": f"acct-{i}"}) for i in range(20))
                  if p.frequency == "weekly"]
        self.assertTrue(weekly)
        for p in weekly:
            self.assertGreater(len(p.paystubs(date(2024, 11, 25), date(2026, 11, 25))), 100)

    def test_pay_dates_are_fridays_on_schedule(self):
        for i in range(10):
            p = synthetic.Person.of({**ACCOUNT, "id": f"acct-{i}"})
            dates = p.pay_dates(date(2025, 1, 1), date(2025, 12, 31))
            self.assertTrue(all(d.weekday() == 4 for d in dates))
            step = 7 if p.frequency == "weekly" else 14
            self.assertTrue(all((b - a).days == step for a, b in zip(dates, dates[1:])))

    def test_routing_numbers_check(self):
        for i in range(50):
            n = synthetic.routing_number(synthetic.Draw(f"r{i}"))
            d = list(map(int, n))
            self.assertEqual((3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10, 0, n)

    def test_dollars_to_cents_is_exact(self):
        from decimal import Decimal
        self.assertEqual(synthetic.dollars_to_cents(Decimal("150.25")), 15025)
        self.assertEqual(synthetic.dollars_to_cents(Decimal("0.29")), 29)
        self.assertEqual(synthetic.dollars_to_cents(12), 1200)
        self.assertIsNone(synthetic.dollars_to_cents(None))


class Platforms(unittest.TestCase):
    def tearDown(self):
        platforms.settings.any_platform = False

    def test_unknown_platform_refused_unless_any_platform(self):
        with self.assertRaises(platforms.Refusal) as r:
            platforms.platform_for("elsewhere", "payroll")
        self.assertEqual((r.exception.status, r.exception.code), (400, "INVALID_FIELDS"))
        platforms.settings.any_platform = True
        self.assertIs(platforms.platform_for("elsewhere", "payroll"), platforms.ACME_PAYDESK)
        self.assertIs(platforms.platform_for("elsewhere", "time_and_attendance"), platforms.TICKWORK_TIMECLOCK)
        with self.assertRaises(platforms.Refusal):
            platforms.platform_for("elsewhere", "merchant")

    def test_match(self):
        candidates = [{"id": p.id, "type": p.type} for p in platforms.PLATFORMS.values()]
        m = {"social_security_last_four": "4321", "date_of_birth": "1990-01-02"}
        self.assertEqual(platforms.match(m, candidates), platforms.match(m, candidates))
        self.assertTrue(platforms.match(m, candidates))
        self.assertEqual(platforms.match({**m, "social_security_last_four": "0000"}, candidates), [])
        self.assertEqual(platforms.match({"social_security_number": "123-45-0000"}, candidates), [])
        self.assertEqual(platforms.match(m, [{"id": "elsewhere", "type": "payroll"}]), [])

    def test_pending_then_success(self):
        acct = {**ACCOUNT, "connection": "v1:%s:pending" % platforms.ACME_PAYDESK.id}
        now = datetime(2026, 11, 25, 12, tzinfo=timezone.utc)
        out = platforms.run({"name": "paystubs"}, acct, now, now)
        self.assertEqual(out["outcome"], "pending")
        self.assertGreater(out["retry_after_seconds"], 0)
        out = platforms.run({"name": "paystubs"}, acct, datetime(2026, 11, 25, 11, tzinfo=timezone.utc), now)
        self.assertEqual(out, {"outcome": "success", "at": "2026-11-25T11:02:00Z"})


if __name__ == "__main__":
    unittest.main()
