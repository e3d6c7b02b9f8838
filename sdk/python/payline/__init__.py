"""Payline's Python library: the API client (payline.Client) and webhook verification."""

from ._api import API_VERSION
from .client import Client, PaylineError
from .webhook import WebhookError, sign_webhook, verify_webhook

__all__ = ["API_VERSION", "Client", "PaylineError", "WebhookError", "sign_webhook", "verify_webhook"]
