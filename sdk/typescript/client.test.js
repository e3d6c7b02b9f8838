import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { API_VERSION, createClient, PaylineError } from './index.js';

// scripted answers the requests in order and records them.
async function scripted(t, answers) {
  const seen = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const [status, headers, payload] = answers.shift() ?? [500, {}, '{}'];
      res.writeHead(status, { 'content-type': 'application/json', 'x-service-request-id': 'req-1', ...headers });
      res.end(payload);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const client = createClient(`http://127.0.0.1:${server.address().port}/v1`, 'sk_test', { maxRetries: 3, maxWait: 2 });
  return { client, seen };
}

const error = (status, type, code = '', headers = {}) =>
  [status, headers, JSON.stringify({ error: { type, code, message: 'told', status_code: status } })];

test('headers and paths', async (t) => {
  const { client, seen } = await scripted(t, [[200, {}, '{"data": {"id": "p"}}']]);
  const { data } = await client.GET('/platforms/{platform_id}', { params: { path: { platform_id: 'p 1' } } });
  assert.equal(data.data.id, 'p');
  assert.equal(seen[0].url, '/v1/platforms/p%201');
  assert.equal(seen[0].headers['x-api-secret'], 'sk_test');
  assert.equal(seen[0].headers['service-version'], API_VERSION);
});

test('a 429 is retried with the same body, whatever the method', async (t) => {
  const { client, seen } = await scripted(t, [error(429, 'RATE_LIMIT_EXCEEDED', '', { 'retry-after': '0' }), [200, {}, '{"data": {}}']]);
  await client.POST('/link_tokens', { body: { org_name: 'Acme' } });
  assert.equal(seen.length, 2);
  assert.equal(seen[0].body, seen[1].body);
  assert.match(seen[0].body, /Acme/);
});

test('a POST after a 503 is not retried; the error is typed', async (t) => {
  const { client, seen } = await scripted(t, [error(503, 'SERVICE_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE')]);
  await assert.rejects(client.POST('/link_tokens', { body: { org_name: 'Acme' } }),
    (e) => e instanceof PaylineError && e.status === 503 && e.code === 'UPSTREAM_UNAVAILABLE' && e.requestId === 'req-1' && e.detail === 'told');
  assert.equal(seen.length, 1);
});

test('a GET after a 503 is retried up to the limit', async (t) => {
  const { client, seen } = await scripted(t, Array(4).fill(error(503, 'SERVICE_UNAVAILABLE')));
  await assert.rejects(client.GET('/platforms/{platform_id}', { params: { path: { platform_id: 'p' } } }), PaylineError);
  assert.equal(seen.length, 4);
});

test('a Retry-After beyond maxWait is thrown, not waited out', async (t) => {
  const { client, seen } = await scripted(t, [error(429, 'RATE_LIMIT_EXCEEDED', '', { 'retry-after': '120' })]);
  await assert.rejects(client.GET('/platforms/{platform_id}', { params: { path: { platform_id: 'p' } } }),
    (e) => e instanceof PaylineError && e.retryAfter === 120);
  assert.equal(seen.length, 1);
});

test('an error that is not the API JSON is still a PaylineError', async (t) => {
  const { client } = await scripted(t, [[400, { 'content-type': 'text/plain' }, 'from a proxy']]);
  await assert.rejects(client.GET('/platforms/{platform_id}', { params: { path: { platform_id: 'p' } } }),
    (e) => e instanceof PaylineError && e.status === 400 && e.detail === 'from a proxy');
});

test('paginate follows next_cursor and fetches no page the loop does not reach', async (t) => {
  const { client, seen } = await scripted(t, [
    [200, {}, '{"data": [1, 2], "meta": {"next_cursor": "c1"}}'],
    [200, {}, '{"data": [3], "meta": {"next_cursor": null}}'],
  ]);
  const got = [];
  for await (const x of client.paginate('/employers', { params: { query: { limit: 2 } } })) got.push(x);
  assert.deepEqual(got, [1, 2, 3]);
  assert.match(seen[1].url, /cursor=c1/);
  assert.match(seen[1].url, /limit=2/);

  const again = await scripted(t, [[200, {}, '{"data": [1, 2], "meta": {"next_cursor": "c1"}}']]);
  for await (const x of again.client.paginate('/employers')) { void x; break; }
  assert.equal(again.seen.length, 1);
});
