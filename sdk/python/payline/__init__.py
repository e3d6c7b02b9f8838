"""Payline's Python library. Today: webhook verification (payline.webhook)."""

from .webhook import WebhookError, sign_webhook, verify_webhook

__all__ = ["WebhookError", "sign_webhook", "verify_webhook"]
