// A legacy hosted site (POST /v1/sites): opens Link full-page with the
// token from the URL's fragment and, when Link ends, sends the browser to
// the site's redirect_url with the outcome in the query string:
//   outcome=success&link_token_id=…&account_id=…&platform_id=…&job=…
//   outcome=error&link_token_id=…&error_type=…&error_code=…
//   outcome=exit&link_token_id=…            (the user closed Link)
(function () {
  'use strict';
  var status = document.getElementById('status');
  var match = /token=([^&]+)/.exec(window.location.hash);
  if (!match) {
    status.textContent = 'This link is incomplete. Go back to the site that sent you here and start again.';
    return;
  }
  var token = decodeURIComponent(match[1]);
  history.replaceState(null, '', window.location.pathname); // the token leaves the address bar
  var session = null;
  var result = null;
  var lastError = null;

  function finish() {
    var target = session && session.redirect_url;
    var url;
    try { url = target ? new URL(target) : null; } catch (e) { url = null; }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      status.textContent = 'You can close this window now.';
      return;
    }
    var q = url.searchParams;
    if (session.link_token_id) q.set('link_token_id', session.link_token_id);
    if (result) {
      q.set('outcome', 'success');
      q.set('account_id', result.accountId || '');
      q.set('platform_id', result.platformId || '');
      q.set('job', result.job || '');
    } else if (lastError) {
      q.set('outcome', 'error');
      q.set('error_type', lastError.type || '');
      q.set('error_code', lastError.code || '');
    } else {
      q.set('outcome', 'exit');
    }
    status.textContent = 'Returning you to ' + url.host + '…';
    window.location.assign(url.toString());
  }

  fetch('/link/v1/api/session', { headers: { 'Authorization': 'Bearer ' + token } })
    .then(function (res) { return res.json(); })
    .then(function (data) { if (data && data.org_name) session = data; }, function () {})
    .then(function () {
      status.textContent = '';
      PaylineLink.open({
        linkToken: token,
        onSuccess: function (p) { result = p; },
        onError: function (e) { lastError = e; },
        onExit: function (e) { if (e && e.code && !result) lastError = e; finish(); }
      });
    });
})();
