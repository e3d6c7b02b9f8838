// The dashboard's review pages: the queue of uploaded paystubs and W-2s
// whose checks left a doubt, and one document's page beside the fields
// read from it, where an administrator or a reviewer accepts it (fixing
// what was misread) or rejects it. app.js hands in its helpers (ui).

// Each field's name in plain words, as the document prints it.
const fieldLabels = {
  employer_name: 'Employer', employer_ein: 'Employer EIN', employee_name: 'Employee', pay_date: 'Pay date',
  pay_period_start: 'Pay period start', pay_period_end: 'Pay period end', gross_pay_amount: 'Gross pay',
  net_pay_amount: 'Net pay', gross_pay_ytd: 'Gross pay, year to date', net_pay_ytd: 'Net pay, year to date',
  total_taxes: 'Taxes', total_deductions: 'Deductions', reimbursements: 'Reimbursements', tax_year: 'Tax year',
  box1: 'Box 1, wages', box2: 'Box 2, federal tax', box3: 'Box 3, social security wages', box4: 'Box 4, social security tax',
  box5: 'Box 5, Medicare wages', box6: 'Box 6, Medicare tax',
};
const labelOf = (name) => fieldLabels[name] || name;

// A check's reason in a few plain words, beside the field it names; the
// whole message is above the page.
const reasonWords = {
  ARITHMETIC_MISMATCH: 'the figures do not add up', PERIOD_EXCEEDS_YTD: 'more than the year to date',
  YTD_NOT_CUMULATIVE: 'year to date does not follow the earlier stubs', PAY_DATE_OFF_SCHEDULE: 'pay date off the schedule',
  EMPLOYER_UNKNOWN: 'employer not as the directory knows it', FONTS_INCONSISTENT: 'drawn in unusual fonts',
  EDITED_AFTER_CREATION: 'the file was edited after it was made', FIGURES_REUSED: 'figures repeat another stub\'s',
  TEXT_LAYER_MISMATCH: 'the text differs from what the page shows', FIELDS_MISSING: 'could not be read',
  FIELDS_UNCERTAIN: 'read with doubt', IMPLAUSIBLE: 'an unlikely figure',
  SERIES_INCONSISTENT: 'does not follow the person\'s other stubs', ANOTHER_VERSION: 'another version of this stub was uploaded',
};
const reasonOf = (r) => reasonWords[r.code] || r.message;

// What the queue says of a document, in plain words.
function statusOf(d) {
  if (!d.review || d.review.status === 'required') return ['needs review', 'pending'];
  return d.review.outcome === 'accepted' ? ['accepted', 'success'] : ['rejected', 'error'];
}

const docFields = `id createdAt endUserId fileName documentType downloadUrl
  fraud { status reasons { code message } }
  review { status outcome reviewedAt reviewerId basis note corrections { field before after } }
  readings { field page box confidence }
  fields { name kind value reasons { code message } reading { page box confidence } }`;

