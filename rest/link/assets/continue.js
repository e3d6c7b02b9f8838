// The page a Link hand-off's QR code opens on a phone: the code is in the
// URL's fragment, which never reaches a server; it is taken out of the
// address bar at once and handed to the modal, which exchanges it, once,
// for this phone's key to the same session and continues at the step the
// computer was at. Link's events stay on this page (window.paylineEvents,
// for the browser tests); the integrator's page hears of the outcome
// through its webhooks.
(function () {
  'use strict';
  window.paylineEvents = [];
  var status = document.getElementById('status');
  var match = /code=([^&]+)/.exec(window.location.hash);
  if (!match) {
    status.textContent = 'This link is incomplete. On your computer, choose "Continue on your phone" again and scan the new code.';
    return;
  }
  var code = decodeURIComponent(match[1]);
  history.replaceState(null, '', window.location.pathname);
  status.textContent = '';
  PaylineLink.open({
    handoffCode: code,
    onEvent: function (name, payload) { window.paylineEvents.push([name, payload]); },
    onExit: function () { status.textContent = 'You can close this window now.'; }
  });
})();
