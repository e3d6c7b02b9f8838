// The Payline dashboard: a member signs in with e-mail and password (the
// server sets an HttpOnly session cookie), then every page reads through
// /graphql, API keys go through the admin API, and the Jobs page follows
// the jobUpdated subscription over graphql-transport-ws. Data is only ever
// put in the page as text (h() below), never as HTML.

import { reviewPages } from '/dashboard/assets/review.js';
import { disputePages } from '/dashboard/assets/disputes.js';
import { outboxPages } from '/dashboard/assets/outbox.js';
import { orderPages } from '/dashboard/assets/orders.js';

const version = document.querySelector('meta[name="service-version"]').content;
const page = document.getElementById('page');
let session = null;
let stopLive = null; // ends the Jobs page's subscription when leaving it

// h builds an element: h('td', {className: 'r'}, 'text', child, ...).
// breakable lets a long identifier (direct_deposit_switch.added) wrap at
// its dots and underscores, never inside a word.
function breakable(text) {
  const span = h('span', {});
  for (const part of String(text).split(/(?<=[._])/)) span.append(part, document.createElement('wbr'));
  return span;
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v !== undefined && v !== null && v !== false) {
      if (k in el && typeof v !== 'string') el[k] = v; else el.setAttribute(k === 'className' ? 'class' : k, v);
    }
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

function flash(text) {
  const f = document.getElementById('flash');
  f.textContent = text;
  f.hidden = false;
  clearTimeout(flash.t);
  flash.t = setTimeout(() => { f.hidden = true; }, 4000);
}

function errorBox(err) {
  return h('p', { className: 'error', role: 'alert' }, err.message || String(err));
}

// navigation counts the pages route() has opened. A query answered after
// the member moved on to another page belongs to a page no longer shown:
// it never resolves, so a slow page cannot draw over the one that
// replaced it (mutations always resolve: their effect happened).
let navigation = 0;

// gql runs a query or mutation as the signed-in member. A GraphQL error
// throws with the server's message.
async function gql(query, variables) {
  const opened = navigation;
  const res = await fetch('/graphql', {
    method: 'POST', credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
    body: JSON.stringify({ query, variables: variables || {} }),
  });
  if (opened !== navigation && !/^\s*mutation\b/.test(query)) {
    window.dispatchEvent(new CustomEvent('payline-stale-answer'));
    return new Promise(() => {});
  }
  const body = await res.json().catch(() => ({}));
  if (res.status === 401) { showSignIn(); throw new Error('Your session ended; sign in again.'); }
  if (body.errors && body.errors.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  if (!res.ok) throw new Error('The server answered ' + res.status + '.');
  return body.data;
}

// mutate runs a mutation whose payload (data[name]) has userErrors: a
// refusal of the input throws with its messages, as a request's error does.
async function mutate(name, query, variables) {
  const payload = (await gql(query, variables))[name];
  if (payload.userErrors.length) throw new Error(payload.userErrors.map((e) => e.message).join('; '));
  return payload;
}

// admin calls the admin API with the session cookie.
async function admin(method, path, body) {
  const res = await fetch(path, {
    method, credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'Service-Version': version },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401) showSignIn();
    throw new Error((data.error && data.error.message) || ('The server answered ' + res.status + '.'));
  }
  return data;
}

// subscribe follows a GraphQL subscription over graphql-transport-ws;
// the websocket carries the session cookie. It returns a function that
// stops it.
function subscribe(query, variables, onData, onState) {
  let closed = false;
  let ws;
  const open = () => {
    ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql', 'graphql-transport-ws');
    ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
        onState(true);
      } else if (msg.type === 'next' && msg.payload && msg.payload.data) onData(msg.payload.data);
      else if (msg.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    };
    ws.onclose = () => { onState(false); if (!closed) setTimeout(open, 2000); };
  };
  open();
  return () => { closed = true; ws.close(); };
}

