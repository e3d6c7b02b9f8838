// A dashboard's view of a Link session: subscribe to jobUpdated with
// graphql-ws on one Payline instance (SUB_URL), complete a sandbox Link
// session through REST on another (API_URL, which runs the jobs), and check
// that every job of the session arrives with its final outcome. How long
// each took after its commit is reported (the bar is BOUND_MS), not
// required: a test on a busy machine waits for what must happen.
//
// Environment: API_URL, SUB_URL (http://host:port), SECRET, PLATFORM_ID.
// Prints one JSON line of results; exits 1 on any failure.
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const { API_URL, SUB_URL, SECRET, PLATFORM_ID } = process.env;
for (const [k, v] of Object.entries({ API_URL, SUB_URL, SECRET, PLATFORM_ID })) {
  if (!v) fail(`${k} is not set`);
}
const VERSION = "2025-07-08";
const BOUND_MS = 1000;
const JOBS = ["direct_deposit_switch", "employment", "income", "identity", "paystubs"];
const endUserId = `node-ws-${process.pid}-${Date.now()}`;

function fail(message) {
  console.log(JSON.stringify({ ok: false, error: message }));
  process.exit(1);
}

async function rest(method, path, body) {
  const res = await fetch(API_URL + path, {
    method,
    headers: { "x-api-secret": SECRET, "Service-Version": VERSION, "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

// linkSession creates a token for the end user and logs in with the
// sandbox's good credentials; the jobs then run on API_URL's workers.
async function linkSession() {
  const token = await rest("POST", "/v1/link_tokens", {
    org_name: "Acme Bank",
    end_user_id: endUserId,
    required_jobs: JOBS,
    allocation: { targets: [{ type: "checking", account_number: "123456789", routing_number: "011000015" }] },
  });
  await rest("POST", "/v1/sandbox/link_sessions", {
    token: token.token, platform_id: PLATFORM_ID, username: "user_good", password: "pass_good",
  });
  return token.id;
}

const client = createClient({
  url: SUB_URL.replace(/^http/, "ws") + "/graphql",
  webSocketImpl: WebSocket,
  connectionParams: { "x-api-secret": SECRET },
  retryAttempts: 0,
});

// Every update for the end user, stamped with when it arrived.
const received = [];
let wake = () => {};
const unsubscribe = client.subscribe(
  {
    query: `subscription ($endUserId: ID) {
      jobUpdated(endUserId: $endUserId) { id name outcome timestamp linkToken { id } }
    }`,
    variables: { endUserId },
  },
  {
    next: (msg) => {
      if (msg.errors) fail(`subscription error: ${JSON.stringify(msg.errors)}`);
      received.push({ at: Date.now(), job: msg.data.jobUpdated });
      wake();
    },
    error: (err) => fail(`subscription failed: ${err?.message ?? JSON.stringify(err)}`),
    complete: () => {},
  },
);

// until waits for cond() to hold, woken by each update, up to ms.
function until(cond, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { wake = () => {}; resolve(cond()); }, ms);
    wake = () => { if (cond()) { clearTimeout(timer); wake = () => {}; resolve(true); } };
    wake();
  });
}

// The server registers a subscription after it reads it and sends no
// acknowledgement, so warm up: run sessions until one of their updates
// arrives. From then on the subscription is live and nothing can be missed.
let warm = false;
for (let attempt = 0; attempt < 5 && !warm; attempt++) {
  const tokenId = await linkSession();
  warm = await until(() => received.some((r) => r.job.linkToken?.id === tokenId), 10000);
}
if (!warm) fail("no update arrived for any of 5 warm-up sessions");

// The measured session: each of its jobs must arrive with its final
// outcome; the time since the commit that set it is reported.
const tokenId = await linkSession();
const jobs = await (async () => {
  const deadline = Date.now() + 20000;
  for (;;) {
    const list = await rest("GET", `/v1/jobs?link_token_id=${tokenId}&limit=100`);
    if (list.length === JOBS.length && list.every((j) => j.outcome)) return list;
    if (Date.now() > deadline) fail(`the session's jobs did not all finish: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const final = (job) => received.find((r) => r.job.id === job.id && r.job.outcome === job.outcome);
await until(() => jobs.every(final), 20000);

const results = jobs.map((job) => {
  const r = final(job);
  if (!r) return { id: job.id, name: job.name, outcome: job.outcome, delivered: false };
  return { id: job.id, name: job.name, outcome: job.outcome, delivered: true, latency_ms: r.at - Date.parse(r.job.timestamp) };
});
unsubscribe();
await client.dispose();
const missing = results.filter((r) => !r.delivered);
const max = Math.max(...results.map((r) => r.latency_ms ?? Infinity));
const overBound = results.filter((r) => r.delivered && r.latency_ms > BOUND_MS).map((r) => r.name);
console.log(JSON.stringify({ ok: missing.length === 0, bound_ms: BOUND_MS, max_latency_ms: max, over_bound: overBound, jobs: results }));
process.exit(missing.length === 0 ? 0 : 1);
