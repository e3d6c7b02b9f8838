// Verify Payline's webhook deliveries in one call, and sign deliveries for
// your own tests. Web Crypto only, so it runs in Node 20+, Deno, Bun,
// browsers and edge runtimes.
//
// X-Service-Signature is "v2=" and the hex HMAC-SHA256, keyed with the API
// secret of the key that created the webhook, of "v2:<X-Timestamp>:<raw
// body>"; a timestamp more than five minutes from the receiver's clock is
// refused as stale or replayed.

export const HEADER_SIGNATURE = 'x-service-signature';
export const HEADER_TIMESTAMP = 'x-timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A delivery that does not verify; reason is "missing", "stale" or "signature". */
export class WebhookError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = 'WebhookError';
    this.reason = reason;
  }
}

const encoder = new TextEncoder();

function bytesOf(body) {
  return typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);
}

function header(headers, name) {
  if (typeof headers.get === 'function') return headers.get(name) ?? '';
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return '';
}

/** The X-Service-Signature of body sent at timestamp (Unix seconds). */
export async function signature(secret, timestamp, body) {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`v2:${timestamp}:`);
  const raw = bytesOf(body);
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix);
  message.set(raw, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  return 'v2=' + Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

// equal compares two strings in time that does not depend on where they differ.
function equal(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Throws WebhookError unless the raw body (before any parsing) carries a
 * valid signature. headers: a Headers object or a plain object with any
 * capitalisation of the names.
 */
export async function verifyWebhook(secret, headers, body, { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now() / 1000 } = {}) {
  const sig = header(headers, HEADER_SIGNATURE);
  const stamp = header(headers, HEADER_TIMESTAMP);
  if (!sig || !stamp) throw new WebhookError('missing', 'the delivery has no signature or timestamp header');
  if (!/^\d+$/.test(stamp)) throw new WebhookError('missing', `x-timestamp is ${JSON.stringify(stamp)}, not Unix seconds`);
  const ts = Number(stamp);
  if (Math.abs(now - ts) > toleranceSeconds) {
    throw new WebhookError('stale', "the delivery's timestamp is outside the tolerance (stale or replayed)");
  }
  if (!equal(await signature(secret, ts, body), sig)) {
    throw new WebhookError('signature', 'the signature does not match the body and timestamp under this secret');
  }
}

/** The headers Payline would send with body at time at (Unix seconds; now by default), for tests. */
export async function signWebhook(secret, body, at = Date.now() / 1000) {
  const ts = Math.floor(at);
  return { [HEADER_SIGNATURE]: await signature(secret, ts, body), [HEADER_TIMESTAMP]: String(ts), 'content-type': 'application/json' };
}