// Dates, one format on every page, whatever the browser's locale: a day
// ("Nov 28, 2026": pay dates, start dates, a W-2's upload) as it is
// written, a moment ("Nov 28, 2026, 2:05 PM") in the viewer's time zone
// with UTC on hover, and a chart's day ("Nov 28").
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const shortDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayText = (d) => (d ? dayFormat.format(new Date(d.slice(0, 10) + 'T00:00:00Z')) : '—');
const shortDayText = (d) => shortDayFormat.format(new Date(d.slice(0, 10) + 'T00:00:00Z'));
const fmtDate = (d) => (d ? h('time', { datetime: d.slice(0, 10) }, dayText(d)) : '—');
const fmtTime = (t) => (t ? h('time', { datetime: t, title: new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') },
  momentFormat.format(new Date(t))) : '—');
const pill = (s) => h('span', { className: 'pill ' + (s || '') }, s || '—');
// Reviewers and viewers change nothing but, for reviewers, a document's
// review (review.js).
const canWrite = () => session && ['administrator', 'developer'].includes(session.role);
const isAdmin = () => session && session.role === 'administrator';

// ---- Sign in and out -------------------------------------------------

function showSignIn() {
  if (stopLive) { stopLive(); stopLive = null; }
  session = null;
  document.getElementById('app').hidden = true;
  document.getElementById('signin').hidden = false;
  document.getElementById('email').focus();
}

document.getElementById('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const err = document.getElementById('signin-error');
  err.hidden = true;
  const button = document.getElementById('signin-submit');
  button.disabled = true;
  try {
    const send = () => fetch('/dashboard/session', {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: document.getElementById('email').value, password: document.getElementById('password').value }),
    });
    let res = await send();
    let body = await res.json().catch(() => ({}));
    // An e-mail whose sign-ins failed often lately (someone guessing it)
    // makes each address wait its turn: the server says at once how long,
    // and this page comes back then, once, rather than the member having
    // to press again.
    if (res.status === 429 && body.error && body.error.code === 'SIGN_IN_SLOWED') {
      const wait = Math.min(60, Math.max(1, parseInt(res.headers.get('Retry-After'), 10) || 1));
      err.textContent = `Sign-ins for this e-mail address failed often lately; signing you in in ${wait} s…`;
      err.hidden = false;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      err.hidden = true;
      res = await send();
      body = await res.json().catch(() => ({}));
    }
    if (!res.ok) throw new Error((body.error && body.error.message) || 'Sign-in failed.');
    document.getElementById('password').value = '';
    start(body.data);
  } catch (ex) {
    err.textContent = ex.message;
    err.hidden = false;
  } finally {
    button.disabled = false;
  }
});

document.getElementById('signout').addEventListener('click', async () => {
  await fetch('/dashboard/session', { method: 'DELETE', credentials: 'same-origin' });
  showSignIn();
});

function start(s) {
  session = s;
  document.getElementById('signin').hidden = true;
  document.getElementById('app').hidden = false;
  // The customer and the mode, each said once: the sandbox's own
  // customer is named after its mode, and "sandbox · sandbox" said nothing.
  document.getElementById('workspace').textContent = s.workspace_name === s.mode
    ? s.mode + ' mode' : s.workspace_name + ' · ' + s.mode + ' mode';
  document.getElementById('who').textContent = s.email + ' (' + s.role + ')';
  showDirectoryStatus();
  route();
}

// showDirectoryStatus says, on a relay, where the sync of the upstream's
// employer directory stands (what /readyz reports), so a member who
// finds an employer missing knows it is still arriving.
async function showDirectoryStatus() {
  const el = document.getElementById('directory-status');
  try {
    const res = await fetch('/readyz', { credentials: 'same-origin' });
    const body = await res.json();
    const status = body.checks && body.checks.upstream_directory;
    el.textContent = status ? 'Employer directory: ' + status : '';
    el.hidden = !status;
  } catch {
    el.hidden = true;
  }
}

// ---- Pages -------------------------------------------------------------

const review = reviewPages({ h, gql, mutate, admin, flash, fmtTime, page, errorBox, version, session: () => session });
const outbox = outboxPages({ h, gql, fmtTime, page, session: () => session });
const orders = orderPages({ h, gql, mutate, flash, fmtTime, page, errorBox, pill, canWrite, route: () => route() });
const disputes = disputePages({ h, gql, mutate, flash, fmtTime, page, errorBox, pill, canWrite, route: () => route() });

const pages = {
  'overview': overviewPage,
  'review': (id) => (id ? review.documentPage(id) : review.queuePage()),
  'end-users': endUsersPage,
  'jobs': jobsPage,
  'webhooks': webhooksPage,
  'keys': keysPage,
  'link': linkPage,
  'outbox': outbox.outboxPage,
  'orders': orders.ordersPage,
  'disputes': disputes.disputesPage,
};

