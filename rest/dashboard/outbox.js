// The sandbox outbox: each message Link orders would have sent, shown as
// the person would see it. An e-mail's HTML part is drawn in a shadow
// root from an inert parse (DOMParser runs no script and loads nothing),
// keeping only plain text formatting (paragraphs, links, tables) and
// moving each inline style into the CSSOM, which the dashboard's CSP
// allows where a style attribute would not apply. Everything else stays
// text, as on every page.

const kept = new Set(['P', 'BR', 'A', 'STRONG', 'B', 'EM', 'I', 'U', 'SPAN', 'DIV', 'H1', 'H2', 'H3', 'H4',
  'UL', 'OL', 'LI', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TD', 'TH', 'HR', 'BLOCKQUOTE', 'CENTER', 'SMALL']);

// copyMail rebuilds the parsed nodes with only what kept allows: links
// to http(s) open in a new tab, styles through the CSSOM, nothing else.
function copyMail(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const out = kept.has(node.tagName) ? document.createElement(node.tagName.toLowerCase()) : document.createElement('span');
  const style = node.getAttribute('style');
  if (style) out.style.cssText = style;
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') || '';
    if (/^https?:\/\//i.test(href)) { out.href = href; out.target = '_blank'; out.rel = 'noopener noreferrer'; }
  }
  for (const c of node.childNodes) {
    const copy = copyMail(c);
    if (copy) out.append(copy);
  }
  return out;
}

// mailView draws an e-mail's HTML in its own shadow root, so its styles
// and the dashboard's do not mix.
function mailView(html) {
  const host = document.createElement('div');
  host.className = 'mail-html';
  const root = host.attachShadow({ mode: 'open' });
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = document.createElement('div');
  const bodyStyle = doc.body.getAttribute('style');
  if (bodyStyle) body.style.cssText = bodyStyle;
  body.style.overflowWrap = 'anywhere';
  for (const c of doc.body.childNodes) {
    const copy = copyMail(c);
    if (copy) body.append(copy);
  }
  root.append(body);
  return host;
}

// linkedText is a text message's words with its web addresses as links,
// as a phone shows them; all of it stays text.
function linkedText(h, text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const url = m[0].replace(/[.,;:!?)]+$/, '');
    out.push(text.slice(last, m.index), h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url));
    last = m.index + url.length;
  }
  out.push(text.slice(last));
  return out;
}

export function outboxPages({ h, gql, fmtTime, page, session }) {
  function message(m) {
    const head = h('div', { className: 'mail-head' },
      h('div', {}, h('span', { className: 'muted' }, m.channel === 'email' ? 'E-mail to ' : 'Text to '), h('strong', {}, m.recipient)),
      h('div', { className: 'muted small' }, fmtTime(m.createdAt), m.ref ? ' · ' + m.ref : ''));
    if (m.channel === 'email') {
      return h('article', { className: 'card outbox-message', dataset: { channel: 'email' } }, head,
        h('div', { className: 'mail-meta' },
          h('div', {}, h('span', { className: 'muted' }, 'From: '), m.fromName || '(no name)'),
          h('div', {}, h('span', { className: 'muted' }, 'Subject: '), h('strong', {}, m.subject || '(no subject)'))),
        mailView(m.html || ''),
        h('details', {}, h('summary', {}, 'Plain-text part'), h('pre', { className: 'mail-text' }, m.text)));
    }
    return h('article', { className: 'card outbox-message', dataset: { channel: 'sms' } }, head,
      h('p', { className: 'sms-bubble' }, linkedText(h, m.text)));
  }

  async function outboxPage() {
    const heading = [h('h1', {}, 'Outbox'),
      h('p', { className: 'muted' }, 'The messages your Link orders would have sent, newest first, exactly as the person would receive them. ' +
        'The sandbox keeps them here because no SMTP server or SMS provider is configured; other modes send them.')];
    if (session().mode !== 'sandbox') {
      page.replaceChildren(...heading, h('p', { className: 'empty' }, 'The ' + session().mode + ' mode sends its messages: it keeps no outbox.'));
      return;
    }
    const list = h('div', { className: 'outbox', id: 'outbox' });
    const more = h('button', { type: 'button', className: 'secondary', hidden: true }, 'Older messages');
    let after = null;
    async function load() {
      const { outboxMessages: c } = await gql(`query ($after: String) { outboxMessages(first: 20, after: $after) {
        nodes { id channel recipient fromName subject text html ref createdAt } pageInfo { hasNextPage endCursor } } }`, { after });
      for (const m of c.nodes) list.append(message(m));
      after = c.pageInfo.endCursor;
      more.hidden = !c.pageInfo.hasNextPage;
      if (!list.childElementCount) {
        list.append(h('p', { className: 'empty' }, 'No messages yet. A Link order sent by e-mail or text in the sandbox appears here.'));
      }
    }
    more.addEventListener('click', load);
    page.replaceChildren(...heading, list, more);
    await load();
  }

  return { outboxPage };
}
