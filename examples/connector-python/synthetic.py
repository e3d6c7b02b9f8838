"""Synthetic, deterministic people and pay for the example connector.

Everything here is a pure function of its inputs: the same account (and the
same request's `since` and `now`) always gives byte-identical products, in
any process, on any machine. Randomness comes from SHA-256 of a key rather
than from the `random` module, so it never depends on Python's version or
on PYTHONHASHSEED.

Who the person is (name, birth date, SSN last four, address, phone) is drawn
from the account's customer and end user, so every account of one end user
agrees on who they are; their job and pay are drawn from the account id, so
each account is its own employment. All money is integer cents.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal, InvalidOperation

# Stable ids of generated records (paystubs, shifts) are UUIDv5s in this
# namespace, so a record keeps its id across fetches.
NAMESPACE = uuid.UUID("a5465ab5-f682-577f-849d-e21379d3d3fe")


class Draw:
    """A deterministic stream of numbers seeded by a string key."""

    def __init__(self, key: str):
        self._key = key.encode()
        self._n = 0

    def below(self, n: int) -> int:
        """A number in [0, n)."""
        digest = hashlib.sha256(self._key + b"#" + str(self._n).encode()).digest()
        self._n += 1
        return int.from_bytes(digest[:8], "big") % n

    def between(self, lo: int, hi: int) -> int:
        """A number in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent


def stable_id(kind: str, *parts: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join((kind,) + parts)))


def pct(amount: int, basis_points: int) -> int:
    """amount * basis_points / 10000, rounded half up, in integer cents."""
    return (amount * basis_points + 5000) // 10000


FIRST_NAMES = ["Ada", "Grace", "Alan", "Katherine", "Dorothy", "Carlos", "Mei", "Amara", "Noah", "Priya",
               "Diego", "Fatima", "Liam", "Sofia", "Kenji", "Zara", "Omar", "Elena", "Tariq", "Hana"]
LAST_NAMES = ["Lovelace", "Hopper", "Turing", "Johnson", "Vaughan", "Rivera", "Chen", "Okafor", "Smith", "Patel",
              "Garcia", "Haddad", "Murphy", "Rossi", "Tanaka", "Ali", "Farouk", "Petrova", "Nguyen", "Kim"]
STREETS = ["Maple Ave", "Oak St", "Cedar Ln", "Elm St", "Park Blvd", "Lake Dr", "Hill Rd", "River Way"]
CITIES = [("Columbus", "OH", "43215"), ("Austin", "TX", "78701"), ("Denver", "CO", "80202"),
          ("Portland", "OR", "97205"), ("Raleigh", "NC", "27601"), ("Madison", "WI", "53703"),
          ("Tampa", "FL", "33602"), ("Boise", "ID", "83702")]
PAYROLL_TITLES = ["Warehouse Associate", "Registered Nurse", "Software Engineer", "Store Manager", "Accountant",
                  "Line Cook", "Customer Support Specialist", "Electrician", "Teacher", "Delivery Driver"]
SHIFT_TITLES = ["Barista", "Stocker", "Cashier", "Line Cook", "Housekeeper", "Security Officer", "Picker Packer"]

# A Friday: every weekly and bi-weekly pay schedule counts from it (or the
# Friday after, for half of the bi-weekly schedules).
PAY_EPOCH = date(2019, 1, 4)

PERIODS_PER_YEAR = {"weekly": 52, "bi-weekly": 26}


def address(line1: str, city: str, state: str, postal_code: str) -> dict:
    return {"raw": f"{line1}, {city}, {state} {postal_code}", "line1": line1, "line2": None, "city": city,
            "state": state, "postal_code": postal_code, "country": "US"}