async function route() {
  if (!session) return;
  navigation++;
  if (stopLive) { stopLive(); stopLive = null; }
  document.getElementById('flash').hidden = true;
  const [name, arg] = location.hash.replace(/^#\//, '').split('/');
  const render = pages[name] || overviewPage;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === (pages[name] ? name : 'overview')) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  page.replaceChildren(h('p', { className: 'muted' }, 'Loading…'));
  try {
    await render(arg ? decodeURIComponent(arg) : '');
  } catch (err) {
    page.replaceChildren(errorBox(err));
  }
}
window.addEventListener('hashchange', route);

async function overviewPage() {
  const { overview: o } = await gql(`{ overview(days: 7) { accountsConnected
    jobsByDay { date success pending error } deliveriesDelivered deliveriesRetrying deliveriesFailed deliverySuccessRate } }`);
  const jobs = o.jobsByDay.reduce((n, d) => n + d.success + d.pending + d.error, 0);
  const rate = o.deliverySuccessRate === null ? '—' : (o.deliverySuccessRate * 100).toFixed(1) + '%';
  // Deliveries to a `payline webhooks listen` session are deleted with it
  // when it stops, so a test event it received is no longer counted: say
  // so rather than "0 delivered" beside a dash.
  const deliveries = o.deliveriesDelivered + o.deliveriesRetrying + o.deliveriesFailed === 0
    ? 'None to a registered webhook in the last 7 days (a payline webhooks listen session\'s deliveries go when it stops).'
    : o.deliveriesDelivered + ' delivered · ' + o.deliveriesRetrying + ' retrying · ' + o.deliveriesFailed + ' failed';
  page.replaceChildren(
    h('h1', {}, 'Overview'),
    h('p', { className: 'muted' }, 'The last 7 days of your ' + session.mode + ' integration.'),
    h('div', { className: 'cards' },
      h('div', { className: 'card stat' }, h('div', { className: 'muted' }, 'Accounts connected'), h('div', { className: 'n', id: 'stat-accounts' }, o.accountsConnected)),
      h('div', { className: 'card stat' }, h('div', { className: 'muted' }, 'Jobs completed'), h('div', { className: 'n', id: 'stat-jobs' }, jobs)),
      h('div', { className: 'card stat' }, h('div', { className: 'muted' }, 'Webhook deliveries succeeded'), h('div', { className: 'n', id: 'stat-rate' }, rate),
        h('div', { className: 'muted small', id: 'stat-deliveries' }, deliveries))),
    h('h2', {}, 'Jobs by day'),
    jobs === 0
      ? h('p', { className: 'empty' }, 'No jobs in the last 7 days. Open ', h('a', { href: '#/link' }, 'Link preview'), ' to connect a sandbox account and run your first jobs.')
      : h('div', { className: 'card' }, jobsChart(o.jobsByDay),
        h('div', { className: 'legend' }, h('span', {}, h('i', { className: 'success' }), 'success'),
          h('span', {}, h('i', { className: 'pending' }), 'pending'), h('span', {}, h('i', { className: 'error' }), 'error'))),
  );
}

// jobsChart draws stacked bars, one per day, as SVG.
function jobsChart(days) {
  const ns = 'http://www.w3.org/2000/svg';
  const W = 700, H = 180, pad = 28, bw = (W - pad) / days.length;
  const top = Math.max(1, ...days.map((d) => d.success + d.pending + d.error));
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H + 22}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Jobs completed per day: ' + days.map((d) => `${dayText(d.date)} ${d.success} success, ${d.pending} pending, ${d.error} error`).join('; '));
  const el = (tag, a) => { const e = document.createElementNS(ns, tag); for (const k in a) e.setAttribute(k, a[k]); svg.append(e); return e; };
  el('line', { x1: pad, x2: W, y1: H, y2: H, stroke: '#d2d6dc' });
  el('text', { x: pad - 6, y: 12, 'text-anchor': 'end', 'font-size': 11, fill: '#6e737d' }).textContent = top;
  days.forEach((d, i) => {
    let y = H;
    for (const [n, color] of [[d.success, '#1c7c4a'], [d.pending, '#d08a1e'], [d.error, '#b3261e']]) {
      const hgt = (n / top) * (H - 10);
      if (n > 0) el('rect', { x: pad + i * bw + bw * 0.2, y: y - hgt, width: bw * 0.6, height: hgt, fill: color, rx: 2 });
      y -= hgt;
    }
    el('text', { x: pad + i * bw + bw / 2, y: H + 16, 'text-anchor': 'middle', 'font-size': 11, fill: '#6e737d' }).textContent = shortDayText(d.date);
  });
  return svg;
}

