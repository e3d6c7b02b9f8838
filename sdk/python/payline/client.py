"""Payline's API client: a method for every operation, standard library only.

    from payline import Client
    client = Client("http://127.0.0.1:8080", secret)
    token = client.create_link_token({"org_name": "Acme Bank", ...})["data"]
    for stub in client.paginate(client.list_paystubs, account_id, limit=25):
        ...

The methods and their TypedDicts are generated into payline._api from docs/openapi.yaml. Answers
are the JSON the API sends, as dicts; decimal amounts (dollars) arrive as Decimal and may be sent as
Decimal, so no amount passes through a float. An answer of 400 or more raises PaylineError.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from decimal import Decimal
from email.utils import parsedate_to_datetime
from typing import Any

from ._api import API_VERSION, Operations

__all__ = ["Client", "PaylineError", "API_VERSION"]

_IDEMPOTENT = {"GET", "HEAD", "PUT", "DELETE"}


class PaylineError(Exception):
    """An answer of 400 or more: the API's error body and the request id to quote to support."""

    def __init__(self, status_code: int, type: str, code: str, message: str,
                 request_id: str, retry_after: float | None) -> None:
        text = f"payline: {status_code} {type}" + (f"/{code}" if code else "")
        if message:
            text += f": {message}"
        if request_id:
            text += f" (request {request_id})"
        super().__init__(text)
        self.status_code = status_code
        self.type = type
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after


class Client(Operations):
    """Calls one Payline server as one API key (or one admin token).

    server_url is scheme, host and port (a trailing /v1 is accepted). version pins the
    Service-Version header (API_VERSION, the version this library was generated from, by
    default). A 429 is retried after its Retry-After whatever the method (the server refused it
    before doing anything); a lost connection, 502, 503 or 504 only for GET, HEAD, PUT and DELETE,
    because a POST or PATCH may have been done and the API takes no idempotency key. A
    Retry-After beyond max_wait seconds is raised rather than waited out.
    """

    def __init__(self, server_url: str, secret: str = "", *, version: str = API_VERSION,
                 admin_token: str = "", timeout: float = 60.0, max_retries: int = 4,
                 max_wait: float = 30.0) -> None:
        root = server_url.rstrip("/")
        root = root.removesuffix("/v1")
        if not root.startswith(("http://", "https://")):
            raise ValueError(f"payline: server URL {server_url!r} needs http:// or https://")
        self._root = root
        self._secret = secret
        self._version = version
        self._admin_token = admin_token
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_wait = max_wait

    def paginate(self, list_method: Callable[..., Any], *args: Any, **kwargs: Any) -> Iterator[Any]:
        """Yield the items of every page of a list method, following meta.next_cursor.

        A page is fetched only when the loop reaches it:
        for stub in client.paginate(client.list_paystubs, account_id, limit=25): ...
        """
        kwargs.pop("cursor", None)
        cursor = None
        while True:
            page = list_method(*args, cursor=cursor, **kwargs)
            yield from page["data"]
            cursor = page["meta"].get("next_cursor")
            if not cursor:
                return

    def _call(self, method: str, path: str, path_params: dict[str, Any], query: dict[str, Any],
              body: Any, result: str, base: str) -> Any:
        for name, value in path_params.items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        url = self._root + ("/v1" if base == "api" else "") + path
        pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None and not isinstance(v, list)]
        pairs += [(k, _query_value(item)) for k, v in query.items() if isinstance(v, list) for item in v]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Service-Version": self._version, "User-Agent": f"payline-python/{API_VERSION}",
                   "Accept": "application/json"}
        if self._secret:
            headers["x-api-secret"] = self._secret
        if self._admin_token:
            headers["Authorization"] = "Bearer " + self._admin_token
        data = None
        if body is not None:
            data = _dumps(body).encode()
            headers["Content-Type"] = "application/json"

        attempt = 0
        while True:
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self._timeout) as response:
                    raw = response.read()
                    if result == "json":
                        return json.loads(raw, parse_float=Decimal)
                    if result == "bytes":
                        return raw
                    return None
            except urllib.error.HTTPError as e:
                error = _error(e)
                wait = self._retry_after(method, error, attempt)
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                error = e
                wait = self._retry_after(method, None, attempt)
            if wait is None:
                raise error
            time.sleep(wait)
            attempt += 1

    def _retry_after(self, method: str, error: PaylineError | None, attempt: int) -> float | None:
        if attempt >= self._max_retries:
            return None
        if error is not None and error.status_code != 429 and not (
                method in _IDEMPOTENT and error.status_code in (502, 503, 504)):
            return None
        if error is None and method not in _IDEMPOTENT:
            return None
        wait = 0.1 * (2 ** attempt) + random.uniform(0, 0.05)
        if error is not None and error.retry_after:
            wait = error.retry_after
        return wait if wait <= self._max_wait else None


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _error(e: urllib.error.HTTPError) -> PaylineError:
    raw = e.read(64 << 10)
    retry_after = None
    if value := e.headers.get("Retry-After"):
        try:
            retry_after = float(int(value))
        except ValueError:
            try:
                retry_after = max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
            except (TypeError, ValueError):
                pass
    request_id = e.headers.get("x-service-request-id", "")
    try:
        err = json.loads(raw)["error"]
        return PaylineError(e.code, err["type"], err.get("code") or "", err.get("message", ""),
                            request_id, retry_after)
    except (ValueError, KeyError, TypeError):
        return PaylineError(e.code, e.reason or "", "", raw[:200].decode(errors="replace").strip(),
                            request_id, retry_after)


def _dumps(body: Any) -> str:
    """JSON with Decimal amounts written as their literal numbers (json.dumps refuses Decimal)."""
    marks: dict[str, str] = {}

    def mark(v: Any) -> Any:
        if isinstance(v, Decimal):
            if not v.is_finite():
                raise ValueError(f"payline: {v} is not an amount")
            key = f"\x00{len(marks)}\x00"
            marks[key] = format(v, "f")
            return key
        if isinstance(v, dict):
            return {k: mark(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [mark(x) for x in v]
        return v

    text = json.dumps(mark(body), separators=(",", ":"))
    for key, literal in marks.items():
        text = text.replace(json.dumps(key), literal)
    return text
