// The demo page: opens Link with a token and records every client event
// in window.paylineEvents (the browser tests read it) and on the page.
(function () {
  'use strict';
  window.paylineEvents = [];
  window.paylineCallbacks = [];
  var log = document.getElementById('log');
  var input = document.getElementById('token');
  var fromHash = /token=([^&]+)/.exec(window.location.hash);
  if (fromHash) input.value = decodeURIComponent(fromHash[1]);
  function record(kind) {
    return function (payload) { window.paylineCallbacks.push([kind, payload]); };
  }
  document.getElementById('open').onclick = function () {
    PaylineLink.open({
      linkToken: input.value.trim(),
      onEvent: function (name, payload) {
        window.paylineEvents.push([name, payload]);
        log.textContent += name + ' ' + JSON.stringify(payload) + '\n';
      },
      onLogin: record('onLogin'),
      onSuccess: record('onSuccess'),
      onError: record('onError'),
      onExit: record('onExit')
    });
  };
})();