async function endUsersPage(id) {
  const search = h('input', { id: 'end-user-id', placeholder: 'end_user_id', value: id || '', autocomplete: 'off', 'aria-label': 'End user id' });
  const form = h('form', { className: 'inline', onsubmit: (e) => { e.preventDefault(); location.hash = '#/end-users/' + encodeURIComponent(search.value.trim()); } },
    h('div', { className: 'field' }, h('label', { for: 'end-user-id' }, 'Find an end user'), search), h('button', { type: 'submit' }, 'Search'));
  page.replaceChildren(h('h1', {}, 'End users'), form);
  if (!id) {
    // The most recently connected end users: those of the newest accounts
    // (accounts list newest first; endUsers lists by id).
    const { accounts } = await gql(`{ accounts(first: 100) { edges { node { createdAt endUser { endUserId firstConnectedAt } } } } }`);
    const seen = new Set();
    const recent = [];
    for (const { node } of accounts.edges) {
      if (seen.has(node.endUser.endUserId) || recent.length === 25) continue;
      seen.add(node.endUser.endUserId);
      recent.push({ node: { ...node.endUser, lastConnectedAt: node.createdAt } });
    }
    const endUsers = { edges: recent };
    if (!endUsers.edges.length) {
      page.append(h('p', { className: 'empty' }, 'No end users yet. An end user appears when they connect a payroll account through Link; try ', h('a', { href: '#/link' }, 'Link preview'), '.'));
      return;
    }
    page.append(h('h2', {}, 'Recent end users'), h('div', { className: 'table-wrap' }, h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'End user id'), h('th', {}, 'Last connected'), h('th', { className: 'hide-narrow' }, 'First connected'))),
      h('tbody', {}, endUsers.edges.map(({ node }) => h('tr', {},
        h('td', {}, h('a', { href: '#/end-users/' + encodeURIComponent(node.endUserId) }, node.endUserId)), h('td', {}, fmtTime(node.lastConnectedAt)),
        h('td', { className: 'hide-narrow' }, fmtTime(node.firstConnectedAt))))))));
    return;
  }
  const { endUser: u } = await gql(`query($id: ID!) { endUser(id: $id) { endUserId firstConnectedAt
    accounts(first: 25) { edges { node { id connected monitoringStatus createdAt platform { name }
      identity { fullName lastFourSsn } employment { employerName title status startDate }
      income { compensation { formatted } compensationUnit payFrequency }
      jobs(first: ${jobPage}) { edges { node { ${accountJobFields} } } pageInfo { hasNextPage endCursor } }
      paystubs(first: 12) { edges { node { id payDate grossPay { formatted } netPay { formatted } } } }
      } } }
    documents(first: 25) { edges { node { id documentType fileName createdAt downloadUrl review { status outcome } w2 { taxYear employerName } } } }
    voie { refreshedAt downloadUrl } voe { refreshedAt downloadUrl } } }`, { id });
  if (!u) {
    page.append(h('p', { className: 'empty' }, 'No end user "' + id + '" in this workspace. The id is the end_user_id you set on the link token.'));
    return;
  }
  page.append(h('h2', {}, 'End user ', h('code', {}, u.endUserId)), h('p', { className: 'muted' }, 'First connected ', fmtTime(u.firstConnectedAt)));
  const reports = h('div', { className: 'row-actions' });
  for (const [label, r] of [['VOIE report (PDF)', u.voie], ['VOE report (PDF)', u.voe]]) {
    if (r) reports.append(h('a', { href: r.downloadUrl, className: 'report-link' }, label));
  }
  page.append(h('h2', {}, 'Verification reports'), reports.children.length ? reports : h('p', { className: 'empty' }, 'No report yet: reports need an income, employment or paystubs job to have read data.'));
  for (const { node: a } of u.accounts.edges) {
    page.append(h('h2', {}, a.platform.name, ' ', pill(a.connected ? 'active' : 'disconnected'), ' ', h('span', { className: 'muted small' }, 'account ', h('code', {}, a.id))));
    const facts = [];
    if (a.identity) facts.push('Employee: ' + a.identity.fullName + ' · SSN ···' + a.identity.lastFourSsn);
    if (a.employment) facts.push('Employment: ' + a.employment.title + ' at ' + a.employment.employerName + ' since ' + dayText(a.employment.startDate) + ' (' + a.employment.status + ')');
    if (a.income) facts.push('Income: ' + a.income.compensation.formatted + ' ' + a.income.compensationUnit + ', paid ' + a.income.payFrequency);
    if (facts.length) page.append(h('ul', { className: 'facts' }, facts.map((f) => h('li', {}, f))));
    page.append(accountJobs(a));
    if (a.paystubs.edges.length) {
      page.append(h('h2', { className: 'small' }, 'Paystubs'), h('div', { className: 'table-wrap' }, h('table', { className: 'paystubs' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Pay date'), h('th', { className: 'r' }, 'Gross'), h('th', { className: 'r' }, 'Net'))),
        h('tbody', {}, a.paystubs.edges.map(({ node: p }) => h('tr', {}, h('td', {}, fmtDate(p.payDate)), h('td', { className: 'r' }, p.grossPay.formatted), h('td', { className: 'r' }, p.netPay.formatted)))))));
    } else {
      page.append(h('p', { className: 'muted' }, 'No paystubs read for this account.'));
    }
  }
  if (u.documents.edges.length) {
    const reviewed = (r) => (r.status === 'required' ? 'needs review' : r.outcome);
    page.append(h('h2', {}, 'Documents'), h('ul', { className: 'documents' }, u.documents.edges.map(({ node: d }) => h('li', {},
      h('a', { href: d.downloadUrl }, documentLabel(d)), d.w2 && d.fileName ? h('span', { className: 'muted' }, ' (' + d.fileName + ')') : null,
      ' · ', d.w2 ? 'uploaded ' : '', fmtTime(d.createdAt),
      d.review ? h('span', {}, ' · ', h('a', { href: '#/review/' + encodeURIComponent(d.id) }, reviewed(d.review))) : null))));
  }
}