export function reviewPages(ui) {
  const { h, gql, mutate, admin, flash, fmtTime, page, errorBox } = ui;
  const canReview = () => ['administrator', 'reviewer'].includes(ui.session().role);
  const money = (cents) => (cents === '' ? 'not read' : '$' + (Number(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }));

  async function queuePage() {
    const status = h('select', { id: 'review-status' },
      [['required', 'Needs review'], ['completed', 'Reviewed'], ['all', 'All']].map(([v, l]) => h('option', { value: v }, l)));
    status.value = sessionStorage.getItem('review-status') || 'required';
    const body = h('div', { id: 'review-list' });
    page.replaceChildren(h('h1', {}, 'Review'),
      h('p', { className: 'muted' }, 'Paystubs and W-2s that end users uploaded and that our checks could not settle. ' +
        'Each one counts toward income only once an administrator or reviewer accepts it.'),
      h('form', { className: 'inline', onsubmit: (e) => e.preventDefault() },
        h('div', { className: 'field narrow' }, h('label', { for: 'review-status' }, 'Show'), status)), body);
    async function load(after) {
      const statuses = { required: ['required'], completed: ['completed'], all: ['required', 'completed'] }[status.value];
      const { documentReviews: q } = await gql(`query($f: DocumentReviewFilter, $after: String) { documentReviews(first: 25, after: $after, filter: $f) {
        nodes { ${docFields} } pageInfo { hasNextPage endCursor } } }`, { f: { statuses }, after: after || null });
      if (!after) body.replaceChildren();
      if (!q.nodes.length && !after) {
        body.append(h('p', { className: 'empty' }, status.value === 'required'
          ? 'Nothing to review. Documents appear here when an upload\'s figures need a person to check them.'
          : 'No documents here.'));
        return;
      }
      let tbody = body.querySelector('tbody');
      if (!tbody) {
        tbody = h('tbody', {});
        body.append(h('div', { className: 'table-wrap' }, h('table', { id: 'review-rows' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Document'), h('th', {}, 'End user'), h('th', {}, 'Why it needs a person'),
            h('th', { className: 'hide-narrow' }, 'Status'), h('th', { className: 'hide-narrow' }, 'Uploaded'))), tbody)));
      }
      for (const d of q.nodes) {
        const [word, tone] = statusOf(d);
        const why = d.fraud.reasons.map((r) => r.message);
        tbody.append(h('tr', { dataset: { document: d.id } },
          h('td', {}, h('a', { href: '#/review/' + encodeURIComponent(d.id), className: 'review-open' }, d.fileName || d.documentType),
            h('div', { className: 'muted small' }, d.documentType === 'w2' ? 'W-2' : 'Paystub'),
            // On a phone the status goes under the name: its column cut
            // the pill short at the table's edge.
            h('div', { className: 'show-narrow' }, h('span', { className: 'pill ' + tone }, word))),
          h('td', {}, h('a', { href: '#/end-users/' + encodeURIComponent(d.endUserId) }, d.endUserId)),
          h('td', { className: 'why' }, why.length ? why[0] : '—', why.length > 1 ? h('div', { className: 'muted small' }, 'and ' + (why.length - 1) + ' more') : null),
          h('td', { className: 'hide-narrow' }, h('span', { className: 'pill ' + tone }, word)),
          h('td', { className: 'hide-narrow' }, fmtTime(d.createdAt))));
      }
      body.querySelector('#review-more')?.remove();
      if (q.pageInfo.hasNextPage) {
        body.append(h('button', { id: 'review-more', className: 'secondary', type: 'button',
          onclick: () => load(q.pageInfo.endCursor).catch((e) => body.append(errorBox(e))) }, 'Show more'));
      }
    }
    status.addEventListener('change', () => {
      sessionStorage.setItem('review-status', status.value);
      load().catch((e) => body.append(errorBox(e)));
    });
    await load();
  }

  // pageImage fetches a page as the signed-in member (the session cookie
  // and the API's version header) and gives it as a data: URL, which the
  // page's Content-Security-Policy allows; null past the last page.
  async function pageImage(d, n) {
    const res = await fetch('/v1/end_users/' + encodeURIComponent(d.endUserId) + '/documents/' + encodeURIComponent(d.id) + '/pages/' + n,
      { credentials: 'same-origin', headers: { 'Service-Version': ui.version } });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error('The page could not be drawn (the server answered ' + res.status + ').');
    const blob = await res.blob();
    return new Promise((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(r.result);
      r.onerror = () => reject(new Error('The page could not be read.'));
      r.readAsDataURL(blob);
    });
  }

  async function documentPage(id) {
    const { node: d } = await gql(`query($id: ID!) { node(id: $id) { ... on Document { ${docFields} } } }`, { id });
    if (!d || !d.id) {
      page.replaceChildren(h('p', { className: 'empty' }, 'No document ' + id + ' in this workspace.'));
      return;
    }
    const done = d.review && d.review.status === 'completed';
    const editable = !done && d.review && canReview();
    const [word, tone] = statusOf(d);

    // The page, with a box over the field chosen.
    const img = h('img', { id: 'review-page', alt: 'Page 1 of ' + (d.fileName || 'the document') });
    const mark = h('div', { id: 'review-mark', className: 'mark', hidden: true });
    const pageNo = h('span', { id: 'review-page-no', className: 'muted small' }, '');
    const located = h('p', { id: 'review-located', className: 'muted small', role: 'status', 'aria-live': 'polite' }, '');
    const prev = h('button', { type: 'button', className: 'secondary', id: 'review-prev' }, 'Previous page');
    const next = h('button', { type: 'button', className: 'secondary', id: 'review-next' }, 'Next page');
    let shown = 0;
    async function show(n) {
      if (n < 1 || n === shown) return n === shown;
      const url = await pageImage(d, n);
      if (!url) {
        next.disabled = true;
        return false;
      }
      img.src = url;
      img.alt = 'Page ' + n + ' of ' + (d.fileName || 'the document');
      shown = n;
      pageNo.textContent = 'Page ' + n;
      prev.disabled = n === 1;
      next.disabled = false;
      mark.hidden = true;
      return true;
    }
    prev.addEventListener('click', () => show(shown - 1).catch((e) => located.replaceChildren(errorBox(e))));
    next.addEventListener('click', () => show(shown + 1).then((ok) => { if (!ok) located.textContent = 'That was the last page.'; }));
    const rows = [];
    async function locate(f) {
      for (const r of rows) r.row.classList.toggle('chosen', r.field === f);
      if (!f.reading) {
        mark.hidden = true;
        located.textContent = labelOf(f.name) + ': the reader did not say where it read this on the page.';
        return;
      }
      await show(f.reading.page);
      const [x0, y0, x1, y1] = f.reading.box;
      Object.assign(mark.style, { left: (x0 * 100) + '%', top: (y0 * 100) + '%', width: ((x1 - x0) * 100) + '%', height: ((y1 - y0) * 100) + '%' });
      mark.hidden = false;
      located.textContent = labelOf(f.name) + ' is marked on page ' + f.reading.page + '.';
    }

    // The fields read, each editable while a review is required.
    const inputs = {};
    const grid = h('div', { className: 'fields', id: 'review-fields' });
    for (const f of d.fields) {
      const inputId = 'field-' + f.name;
      // Read-only rather than disabled once reviewed, so a field can still
      // be chosen (and its place shown) from the keyboard.
      const input = h('input', { id: inputId, name: f.name, value: f.value || '', readOnly: !editable, autocomplete: 'off',
        type: f.kind === 'date' ? 'date' : 'text', inputmode: f.kind === 'amount' || f.kind === 'year' ? 'decimal' : null,
        placeholder: f.value ? null : 'not read', 'aria-describedby': inputId + '-note' });
      input.addEventListener('focus', () => locate(f).catch((e) => located.replaceChildren(errorBox(e))));
      inputs[f.name] = { input, original: f.value || '' };
      const sure = f.reading ? Math.round(f.reading.confidence * 100) + '% sure' : 'not located';
      const note = h('div', { id: inputId + '-note', className: 'field-note' },
        h('span', { className: 'muted' }, sure),
        f.reasons.length ? h('span', { className: 'reason' }, ' · ' + [...new Set(f.reasons.map(reasonOf))].join('; ')) : null);
      const row = h('div', { className: 'field-row' + (f.reasons.length ? ' doubted' : ''), dataset: { field: f.name } },
        h('label', { for: inputId }, labelOf(f.name)), h('div', { className: 'field-value' }, input, note));
      rows.push({ row, field: f });
      grid.append(row);
    }

    const note = h('textarea', { id: 'review-note', rows: 3, maxlength: 2000 });
    const message = h('div', { id: 'review-error', role: 'alert' });
    async function decide(outcome) {
      message.replaceChildren();
      const corrections = [];
      for (const [field, { input, original }] of Object.entries(inputs)) {
        if (input.value.trim() !== original) corrections.push({ field, value: input.value.trim() });
      }
      try {
        const out = await mutate('documentReviewSubmit', `mutation($i: DocumentReviewSubmitInput!) { documentReviewSubmit(input: $i) {
          document { id review { status outcome basis } } userErrors { field message code } } }`,
        { i: { documentId: d.id, outcome, note: note.value, corrections: outcome === 'accepted' ? corrections : [] } });
        const r = out.document.review;
        flash(r.outcome === 'accepted' ? 'Accepted: it now counts toward income (' + r.basis + ').' : 'Rejected: it will not count toward income.');
        await documentPage(id);
      } catch (err) {
        message.replaceChildren(errorBox({ message: [...new Set(err.message.split('; '))].join(' ') }));
      }
    }

    const reasons = d.fraud.reasons.length
      ? h('ul', { className: 'reasons' }, d.fraud.reasons.map((r) => h('li', {}, r.message)))
      : h('p', { className: 'muted' }, 'No check failed.');
    let decision;
    if (done) {
      const r = d.review;
      const kinds = Object.fromEntries(d.fields.map((f) => [f.name, f.kind]));
      const shownValue = (f, v) => (kinds[f] === 'amount' ? money(v) : (v || 'not read'));
      // Who reviewed: the workspace's members, which every role may list.
      const who = await admin('GET', '/v1/admin/members').then(({ data }) => data.find((m) => m.id === r.reviewerId), () => null);
      decision = h('section', { className: 'card decision', id: 'review-decision' },
        h('h2', {}, r.outcome === 'accepted' ? 'Accepted' : 'Rejected'),
        h('p', {}, who ? 'By ' + who.email + ' on ' : 'On ', fmtTime(r.reviewedAt), '. ',
          r.outcome === 'accepted' ? 'It counts toward income, its basis “' + r.basis + '”.' : 'It counts toward no income.'),
        r.note ? h('p', { className: 'note' }, '“' + r.note + '”') : null,
        r.corrections.length
          ? h('div', { className: 'table-wrap' }, h('table', { id: 'review-corrections' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Read'), h('th', {}, 'Corrected to'))),
            h('tbody', {}, r.corrections.map((c) => h('tr', {}, h('td', {}, labelOf(c.field)), h('td', {}, shownValue(c.field, c.before)),
              h('td', {}, shownValue(c.field, c.after)))))))
          : h('p', { className: 'muted' }, 'No field was corrected.'));
    } else if (!d.review) {
      decision = h('p', { className: 'empty' }, 'This document needs no review: its checks left no doubt.');
    } else if (!canReview()) {
      decision = h('p', { className: 'empty' }, 'Your role can read this page. An administrator or a reviewer accepts or rejects documents.');
    } else {
      decision = h('form', { className: 'decision', id: 'review-form', onsubmit: (e) => e.preventDefault() },
        h('label', { for: 'review-note' }, 'Note ', h('span', { className: 'muted small' }, '(required to reject)')), note, message,
        h('div', { className: 'row-actions' },
          h('button', { type: 'button', id: 'review-accept', onclick: () => decide('accepted') }, 'Accept'),
          h('button', { type: 'button', id: 'review-reject', className: 'danger', onclick: () => decide('rejected') }, 'Reject')),
        h('p', { className: 'muted small' }, 'Accepting counts the figures above toward income, with any you changed. Each document is reviewed once.'));
    }

    page.replaceChildren(
      h('p', { className: 'small' }, h('a', { href: '#/review' }, '← Review')),
      h('h1', {}, d.fileName || d.documentType, ' ', h('span', { className: 'pill ' + tone }, word)),
      h('p', { className: 'muted' }, (d.documentType === 'w2' ? 'W-2' : 'Paystub') + ' uploaded by ',
        h('a', { href: '#/end-users/' + encodeURIComponent(d.endUserId) }, d.endUserId), ' · ', fmtTime(d.createdAt),
        d.downloadUrl ? h('span', {}, ' · ', h('a', { href: d.downloadUrl }, 'Download the file')) : null),
      h('section', { className: 'why-review' }, h('h2', {}, done ? 'Why it went to a person' : 'Why it needs a person'), reasons),
      h('div', { className: 'review' },
        h('section', { className: 'page-view', 'aria-label': 'The document' },
          h('div', { className: 'page-tools' }, prev, pageNo, next),
          h('div', { className: 'page-frame' }, img, mark), located),
        h('section', { 'aria-label': 'What was read' },
          h('h2', {}, 'What was read'),
          h('p', { className: 'muted small' }, editable
            ? 'Choose a field to see where it was read. Change any value that differs from the page.'
            : 'Choose a field to see where it was read.'),
          grid, decision)));
    // The first page anything was read on.
    await show(d.readings.length ? Math.min(...d.readings.map((r) => r.page)) : 1);
  }

  return { queuePage, documentPage };
}
