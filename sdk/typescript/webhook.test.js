import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhook, verifyWebhook, WebhookError } from './webhook.js';

const SECRET = 'sk_sandbox_0123456789abcdef';
const BODY = '{"event":"account.added","event_id":"e1","payload":{"account_id":"a"}}';
const NOW = 1795000000;

test('a signed delivery verifies, as a string or bytes, with Headers or an object', async () => {
  const h = await signWebhook(SECRET, BODY, NOW);
  await verifyWebhook(SECRET, h, BODY, { now: NOW + 60 });
  await verifyWebhook(SECRET, new Headers(h), new TextEncoder().encode(BODY), { now: NOW });
});

test('refusals say why', async () => {
  const h = await signWebhook(SECRET, BODY, NOW);
  const cases = [
    ['signature', SECRET, h, BODY + ' ', NOW],
    ['signature', 'sk_other', h, BODY, NOW],
    ['stale', SECRET, h, BODY, NOW + 301],
    ['stale', SECRET, h, BODY, NOW - 301],
    ['missing', SECRET, { 'x-timestamp': String(NOW) }, BODY, NOW],
  ];
  for (const [reason, secret, headers, body, now] of cases) {
    await assert.rejects(verifyWebhook(secret, headers, body, { now }), (e) => e instanceof WebhookError && e.reason === reason);
  }
});
