#!/usr/bin/env python3
"""A connector that speaks the protocol well and answers wrong data: what an
integrator writing from the protocol document alone once wrote. Tests run it
to prove the conformance kit and Payline's ingest catch it.

    PAYLINE_CONNECTOR_SECRET=... python3 testdata/wrong_shapes.py [--addr 127.0.0.1:8092]

It is the example connector (connector.py: signatures, deadlines, logins,
jobs, paging; the same test users) for two made-up payroll platforms whose
products are wrong:

- on both, identity is {name, date_of_birth} (no full_name, emails,
  address, ...), and each paystub has only an id, a pay date and four
  amounts (no currency, pay period, earnings, taxes, deductions, ...);
- Crooked Ledger Payroll, the second, also answers income without its
  currency, and a direct deposit allocation whose routing number has eight
  digits.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep the example's directory clean
# The example's modules, beside this directory.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from datetime import timedelta, timezone  # noqa: E402

import connector  # noqa: E402
import platforms  # noqa: E402
from platforms import Platform, invalid  # noqa: E402
from synthetic import Person, stable_id  # noqa: E402

WRONGWAY = Platform(
    id="530a2dff-fc08-5bca-93a5-6a33c66801e4", name="Wrongway Payroll", type="payroll",
    jobs=("identity", "paystubs"), products=("identity", "paystubs"))

CROOKED = Platform(
    id="c0a132d5-dd8f-5a40-83d3-4d19308226b9", name="Crooked Ledger Payroll", type="payroll",
    jobs=("identity", "paystubs", "income", "direct_deposit_allocations"),
    products=("identity", "paystubs", "income", "direct_deposit_allocations"))

# How many paystubs each account has: two pages' worth would hide nothing
# more, one page keeps the kit's report short.
PAYSTUBS = 6


def identity(person: Person) -> dict:
    """A name and a birth date, under the wrong key and nothing else."""
    full = person.identity()
    return {"name": full["full_name"], "date_of_birth": full["date_of_birth"]}


def paystubs(account: dict, now) -> list[dict]:
    """Every other Friday back from now: an id, a pay date and four amounts."""
    out = []
    pay = now.astimezone(timezone.utc).date()
    pay -= timedelta(days=(pay.weekday() - 4) % 7)  # the last Friday
    for i in range(PAYSTUBS):
        day = pay - timedelta(days=14 * (PAYSTUBS - 1 - i))
        gross, net = 250_000, 187_512
        out.append({"id": stable_id("wrong-paystub", account["id"], day.isoformat()), "pay_date": day.isoformat(),
                    "gross_pay_amount": gross, "net_pay_amount": net,
                    "gross_pay_ytd": gross * (i + 1), "net_pay_ytd": net * (i + 1)})
    return out


def income(person: Person) -> dict:
    """The right income, but for its currency."""
    out = person.income()
    del out["currency"]
    return out


def allocations(person: Person, switches: list[dict]) -> list[dict]:
    """The right allocations, but for a routing number one digit short."""
    out = person.allocations(switches)
    out[-1]["routing_number"] = out[-1]["routing_number"][:8]
    return out


def fetch(product: str, account: dict, switches: list[dict], since, now, deadline):
    conn = platforms.parse_connection(str(account.get("connection", "")))
    if conn is None:
        raise invalid("INVALID_FIELDS", "account.connection: not one this connector's login gave")
    platform, _ = conn
    if product not in platform.products:
        raise invalid("INVALID_FIELDS", f"product: {platform.name} has no product {product!r}")
    person = Person.of(account)
    if product == "identity":
        return identity(person)
    if product == "paystubs":
        return paystubs(account, now)
    if product == "income":
        return income(person)
    return allocations(person, switches)


def capabilities() -> dict:
    return {"protocol_version": "1", "name": "wrong-shapes-python",
            "platforms": [p.capability() for p in platforms.PLATFORMS.values()]}


# The example's protocol over these platforms and products.
platforms.PLATFORMS = {p.id: p for p in (WRONGWAY, CROOKED)}
platforms.fetch = fetch
platforms.capabilities = capabilities

if __name__ == "__main__":
    sys.exit(connector.main())
