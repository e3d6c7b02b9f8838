"""The two made-up platforms this connector serves, and what their test
users do: login outcomes, platform matching, job outcomes and products.

Nothing here knows HTTP; connector.py turns these answers (and the Refusal
exceptions) into the protocol's responses.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from synthetic import Person


class Refusal(Exception):
    """A refusal in the protocol's error body: {"error": {type, code, message}}."""

    def __init__(self, status: int, type_: str, code: str, message: str):
        super().__init__(message)
        self.status, self.type, self.code, self.message = status, type_, code, message


def invalid(code: str, message: str) -> Refusal:
    return Refusal(400, "INVALID_REQUEST", code, message)


@dataclass(frozen=True)
class Platform:
    id: str
    name: str
    type: str
    jobs: tuple[str, ...]
    products: tuple[str, ...]
    # Switch splits it takes (amounts in cents); none: full switches only.
    splits: tuple[tuple[str, object], ...] = ()

    def capability(self) -> dict:
        # Both platforms ask user_mfa for a code and keep user_pending's jobs
        # pending, which the capabilities say so the kit tests them.
        return {"id": self.id, "name": self.name, "type": self.type, "jobs": list(self.jobs),
                "products": list(self.products), **dict(self.splits),
                "mfa_supported": True, "pending_supported": True}


ACME_PAYDESK = Platform(
    id="d1e95895-fd29-5290-bb0d-f2a2eb449db6", name="Acme Paydesk", type="payroll",
    jobs=("identity", "employment", "income", "paystubs", "direct_deposit_allocations", "direct_deposit_switch"),
    products=("identity", "employment", "income", "paystubs", "direct_deposit_allocations"),
    splits=(("amount_supported", True), ("fractional_amount_supported", True), ("min_amount_cents", 100),
            ("max_amount_cents", 500000), ("percentage_supported", True), ("min_percentage", 1), ("max_percentage", 100)))

TICKWORK_TIMECLOCK = Platform(
    id="02668225-6ac6-5312-8f8d-bec0dd20f439", name="Tickwork Timeclock", type="time_and_attendance",
    jobs=("identity", "employment", "shifts"),
    products=("identity", "employment", "shifts"))

PLATFORMS = {p.id: p for p in (ACME_PAYDESK, TICKWORK_TIMECLOCK)}

# Test credentials. Every user takes the password pass_good.
PASSWORD = "pass_good"
MFA_CODE = "123456"
USER_GOOD = "user_good"
USER_MFA = "user_mfa"
USER_LOCKED = "user_locked"
USER_ERROR = "user_error"
USER_PENDING = "user_pending"
USER_UNAVAILABLE = "user_unavailable"
USER_SLOW = "user_slow"

# Scenarios kept in the connection state login answers.
GOOD, ERROR, PENDING = "good", "error", "pending"

# Codes a failed job reports (error_type PLATFORM_ERROR).
CODE_JOB_ERROR = "EXAMPLE_PLATFORM_JOB_ERROR"
CODE_UNKNOWN_CONNECTION = "UNKNOWN_CONNECTION"
CODE_UNSUPPORTED_JOB = "UNSUPPORTED_JOBS"

NO_MATCH_LAST_FOUR = "0000"

# How far back the shifts product reads: 26 weeks, over 100 shifts, so it
# is paged too.
SHIFT_DAYS = 182


class Settings:
    """What the command line changes."""

    pending_seconds: float = 120.0  # how long user_pending's jobs stay pending
    pending_poll: float = 30.0  # the most a pending answer asks Payline to wait
    slow_seconds: float = 30.0  # how long user_slow's login takes (cut short by the deadline)
    any_platform: bool = False  # serve platform ids not listed, by their type


settings = Settings()


def platform_for(pid: str, ptype: str = "") -> Platform:
    """The platform a request names; with --any-platform, a platform this
    connector does not list is served as the listed one of its type."""
    p = PLATFORMS.get(pid)
    if p is not None:
        return p
    if settings.any_platform:
        for p in PLATFORMS.values():
            if p.type == ptype:
                return p
    served = ", ".join(f"{p.id} ({p.name})" for p in PLATFORMS.values())
    raise invalid("INVALID_FIELDS", f"platform {pid!r}: this connector serves only {served}")


def connection_of(platform: Platform, scenario: str) -> str:
    # The state Payline keeps (sealed) on the account and sends back with
    # every run and fetch: which platform and which scenario. It never holds
    # the credentials.
    return f"v1:{platform.id}:{scenario}"


def parse_connection(conn: str) -> tuple[Platform, str] | None:
    parts = conn.split(":")
    if len(parts) != 3 or parts[0] != "v1" or parts[1] not in PLATFORMS or parts[2] not in (GOOD, ERROR, PENDING):
        return None
    return PLATFORMS[parts[1]], parts[2]