// documentLabel names a document by what it is: a W-2 by its tax year
// and employer (two W-2s told apart by their upload time alone said
// nothing), another by its file name or kind.
function documentLabel(d) {
  if (d.w2) return 'W-2 ' + d.w2.taxYear + ' · ' + d.w2.employerName;
  return d.fileName || d.documentType;
}

// An account's jobs on the end user's page: the newest jobPage, and a
// button that reads the next page of the same connection (pageInfo's
// endCursor) until there is none.
const jobPage = 5;
const accountJobFields = 'id name outcome timestamp errorCode';

function accountJobs(a) {
  const row = (j) => h('tr', {}, h('td', {}, j.name), h('td', {}, pill(j.outcome), j.errorCode ? ' ' + j.errorCode : ''), h('td', {}, fmtTime(j.timestamp)));
  const tbody = h('tbody', {}, a.jobs.edges.map(({ node }) => row(node)));
  const wrap = h('div', { className: 'account-jobs', dataset: { account: a.id } }, h('div', { className: 'table-wrap' }, h('table', { className: 'jobs' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Job'), h('th', {}, 'Outcome'), h('th', {}, 'When'))), tbody)));
  let info = a.jobs.pageInfo;
  const more = h('button', { className: 'secondary more-jobs', type: 'button', onclick: async () => {
    more.disabled = true;
    try {
      const { node } = await gql(`query($id: ID!, $after: String) { node(id: $id) { ... on Account {
        jobs(first: 25, after: $after) { edges { node { ${accountJobFields} } } pageInfo { hasNextPage endCursor } } } } }`, { id: a.id, after: info.endCursor });
      tbody.append(...node.jobs.edges.map(({ node: j }) => row(j)));
      info = node.jobs.pageInfo;
      more.hidden = !info.hasNextPage;
    } catch (err) { wrap.append(errorBox(err)); } finally { more.disabled = false; }
  } }, 'More jobs');
  more.hidden = !info.hasNextPage;
  wrap.append(more);
  return wrap;
}

const jobFields = 'id name outcome timestamp platformName errorCode account { id endUser { endUserId } }';

function jobRow(j) {
  return h('tr', { dataset: { job: j.id } }, h('td', {}, j.name), h('td', {}, pill(j.outcome), j.errorCode ? ' ' + j.errorCode : ''),
    h('td', {}, j.platformName), h('td', {}, h('a', { href: '#/end-users/' + encodeURIComponent(j.account.endUser.endUserId) }, j.account.endUser.endUserId)),
    h('td', { className: 'hide-narrow' }, fmtTime(j.timestamp)));
}

async function jobsPage() {
  const outcome = h('select', { id: 'job-outcome', 'aria-label': 'Outcome' }, ['', 'success', 'pending', 'error'].map((o) => h('option', { value: o }, o || 'Any outcome')));
  const live = h('span', { className: 'live', id: 'live' });
  const tbody = h('tbody', { id: 'job-rows' });
  const empty = h('p', { className: 'empty', id: 'jobs-empty' }, 'No jobs yet. Jobs appear here the moment they finish; open ', h('a', { href: '#/link' }, 'Link preview'), ' in another tab to run some.');
  const table = h('div', { className: 'table-wrap' }, h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Job'), h('th', {}, 'Outcome'), h('th', {}, 'Platform'),
    h('th', {}, 'End user'), h('th', { className: 'hide-narrow' }, 'Completed'))), tbody));
  page.replaceChildren(h('h1', {}, 'Jobs ', live), h('form', { className: 'inline' }, h('div', { className: 'field' }, h('label', { for: 'job-outcome' }, 'Outcome'), outcome)), empty, table);
  const matches = (j) => !outcome.value || j.outcome === outcome.value;
  async function load() {
    const { jobs } = await gql(`query($f: JobFilter) { jobs(first: 50, filter: $f) { edges { node { ${jobFields} } } } }`,
      { f: outcome.value ? { outcome: outcome.value } : null });
    tbody.replaceChildren(...jobs.edges.map(({ node }) => jobRow(node)));
    empty.hidden = jobs.edges.length > 0;
    table.hidden = !empty.hidden;
  }
  outcome.addEventListener('change', () => load().catch((e) => page.append(errorBox(e))));
  await load();
  stopLive = subscribe(`subscription { jobUpdated { ${jobFields} } }`, {}, (data) => {
    const j = data.jobUpdated;
    const old = tbody.querySelector(`tr[data-job="${CSS.escape(j.id)}"]`);
    if (old) old.remove();
    if (matches(j)) tbody.prepend(jobRow(j));
    empty.hidden = tbody.children.length > 0;
    table.hidden = !empty.hidden;
  }, (up) => { live.textContent = up ? '● live' : ''; });
}

const webhookEvents = document.querySelector('meta[name="webhook-events"]').content.split(',');
// GraphQL's enums spell REST's event names and versions with underscores
// (account.added is account_added, 2025-07-08 is v2025_07_08).
const eventEnum = (name) => name.replaceAll('.', '_');
const eventName = (value) => webhookEvents.find((e) => eventEnum(e) === value) || value;
const versionName = (value) => value.slice(1).replaceAll('_', '-');

async function webhooksPage() {
  const { webhooks } = await gql(`{ webhooks(first: 25) { edges { node { id url events status apiVersion createdAt
    deliveries(first: 10) { edges { node { id event attempt statusCode latencyMs deliveryOutcome error responseExcerpt createdAt } } } } } } }`);
  page.replaceChildren(h('h1', {}, 'Webhooks'));
  if (canWrite()) {
    const url = h('input', { id: 'webhook-url', type: 'url', placeholder: 'https://example.com/payline', required: true });
    const events = h('select', { id: 'webhook-events', multiple: true, size: 4, 'aria-label': 'Events' }, webhookEvents.map((e) => h('option', { value: e, selected: e === 'account.added' }, e)));
    page.append(h('form', { className: 'inline', id: 'webhook-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await mutate('webhookCreate', `mutation($i: WebhookCreateInput!) { webhookCreate(input: $i) { webhook { id } userErrors { field message code } } }`,
          { i: { url: url.value.trim(), enabledEvents: [...events.selectedOptions].map((o) => eventEnum(o.value)), version: 'v' + version.replaceAll('-', '_') } });
        flash('Webhook created.');
        await route();
      } catch (err) { page.append(errorBox(err)); }
    } }, h('div', { className: 'field' }, h('label', { for: 'webhook-url' }, 'Endpoint URL'), url),
    h('div', { className: 'field' }, h('label', { for: 'webhook-events' }, 'Events'), events), h('button', { type: 'submit' }, 'Add webhook')));
  }
  if (!webhooks.edges.length) {
    page.append(h('p', { className: 'empty' }, 'No webhooks yet. Add an HTTPS endpoint above to receive events as they happen.'));
    return;
  }
  for (const { node: w } of webhooks.edges) {
    const act = async (fn, done) => { try { await fn(); flash(done); await route(); } catch (err) { page.append(errorBox(err)); } };
    const actions = h('div', { className: 'row-actions' });
    if (canWrite()) {
      actions.append(
        h('button', { className: 'secondary', type: 'button', onclick: () => act(() => mutate('webhookUpdate', `mutation($i: WebhookUpdateInput!) { webhookUpdate(input: $i) { webhook { id } userErrors { field message code } } }`,
          { i: { id: w.id, status: w.status === 'active' ? 'paused' : 'active' } }), w.status === 'active' ? 'Webhook paused.' : 'Webhook resumed.') }, w.status === 'active' ? 'Pause' : 'Resume'),
        h('button', { className: 'secondary', type: 'button', onclick: () => {
          const next = prompt('Endpoint URL', w.url);
          if (next && next !== w.url) act(() => mutate('webhookUpdate', `mutation($i: WebhookUpdateInput!) { webhookUpdate(input: $i) { webhook { id } userErrors { field message code } } }`, { i: { id: w.id, url: next } }), 'Webhook updated.');
        } }, 'Edit URL'),
        session.mode === 'sandbox' ? h('button', { className: 'secondary send-test', type: 'button', onclick: () => act(() => mutate('webhookTestEventSend', `mutation($id: ID!) { webhookTestEventSend(input: {webhookId: $id}) { delivery { id } userErrors { field message code } } }`, { id: w.id }), 'Test event sent.') }, 'Send test event') : null,
        h('button', { className: 'danger', type: 'button', onclick: () => { if (confirm('Delete the webhook to ' + w.url + '? Its events stop at once.')) act(() => mutate('webhookDelete', `mutation($id: ID!) { webhookDelete(input: {id: $id}) { deletedWebhookId userErrors { field message code } } }`, { id: w.id }), 'Webhook deleted.'); } }, 'Delete'));
    }
    page.append(h('section', { className: 'card webhook', dataset: { webhook: w.id } },
      h('h2', {}, h('code', {}, w.url), ' ', pill(w.status)),
      h('p', { className: 'muted small' }, w.events.map(eventName).join(', ') + ' · version ' + versionName(w.apiVersion)), actions,
      w.deliveries.edges.length
        ? h('div', { className: 'table-wrap' }, h('table', { className: 'deliveries' }, h('thead', {}, h('tr', {}, h('th', {}, 'Event'), h('th', {}, 'Outcome'), h('th', { className: 'r' }, 'Status'),
          h('th', { className: 'r hide-narrow' }, 'Latency'), h('th', { className: 'hide-narrow' }, 'When'))),
        h('tbody', {}, w.deliveries.edges.map(({ node: d }) => h('tr', {}, h('td', { className: 'event' }, breakable(d.event),
            d.error ? h('div', { className: 'muted small delivery-error' }, d.error) : null,
            d.responseExcerpt ? h('details', { className: 'delivery-response' }, h('summary', { className: 'muted small' }, 'Response'),
              h('pre', { className: 'small' }, d.responseExcerpt)) : null), h('td', {}, pill(d.deliveryOutcome)),
          h('td', { className: 'r' }, d.statusCode === null ? '—' : d.statusCode), h('td', { className: 'r hide-narrow' }, d.latencyMs.toFixed(0) + ' ms'), h('td', { className: 'hide-narrow' }, fmtTime(d.createdAt)))))))
        : h('p', { className: 'muted' }, 'No deliveries yet.')));
  }
}

