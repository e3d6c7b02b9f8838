// The README's walkthrough with @payline/sdk, against a running sandbox
// server: go test ./sdk (TestLibraryWalkthroughs) starts one and runs this
// with PAYLINE_URL, PAYLINE_SECRET and a certificate the server trusts for
// webhooks (PAYLINE_TLS_CERT, PAYLINE_TLS_KEY).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createClient, PaylineError, verifyWebhook } from './index.js';

const env = process.env;
const ready = ['PAYLINE_URL', 'PAYLINE_SECRET', 'PAYLINE_TLS_CERT', 'PAYLINE_TLS_KEY'].every((k) => env[k]);

test('the walkthrough', { skip: !ready && 'needs a sandbox server: go test ./sdk -run TestLibraryWalkthroughs runs this' }, async (t) => {
  const secret = env.PAYLINE_SECRET;
  const client = createClient(env.PAYLINE_URL, secret);

  const { data: found } = await client.GET('/search', { params: { query: { q: 'summit payroll', response_types: ['platform'] } } });
  const platform = found.data[0];

  // 1. A link token for a switch and the data products.
  const jobs = ['direct_deposit_switch', 'identity', 'employment', 'income', 'paystubs', 'tax_forms'];
  const { data: { data: token } } = await client.POST('/link_tokens', {
    body: {
      org_name: 'Acme Bank', end_user_id: 'typescript-user', required_jobs: jobs,
      allocation: { targets: [{ name: 'Main', type: 'checking', account_number: '123456789', routing_number: '011000015' }] },
    },
  });

  // 2. The sandbox helper completes Link as the modal would.
  const { data: session } = await client.POST('/sandbox/link_sessions', {
    body: {
      token: token.token, platform_id: platform.id, username: 'user_good', password: 'pass_good',
      allocation: { action: 'partial_switch', type: 'amount', value: 150.0 },
    },
  });
  const accountId = session.data.account_id;

  // 3. Wait for the six jobs to finish.
  const deadline = Date.now() + 60_000;
  let done = [];
  for (;;) {
    done = [];
    for await (const job of client.paginate('/jobs', { params: { query: { link_token_id: token.id } } })) {
      if (job.outcome !== 'pending') done.push(job);
    }
    if (done.length === jobs.length) break;
    assert.ok(Date.now() < deadline, `the jobs did not finish: ${done.length} of ${jobs.length}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.deepEqual([...new Set(done.map((j) => j.outcome))], ['success']);

  // 4. Every paystub, five to a page; each adds up.
  const stubs = [];
  for await (const stub of client.paginate('/accounts/{account_id}/paystubs', { params: { path: { account_id: accountId }, query: { limit: 5 } } })) {
    stubs.push(stub);
    assert.equal(stub.earnings.reduce((s, e) => s + e.amount, 0), stub.gross_pay_amount, stub.pay_date);
  }
  assert.ok(stubs.length > 5, 'paginate did not go past the first page of 5');

  // 5. A webhook, received over TLS and verified.
  let delivered;
  const verified = new Promise((resolve) => { delivered = resolve; });
  const receiver = createServer({ cert: readFileSync(env.PAYLINE_TLS_CERT), key: readFileSync(env.PAYLINE_TLS_KEY) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      verifyWebhook(secret, req.headers, new Uint8Array(Buffer.concat(chunks))).then(() => delivered(null), (e) => delivered(e));
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => receiver.close());
  const { data: hook } = await client.POST('/webhooks', {
    body: { url: `https://127.0.0.1:${receiver.address().port}/hooks`, enabled_events: ['account.added'], version: '2025-07-08' },
  });
  await client.POST('/sandbox/webhooks/{webhook_id}/test', { params: { path: { webhook_id: hook.data.id } } });
  assert.equal(await verified, null, 'the delivery did not verify');

  // 6. Errors are typed and carry the request id.
  await assert.rejects(client.GET('/accounts/{account_id}', { params: { path: { account_id: '00000000-0000-4000-8000-000000000000' } } }),
    (e) => e instanceof PaylineError && e.status === 404 && e.type !== '' && e.requestId !== '');
});