@dataclass(frozen=True)
class Person:
    """The worker behind an account."""

    account_id: str
    employer_name: str
    first: str
    last: str
    birth: date
    last_four: str
    street: str
    city: str
    state: str
    zip: str
    phone: str
    # The job, drawn from the account id.
    title: str
    start: date
    hourly: bool
    rate: int  # cents per hour (hourly workers, and every shift worker)
    annual: int  # cents per year (salaried workers)
    frequency: str  # "weekly" or "bi-weekly"
    anchor: date  # a pay date the schedule counts from
    employer_address: dict

    @staticmethod
    def of(account: dict, shift_worker: bool = False) -> "Person":
        who = Draw(f"person/{account['customer_id']}/{account['end_user_id']}")
        city, state, zip_code = who.pick(CITIES)
        first, last = who.pick(FIRST_NAMES), who.pick(LAST_NAMES)
        birth = date(1960 + who.below(40), 1 + who.below(12), 1 + who.below(28))
        last_four = f"{who.between(1, 9998):04d}"  # never 0000, the no-match ending
        street = f"{who.between(100, 9899)} {who.pick(STREETS)}"
        phone = f"{who.between(201, 900):03d}555{who.below(10000):04d}"

        job = Draw(f"job/{account['id']}")
        # Every job started at least six years before 2026, so two years
        # of paystubs always exist.
        start = date(2012 + job.below(8), 1 + job.below(12), 1 + job.below(28))
        hourly = shift_worker or job.chance(60)
        rate = job.between(1600, 4999)  # $16.00 to $49.99 an hour
        annual = job.between(38_000, 177_999) * 100
        frequency = "weekly" if job.chance(50) else "bi-weekly"
        anchor = PAY_EPOCH + timedelta(days=7 * job.below(2) if frequency == "bi-weekly" else 0)
        title = job.pick(SHIFT_TITLES if shift_worker else PAYROLL_TITLES)
        employer_address = address(f"{job.between(1, 999)} Commerce Pkwy", city, state, zip_code)
        return Person(account_id=account["id"], employer_name=account["employer_name"], first=first, last=last,
                      birth=birth, last_four=last_four, street=street, city=city, state=state, zip=zip_code,
                      phone=phone, title=title, start=start, hourly=hourly, rate=rate, annual=annual,
                      frequency=frequency, anchor=anchor, employer_address=employer_address)

    # Single-object products.

    def identity(self) -> dict:
        return {
            "full_name": f"{self.first} {self.last}",
            "date_of_birth": self.birth.isoformat(),
            "last_four_ssn": self.last_four,
            "emails": [f"{self.first}.{self.last}@example.com".lower()],
            "address": address(self.street, self.city, self.state, self.zip),
            "phone_numbers": [{"value": self.phone, "type": "mobile"}],
        }

    def employment(self) -> dict:
        return {
            "status": "employed",
            "start_date": self.start.isoformat(),
            "termination_date": None,
            "employer_name": self.employer_name,
            "employer_address": self.employer_address,
            "employer_phone_number": {"value": "8005550142", "type": "work"},
            "title": self.title,
        }

    def income(self) -> dict:
        if self.hourly:
            return {"compensation_amount": self.rate, "compensation_unit": "hourly", "currency": "USD",
                    "pay_frequency": self.frequency}
        return {"compensation_amount": self.annual, "compensation_unit": "annually", "currency": "USD",
                "pay_frequency": self.frequency}

    # Paystubs.

    def pay_dates(self, first: date, last: date, check=lambda: None) -> list[date]:
        """The pay dates in [first, last], oldest first."""
        step = 7 if self.frequency == "weekly" else 14
        first = max(first, self.start)
        k = -((self.anchor - first).days // step)  # ceil((first - anchor) / step)
        d = self.anchor + timedelta(days=step * k)
        out = []
        while d <= last:
            check()
            if d >= first:
                out.append(d)
            d += timedelta(days=step)
        return out

    def _paystub(self, pay: date) -> dict:
        r = Draw(f"paystub/{self.account_id}/{pay.isoformat()}")
        periods = PERIODS_PER_YEAR[self.frequency]
        days = 7 if self.frequency == "weekly" else 14
        period_end = pay - timedelta(days=5)
        period_start = period_end - timedelta(days=days - 1)
        earnings = []
        if self.hourly:
            hours = 2080 // periods - r.below(5)  # whole hours: the pay is exact in cents
            earnings.append({"name": "Regular", "category": "hourly", "amount": hours * self.rate,
                             "hours": float(hours), "rate": self.rate})
            if r.chance(30):
                ot_hours, ot_rate = r.between(1, 8), self.rate * 3 // 2
                earnings.append({"name": "Overtime", "category": "overtime", "amount": ot_hours * ot_rate,
                                 "hours": float(ot_hours), "rate": ot_rate})
        else:
            earnings.append({"name": "Salary", "category": "salary", "amount": self.annual // periods,
                             "hours": None, "rate": None})
        if pay.month == 12 and r.chance(50):
            earnings.append({"name": "Year-end bonus", "category": "bonus", "amount": r.between(20_000, 199_999),
                             "hours": None, "rate": None})
        gross = sum(e["amount"] for e in earnings)
        retirement = pct(gross, 500)
        medical = min(9_500, gross // 4)
        deductions = [
            {"name": "401(k)", "category": "retirement", "amount": retirement, "hours": None, "rate": None},
            {"name": "Medical", "category": "medical_insurance", "amount": medical, "hours": None, "rate": None},
        ]
        taxable = gross - retirement - medical
        taxes = [
            {"name": "Federal Income Tax", "category": "federal_income", "amount": pct(taxable, 1100),
             "hours": None, "rate": None},
            {"name": "Social Security", "category": "social_security", "amount": pct(gross, 620),
             "hours": None, "rate": None},
            {"name": "Medicare", "category": "medicare", "amount": pct(gross, 145), "hours": None, "rate": None},
            {"name": f"{self.state} State Income Tax", "category": "state_income", "amount": pct(taxable, 400),
             "hours": None, "rate": None},
        ]
        reimbursements = r.between(2_500, 14_999) if r.chance(10) else 0
        total_taxes = sum(t["amount"] for t in taxes)
        total_deductions = sum(d["amount"] for d in deductions)
        net = gross - total_taxes - total_deductions
        return {
            "id": stable_id("paystub", self.account_id, pay.isoformat()),
            "account_id": self.account_id,
            "pay_date": pay.isoformat(),
            "pay_period_start": period_start.isoformat(),
            "pay_period_end": period_end.isoformat(),
            "gross_pay_amount": gross,
            "gross_pay_ytd": 0,  # set by paystubs()
            "net_pay_amount": net,
            "net_pay_ytd": 0,
            "check_amount": net + reimbursements,
            "total_taxes": total_taxes,
            "total_deductions": total_deductions,
            "total_reimbursements": reimbursements,
            "currency": "USD",
            "employer_name": self.employer_name,
            "external_paystub_id": "AP-" + pay.strftime("%Y%m%d"),
            "earnings": earnings,
            "taxes": taxes,
            "deductions": deductions,
            # The platform issued the stub on its pay date.
            "created_at": datetime.combine(pay, time(12, 0), timezone.utc).isoformat().replace("+00:00", "Z"),
        }

    def paystubs(self, since: date, now: date, check=lambda: None) -> list[dict]:
        """The stubs paid in [since, now], oldest first. Year-to-date figures
        add up from the first pay date of each calendar year, so a window
        starting mid-year still carries that year's true YTD."""
        out = []
        gross_ytd = net_ytd = 0
        year = None
        for pay in self.pay_dates(date(since.year, 1, 1), now, check):
            stub = self._paystub(pay)
            if pay.year != year:
                year, gross_ytd, net_ytd = pay.year, 0, 0
            gross_ytd += stub["gross_pay_amount"]
            net_ytd += stub["net_pay_amount"]
            stub["gross_pay_ytd"], stub["net_pay_ytd"] = gross_ytd, net_ytd
            if pay >= since:
                out.append(stub)
        return out

    # Direct deposit allocations.

    def allocations(self, switches: list[dict]) -> list[dict]:
        """Where pay goes: the person's own checking account for the
        remainder, changed by each successful switch in order (amount and
        percentage lines first by priority, the remainder last)."""
        r = Draw(f"bank/{self.account_id}")
        lines = [{
            "account_name": "Everyday Checking", "account_type": "checking", "allocation_type": "remainder",
            "amount": None, "percentage": None, "bank_name": f"First Example Bank of {self.city}", "currency": "USD",
            "masked_account_number": f"XXXXXX{r.below(10000):04d}", "priority": 0, "routing_number": routing_number(r),
        }]
        for job in switches:
            target = job.get("target")
            if not isinstance(target, dict):
                continue  # v1 carries where a switch sent pay in its target; none, nothing to show
            kind = str(target.get("type") or "checking")
            line = {
                "account_name": target.get("name") or kind.capitalize(), "account_type": kind,
                "allocation_type": "remainder", "amount": None, "percentage": None, "bank_name": None,
                "currency": "USD", "masked_account_number": "XXXXXX" + str(target.get("last_four", "")),
                "priority": 0, "routing_number": str(target.get("routing_number", "")),
            }
            params = job.get("params") if isinstance(job.get("params"), dict) else {}
            allocation = params.get("allocation") if isinstance(params.get("allocation"), dict) else {}
            split, value = allocation.get("type"), allocation.get("value")
            if params.get("action") != "partial_switch":  # a full switch, or a platform-matching one
                lines = [line]
            elif split == "amount":
                line["allocation_type"], line["amount"] = "amount", dollars_to_cents(value)
                lines.insert(0, line)
            elif split == "percentage":
                line["allocation_type"], line["percentage"] = "percentage", float(value or 0)
                lines.insert(0, line)
            else:  # the new account takes the remainder from the old one
                lines[-1] = line
        for i, line in enumerate(lines):
            line["priority"] = i + 1
        return lines

    # Shifts.

    def shifts(self, now: datetime, days: int, check=lambda: None) -> list[dict]:
        """The weekday shifts of the `days` days before now, oldest first,
        each a pure function of the account and the day. Pay is worked
        minutes times the hourly rate in integer cents, rounded half up."""
        out = []
        today = now.date()
        for back in range(days, 0, -1):
            check()
            day = today - timedelta(days=back)
            if day.weekday() >= 5:
                continue
            r = Draw(f"shift/{self.account_id}/{day.isoformat()}")
            if r.chance(10):
                continue  # a day off
            start = datetime.combine(day, time(13, 0), timezone.utc) + timedelta(minutes=r.below(120))
            end = start + timedelta(minutes=6 * 60 + r.below(180))
            if end > now:
                continue
            minutes = (end - start) // timedelta(minutes=1)
            pay = (minutes * self.rate + 30) // 60
            out.append({
                "id": stable_id("shift", self.account_id, day.isoformat()),
                "start_date": day.isoformat(),
                "end_date": end.date().isoformat(),
                "type": "shift",
                "timezone": "UTC",
                "timestamps": [{"from": rfc3339(start), "to": rfc3339(end)}],
                "earnings": [{"name": "Shift pay", "category": "hourly", "amount": pay,
                              "hours": round(minutes / 60, 2), "rate": self.rate}],
                "currency": "USD",
            })
        return out


def rfc3339(t: datetime) -> str:
    return t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def routing_number(r: Draw) -> str:
    """A valid ABA routing number: eight digits and their checksum."""
    d = [r.below(10) for _ in range(8)]
    d[0] = 1 + r.below(3)  # a Federal Reserve district prefix
    total = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5])
    d.append((10 - total % 10) % 10)
    return "".join(map(str, d))


def dollars_to_cents(value) -> int | None:
    """A switch's allocation value (dollars, as a JSON number read as a
    Decimal so no float ever rounds it) in integer cents."""
    if value is None:
        return None
    try:
        return int((Decimal(str(value)) * 100).to_integral_value())
    except (InvalidOperation, ValueError):
        return None