async function keysPage() {
  const { data: keys } = await admin('GET', '/v1/admin/api_keys?limit=100');
  page.replaceChildren(h('h1', {}, 'API keys'), h('p', { className: 'muted' }, 'Keys of the ' + session.mode + ' mode. A secret is shown once, when its key is created.'));
  if (isAdmin()) {
    const expires = h('input', { id: 'key-expires', type: 'datetime-local', 'aria-label': 'Expires' });
    page.append(h('form', { className: 'inline', id: 'key-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        const body = expires.value ? { expires_at: new Date(expires.value).toISOString() } : {};
        const { data } = await admin('POST', '/v1/admin/api_keys', body);
        await keysPage();
        const code = h('code', { id: 'new-secret' }, data.secret);
        page.insertBefore(h('div', { className: 'secret', role: 'status' }, h('strong', {}, 'New secret — copy it now, it will not be shown again:'), code,
          h('button', { className: 'secondary', type: 'button', onclick: () => navigator.clipboard.writeText(data.secret).then(() => flash('Secret copied.'), () => flash('Copy failed: select the secret and copy it.')) }, 'Copy')), page.children[2]);
      } catch (err) { page.append(errorBox(err)); }
    } }, h('div', { className: 'field' }, h('label', { for: 'key-expires' }, 'Expires (optional)'), expires), h('button', { type: 'submit', id: 'create-key' }, 'Create key')));
  }
  if (!keys.length) {
    page.append(h('p', { className: 'empty' }, 'No keys in this mode. ' + (isAdmin() ? 'Create one above to call the API.' : 'Ask an administrator to create one.')));
    return;
  }
  page.append(h('div', { className: 'table-wrap' }, h('table', { id: 'keys' }, h('thead', {}, h('tr', {}, h('th', {}, 'Key'), h('th', {}, 'Status'), h('th', { className: 'hide-narrow' }, 'Created'),
    h('th', {}, 'Expires'), h('th', {}, ''))),
  h('tbody', {}, keys.map((k) => h('tr', { dataset: { key: k.key } }, h('td', {}, h('code', {}, k.key)),
    h('td', {}, pill(k.revoked_at ? 'revoked' : k.is_active ? 'active' : 'expired')), h('td', { className: 'hide-narrow' }, fmtTime(k.created_at)),
    h('td', {}, k.expires_at ? fmtTime(k.expires_at) : 'never'),
    h('td', {}, isAdmin() && !k.revoked_at ? h('button', { className: 'danger revoke', type: 'button', onclick: async () => {
      if (!confirm('Revoke key ' + k.key + '? Requests with its secret are refused at once, on every instance.')) return;
      try { await admin('POST', '/v1/admin/api_keys/' + encodeURIComponent(k.key) + '/revoke'); flash('Key revoked.'); await keysPage(); } catch (err) { page.append(errorBox(err)); }
    } }, 'Revoke') : '')))))));
}

