// Link orders: the form that sends Link to a person by e-mail or text,
// and the orders with each channel's latest message, the short link, its
// QR code and a cancel. Everything goes through /graphql (linkOrders,
// linkOrderCreate, linkOrderCancel); data is put in the page as text.

const asked = {
  'income-employment': ['income', 'employment'],
  'paystubs': ['paystubs', 'income'],
  'identity': ['identity', 'employment'],
};

export function orderPages({ h, gql, mutate, flash, fmtTime, page, errorBox, pill, canWrite, route }) {
  function field(id, label, input, hint) {
    return h('div', { className: 'field' }, h('label', { for: id }, label), input, hint ? h('span', { className: 'muted small' }, hint) : null);
  }

  function sendForm() {
    const org = h('input', { id: 'order-org', required: true, minLength: 3, maxLength: 30, placeholder: 'Acme Lending' });
    const endUser = h('input', { id: 'order-end-user', required: true, placeholder: 'applicant-42' });
    const email = h('input', { id: 'order-email', type: 'email', placeholder: 'jordan@example.com', autocomplete: 'off' });
    const phone = h('input', { id: 'order-phone', type: 'tel', placeholder: '+1 555 201 1234', autocomplete: 'off' });
    const consent = h('input', { id: 'order-consent', type: 'checkbox' });
    const jobs = h('select', { id: 'order-jobs' },
      h('option', { value: 'income-employment' }, 'Income, employment'),
      h('option', { value: 'paystubs' }, 'Paystubs'),
      h('option', { value: 'identity' }, 'Identity, employment'));
    const hours = h('input', { id: 'order-hours', type: 'number', min: 1, max: 720, value: 72 });
    const reminders = h('select', { id: 'order-reminders' }, [0, 1, 2, 3].map((n) => h('option', { value: n, selected: n === 2 }, String(n))));
    const zone = h('input', { id: 'order-zone', value: Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/New_York' });
    const form = h('form', { className: 'card order-form', id: 'order-form', onsubmit: async (e) => {
      e.preventDefault();
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      form.querySelector('.error')?.remove();
      try {
        const input = { orgName: org.value.trim(), endUserId: endUser.value.trim(), features: asked[jobs.value],
          expiresInHours: parseInt(hours.value, 10) || 72, reminders: parseInt(reminders.value, 10), timeZone: zone.value.trim() || null };
        if (email.value.trim()) input.email = email.value.trim();
        if (phone.value.trim()) { input.phone = phone.value.trim(); input.smsConsent = consent.checked; }
        const { linkOrder } = await mutate('linkOrderCreate', `mutation($i: LinkOrderCreateInput!) { linkOrderCreate(input: $i) {
          linkOrder { id url } userErrors { field message code } } }`, { i: input });
        flash('Link sent: ' + linkOrder.url);
        await route();
      } catch (err) {
        form.append(errorBox(err));
      } finally {
        button.disabled = false;
      }
    } },
    h('h2', {}, 'Send Link'),
    h('p', { className: 'muted small' }, 'Payline e-mails or texts the person a short link to Link, reminds them outside 21:00 to 08:00 in the time zone below, and tells your webhooks when they open it and finish.'),
    h('div', { className: 'order-fields' },
      field('order-org', 'Your name, as they know it', org),
      field('order-end-user', 'End user id', endUser),
      field('order-email', 'E-mail', email),
      field('order-phone', 'Mobile phone', phone),
      field('order-jobs', 'Ask for', jobs),
      field('order-hours', 'Link works for (hours)', hours),
      field('order-reminders', 'Reminders', reminders),
      field('order-zone', 'Time zone', zone)),
    h('label', { className: 'check' }, consent, ' This person agreed to receive a text from us (needed to text them)'),
    h('div', {}, h('button', { type: 'submit', id: 'order-send' }, 'Send Link')));
    return form;
  }

  function deliveries(o) {
    return h('ul', { className: 'order-deliveries' }, o.deliveries.map((d) => h('li', {},
      h('span', { className: 'muted' }, d.channel === 'email' ? 'E-mail ' : 'Text '), h('span', {}, d.to), ' ', pill(d.status),
      d.sentAt ? h('span', { className: 'muted small' }, ' ', fmtTime(d.sentAt)) : null,
      d.failureReason ? h('div', { className: 'small delivery-error' }, d.failureReason) : null)));
  }

  function linkCell(o) {
    const open = ['created', 'sent', 'opened'].includes(o.status);
    return h('div', { className: 'order-link' },
      h('a', { href: o.qrCodeUrl + '?format=svg', target: '_blank', rel: 'noopener', title: 'The QR code, to print' },
        h('img', { src: o.qrCodeUrl, alt: 'QR code of the link', width: 64, height: 64, loading: 'lazy' })),
      h('div', {}, h('code', {}, o.url), h('div', { className: 'row-actions' },
        h('button', { className: 'secondary', type: 'button', onclick: () => navigator.clipboard.writeText(o.url).then(() => flash('Link copied.'), () => flash('Copy failed: select the link and copy it.')) }, 'Copy link'),
        canWrite() && open ? h('button', { className: 'danger cancel-order', type: 'button', onclick: async () => {
          if (!confirm('Cancel this order? Its link stops working and no reminder is sent.')) return;
          try {
            await mutate('linkOrderCancel', `mutation($id: ID!) { linkOrderCancel(input: {id: $id}) { linkOrder { id } userErrors { field message code } } }`, { id: o.id });
            flash('Order canceled.');
            await route();
          } catch (err) { page.append(errorBox(err)); }
        } }, 'Cancel') : null)));
  }

  async function ordersPage() {
    const { linkOrders } = await gql(`{ linkOrders(first: 50) { nodes { id status endUserId orgName url qrCodeUrl createdAt expiresAt
      remindersLeft timeZone accountId deliveries { channel to status sentAt failureReason } } } }`);
    page.replaceChildren(h('h1', {}, 'Link orders'),
      h('p', { className: 'muted' }, 'Link sent to people by e-mail and text, newest first. The sandbox keeps the messages in the Outbox.'));
    if (canWrite()) page.append(sendForm());
    if (!linkOrders.nodes.length) {
      page.append(h('p', { className: 'empty' }, 'No orders yet. ' + (canWrite() ? 'Send Link to someone with the form above.' : '')));
      return;
    }
    page.append(h('div', { className: 'table-wrap' }, h('table', { id: 'orders' },
      h('thead', {}, h('tr', {}, h('th', {}, 'End user'), h('th', {}, 'Status'), h('th', {}, 'Messages'), h('th', {}, 'Link'),
        h('th', { className: 'hide-narrow' }, 'Expires'))),
      h('tbody', {}, linkOrders.nodes.map((o) => h('tr', { dataset: { order: o.id } },
        h('td', {}, h('strong', {}, o.endUserId), h('div', { className: 'muted small' }, o.orgName)),
        h('td', {}, pill(o.status), h('div', { className: 'muted small' }, o.remindersLeft + ' reminder' + (o.remindersLeft === 1 ? '' : 's') + ' left')),
        h('td', {}, deliveries(o)),
        h('td', {}, linkCell(o)),
        h('td', { className: 'hide-narrow' }, fmtTime(o.expiresAt), h('div', { className: 'muted small' }, o.timeZone))))))));
  }

  return { ordersPage };
}
