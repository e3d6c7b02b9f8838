// Disputes: the people's disputes still open, the overdue ones first and
// marked, with the law's clocks (received, due, the furnisher's notice),
// and the actions their state allows: start the reinvestigation, then
// resolve it with an outcome and a reason the person will read.
// Everything goes through /graphql (disputes, disputeInvestigate,
// disputeResolve); the person's words are put in the page as text.

const itemWords = {
  paystub: 'Paystub', employment: 'Employment', report_field: 'Report field', document: 'Uploaded document',
};

export function disputePages({ h, gql, mutate, flash, fmtTime, page, errorBox, pill, canWrite, route }) {
  function item(d) {
    const it = d.item;
    const what = (itemWords[it.type] || it.type) + (it.field ? ' · ' + it.field.replace(/_amount$/, '').replace(/_/g, ' ') : '');
    return h('div', {}, h('strong', {}, what),
      it.id ? h('div', { className: 'muted small dispute-item-id' }, h('code', {}, it.id)) : null);
  }

  function notice(n) {
    const words = {
      pending: 'being sent', acknowledged: 'acknowledged', not_sent: 'not sent', no_furnisher: 'no furnisher',
    }[n.status] || n.status;
    return h('div', {}, h('span', { className: 'pill ' + (n.status === 'acknowledged' ? 'success' : n.status === 'pending' ? 'pending' : '') }, words),
      n.notifiedAt ? h('div', { className: 'muted small' }, fmtTime(n.notifiedAt)) : h('div', { className: 'muted small' }, 'due ', fmtTime(n.dueAt)),
      n.reason && n.status !== 'pending' ? h('div', { className: 'small' }, n.reason) : null);
  }

  function resolveForm(d) {
    const outcome = h('select', { id: 'outcome-' + d.id, required: true },
      h('option', { value: '' }, 'Choose…'),
      h('option', { value: 'corrected' }, 'Corrected'),
      h('option', { value: 'verified' }, 'Verified as it stands'),
      h('option', { value: 'deleted' }, 'Deleted'));
    const reason = h('textarea', { id: 'reason-' + d.id, required: true, maxLength: 4000, rows: 2,
      placeholder: 'What the reinvestigation found, in words the person understands' });
    const form = h('form', { className: 'resolve-form', dataset: { dispute: d.id }, onsubmit: async (e) => {
      e.preventDefault();
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      form.querySelector('.error')?.remove();
      try {
        await mutate('disputeResolve', `mutation($i: DisputeResolveInput!) { disputeResolve(input: $i) {
          dispute { id status } userErrors { field message code } } }`, { i: { id: d.id, outcome: outcome.value, reason: reason.value.trim() } });
        flash('Dispute resolved; the person and your webhooks are told.');
        await route();
      } catch (err) {
        form.append(errorBox(err));
      } finally {
        button.disabled = false;
      }
    } },
    h('label', { for: 'outcome-' + d.id }, 'Outcome'), outcome,
    h('label', { for: 'reason-' + d.id }, 'Reason'), reason,
    h('button', { type: 'submit' }, 'Resolve'));
    return form;
  }

  function actions(d) {
    if (!canWrite()) return h('span', { className: 'muted small' }, 'Your role can only read.');
    if (d.status === 'open') {
      return h('button', { type: 'button', className: 'investigate', dataset: { dispute: d.id }, onclick: async (e) => {
        e.target.disabled = true;
        try {
          await mutate('disputeInvestigate', `mutation($id: ID!) { disputeInvestigate(input: {id: $id}) { dispute { id } userErrors { field message code } } }`, { id: d.id });
          flash('Reinvestigation started.');
          await route();
        } catch (err) {
          page.append(errorBox(err));
          e.target.disabled = false;
        }
      } }, 'Start reinvestigation');
    }
    return resolveForm(d);
  }

  function row(d) {
    // data-label heads each cell when a phone stacks the row as a card.
    return h('tr', { dataset: { dispute: d.id }, className: d.overdue ? 'overdue' : '' },
      h('td', { dataset: { label: 'Person' } }, h('strong', {}, d.endUserId), h('div', { className: 'muted small' }, 'received ', fmtTime(d.receivedAt))),
      h('td', { dataset: { label: 'Disputed' } }, item(d), h('p', { className: 'dispute-note' }, d.note)),
      h('td', { dataset: { label: 'Status' } }, pill(d.status), d.overdue ? h('span', {}, ' ', h('span', { className: 'pill error' }, 'overdue')) : null),
      h('td', { dataset: { label: 'Due' } }, fmtTime(d.dueAt), d.extendedAt ? h('div', { className: 'muted small' }, 'extended to 45 days') : null),
      h('td', { dataset: { label: 'Source told' } }, notice(d.furnisherNotice)),
      h('td', { dataset: { label: 'Action' } }, actions(d)));
  }

  async function disputesPage() {
    const fields = `nodes { id endUserId status receivedAt dueAt extendedAt overdue note
      item { type id field reportType accountId } furnisherNotice { status route dueAt notifiedAt reason } }`;
    const { overdue, open, investigating } = await gql(`{ overdue: disputes(first: 100, overdue: true) { ${fields} }
      open: disputes(first: 100, status: open) { ${fields} } investigating: disputes(first: 100, status: investigating) { ${fields} } }`);
    page.replaceChildren(h('h1', {}, 'Disputes'),
      h('p', { className: 'muted' }, 'What people dispute about the data you hold on them. The law gives 30 days from receipt to reinvestigate (45 when they bring new information), and the source is told within 5 business days.'));
    const late = new Set(overdue.nodes.map((d) => d.id));
    const rest = [...open.nodes, ...investigating.nodes].filter((d) => !late.has(d.id))
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    const all = [...overdue.nodes, ...rest];
    page.append(h('p', { className: 'dispute-counts', id: 'dispute-counts' },
      h('strong', {}, String(all.length)), ' unresolved · ',
      h('strong', { className: late.size ? 'error-text' : '' }, String(late.size)), ' overdue'));
    if (!all.length) {
      page.append(h('p', { className: 'empty' }, 'No open disputes. A dispute appears here when a person files one on their page, or you file one for them (POST /v1/end_users/{id}/disputes).'));
      return;
    }
    page.append(h('div', { className: 'table-wrap' }, h('table', { id: 'disputes' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Person'), h('th', {}, 'Disputed'), h('th', {}, 'Status'), h('th', {}, 'Due'),
        h('th', { className: 'hide-narrow' }, 'Source told'), h('th', {}, 'Action'))),
      h('tbody', {}, all.map(row)))));
  }

  return { disputesPage };
}