async function linkPage() {
  page.replaceChildren(h('h1', {}, 'Link preview'), h('p', { className: 'muted' }, 'Create a link token and open Link as your users see it. In the sandbox, sign in with user_good / pass_good.'));
  if (session.mode !== 'sandbox' || !canWrite()) {
    page.append(h('p', { className: 'empty' }, session.mode !== 'sandbox' ? 'Link preview runs in the sandbox only.' : 'Your role can only read; a developer or administrator can preview Link.'));
    return;
  }
  const endUser = h('input', { id: 'link-end-user', value: 'preview-' + Math.random().toString(36).slice(2, 8), autocomplete: 'off' });
  const jobs = h('select', { id: 'link-jobs', 'aria-label': 'Required jobs' }, [['paystubs', 'Paystubs, income and employment'], ['direct_deposit_switch', 'Direct deposit switch']].map(([v, l]) => h('option', { value: v }, l)));
  const log = h('ol', { className: 'events', id: 'link-events', 'aria-live': 'polite', hidden: true });
  // No empty box before Link has said anything: a line that says so.
  const noEvents = h('p', { className: 'muted', id: 'link-events-empty' }, 'No events yet: open Link, and what it reports to your page appears here.');
  page.append(h('form', { className: 'inline', id: 'link-form', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const required = jobs.value === 'paystubs' ? ['paystubs', 'income', 'employment'] : ['direct_deposit_switch'];
      const created = await mutate('linkTokenCreate', `mutation($i: LinkTokenCreateInput!) { linkTokenCreate(input: $i) { token userErrors { field message code } } }`,
        { i: { orgName: session.workspace_name, endUserId: endUser.value.trim(), requiredJobs: required } });
      log.replaceChildren();
      log.hidden = true;
      noEvents.hidden = false;
      window.PaylineLink.open({
        linkToken: created.token,
        onEvent: (name, payload) => { log.append(h('li', {}, name + ' ' + JSON.stringify(payload))); log.hidden = false; noEvents.hidden = true; },
        onSuccess: () => flash('Connected. The jobs appear on the Jobs page as they finish.'),
      });
    } catch (err) { page.append(errorBox(err)); }
  } }, h('div', { className: 'field' }, h('label', { for: 'link-end-user' }, 'End user id'), endUser),
  h('div', { className: 'field' }, h('label', { for: 'link-jobs' }, 'Jobs'), jobs), h('button', { type: 'submit', id: 'open-link' }, 'Open Link')),
  h('h2', {}, 'Client events'), noEvents, log);
}

// ---- Start -------------------------------------------------------------

fetch('/dashboard/session', { credentials: 'same-origin' }).then(async (res) => {
  if (!res.ok) { showSignIn(); return; }
  start((await res.json()).data);
}, showSignIn);
