"""Verify Payline's webhook deliveries in one call, and sign deliveries for your own tests.

Standard library only. X-Service-Signature is "v2=" and the hex HMAC-SHA256, keyed with the API
secret of the key that created the webhook, of "v2:<X-Timestamp>:<raw body>"; a timestamp more
than five minutes from the receiver's clock is refused as stale or replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping

HEADER_SIGNATURE = "x-service-signature"
HEADER_TIMESTAMP = "x-timestamp"
DEFAULT_TOLERANCE = 300  # seconds


class WebhookError(ValueError):
    """A delivery that does not verify; reason is "missing", "stale" or "signature"."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The X-Service-Signature of body sent at timestamp (Unix seconds)."""
    mac = hmac.new(secret.encode(), f"v2:{timestamp}:".encode() + body, hashlib.sha256)
    return "v2=" + mac.hexdigest()


def verify_webhook(secret: str, headers: Mapping[str, str], body: bytes,
                   tolerance: int = DEFAULT_TOLERANCE, now: float | None = None) -> None:
    """Raise WebhookError unless the raw body (before any parsing) carries a valid signature.

    headers may use any capitalisation of the names.
    """
    lower = {k.lower(): v for k, v in headers.items()}
    sig, stamp = lower.get(HEADER_SIGNATURE, ""), lower.get(HEADER_TIMESTAMP, "")
    if not sig or not stamp:
        raise WebhookError("missing", "the delivery has no signature or timestamp header")
    try:
        ts = int(stamp)
    except ValueError:
        raise WebhookError("missing", f"x-timestamp is {stamp!r}, not Unix seconds") from None
    current = time.time() if now is None else now
    if abs(current - ts) > tolerance:
        raise WebhookError("stale", "the delivery's timestamp is outside the tolerance (stale or replayed)")
    if not hmac.compare_digest(signature(secret, ts, body), sig):
        raise WebhookError("signature", "the signature does not match the body and timestamp under this secret")


def sign_webhook(secret: str, body: bytes, at: float | None = None) -> dict[str, str]:
    """The headers Payline would send with body at time at (now by default), for tests."""
    ts = int(time.time() if at is None else at)
    return {HEADER_SIGNATURE: signature(secret, ts, body), HEADER_TIMESTAMP: str(ts),
            "content-type": "application/json"}