def login(platform: Platform, username: str, password: str, mfa_code: str, deadline) -> dict:
    """The login's answer ({"connection"} or {"mfa_required"}), or a Refusal."""
    wrong = Refusal(422, "USER_ACTION_REQUIRED", "INVALID_CREDENTIALS",
                    f"the username or password is incorrect; {platform.name}'s test user is user_good / pass_good")
    if password != PASSWORD:
        raise wrong
    if username == USER_GOOD:
        return {"connection": connection_of(platform, GOOD)}
    if username == USER_ERROR:
        return {"connection": connection_of(platform, ERROR)}
    if username == USER_PENDING:
        return {"connection": connection_of(platform, PENDING)}
    if username == USER_LOCKED:
        raise Refusal(422, "USER_ACTION_REQUIRED", "ACCOUNT_LOCKED",
                      f"this {platform.name} account is locked; the user must unlock it with their employer")
    if username == USER_UNAVAILABLE:
        raise Refusal(503, "PLATFORM_ERROR", "PLATFORM_UNAVAILABLE",
                      f"{platform.name} is down for maintenance; try again later")
    if username == USER_SLOW:
        # A platform that takes too long: the work stops at the request's
        # deadline, and the answer says so.
        deadline.sleep(settings.slow_seconds)
        return {"connection": connection_of(platform, GOOD)}
    if username == USER_MFA:
        if not mfa_code:
            return {"mfa_required": {"prompt": f"Enter the 6-digit code {platform.name} sent to your phone "
                                               f"(test code: {MFA_CODE})"}}
        if mfa_code == MFA_CODE:
            return {"connection": connection_of(platform, GOOD)}
        raise Refusal(422, "USER_ACTION_REQUIRED", "INVALID_MFA_CODE",
                      f"the code is incorrect; the test code is {MFA_CODE}")
    raise wrong


def last_four(matching: dict) -> str:
    ssn = str(matching.get("social_security_number") or "").replace("-", "")
    if len(ssn) == 9:
        return ssn[5:]
    return str(matching.get("social_security_last_four") or "")


def match(matching: dict, candidates: list[dict]) -> list[str]:
    """The candidates (among the platforms served) that hold the user: one or
    two, chosen by a hash of the SSN's last four and the date of birth so the
    same person always matches the same platforms; an SSN ending 0000 matches
    none, so Payline's fallback to search can be tried."""
    four = last_four(matching)
    if four == NO_MATCH_LAST_FOUR:
        return []
    served = []
    for c in candidates:
        pid = str(c.get("id", ""))
        if pid in PLATFORMS or (settings.any_platform and c.get("type") in ("payroll", "time_and_attendance")):
            served.append(pid)
    if not served:
        return []
    digest = hashlib.sha256(f"{four}|{matching.get('date_of_birth', '')}".encode()).digest()
    h = int.from_bytes(digest[:8], "big")
    first = h % len(served)
    out = [served[first]]
    if len(served) > 1 and (h >> 8) % 2 == 0:
        out.append(served[(first + 1) % len(served)])
    return out


def run(job: dict, account: dict, started_at: datetime, now: datetime) -> dict:
    """One attempt at a job: its outcome, computed from the request alone
    (the times are Payline's, so an attempt is a pure function of it)."""
    conn = parse_connection(str(account.get("connection", "")))
    if conn is None:
        return {"outcome": "error", "error_type": "PLATFORM_ERROR", "error_code": CODE_UNKNOWN_CONNECTION}
    platform, scenario = conn
    if job.get("name") not in platform.jobs:
        return {"outcome": "error", "error_type": "PLATFORM_ERROR", "error_code": CODE_UNSUPPORTED_JOB}
    if scenario == ERROR:
        return {"outcome": "error", "error_type": "PLATFORM_ERROR", "error_code": CODE_JOB_ERROR}
    if scenario == PENDING:
        done = started_at + timedelta(seconds=settings.pending_seconds)
        wait = (done - now).total_seconds()
        if wait > 0:
            return {"outcome": "pending", "retry_after_seconds": min(wait, settings.pending_poll)}
        return {"outcome": "success", "at": rfc3339(done)}
    return {"outcome": "success"}


def fetch(product: str, account: dict, switches: list[dict], since: datetime, now: datetime, deadline):
    """A whole product of a connected account (connector.py pages lists)."""
    conn = parse_connection(str(account.get("connection", "")))
    if conn is None:
        raise invalid("INVALID_FIELDS", "account.connection: not one this connector's login gave")
    platform, _ = conn
    if product not in platform.products:
        raise invalid("INVALID_FIELDS", f"product: {platform.name} has no product {product!r} "
                                        f"(it has {', '.join(platform.products)})")
    person = Person.of(account, shift_worker=platform.type == "time_and_attendance")
    check = deadline.check
    if product == "identity":
        return person.identity()
    if product == "employment":
        return person.employment()
    if product == "income":
        return person.income()
    if product == "paystubs":
        return person.paystubs(since.astimezone(timezone.utc).date(), now.astimezone(timezone.utc).date(), check)
    if product == "direct_deposit_allocations":
        return person.allocations(switches)
    if product == "shifts":
        return person.shifts(now.astimezone(timezone.utc), SHIFT_DAYS, check)
    raise invalid("INVALID_FIELDS", f"product: no product {product!r}")


def rfc3339(t: datetime) -> str:
    return t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def capabilities() -> dict:
    return {"protocol_version": "1", "name": "example-connector-python",
            "platforms": [p.capability() for p in PLATFORMS.values()]}

