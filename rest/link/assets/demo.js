// The demo page: opens Link with a token and records every client event
// in window.paylineEvents (the browser tests read it) and on the page,
// newest first.
(function () {
  'use strict';
  window.paylineEvents = [];
  window.paylineCallbacks = [];
  var log = document.getElementById('log');
  var empty = document.getElementById('empty');
  var count = document.getElementById('count');
  var input = document.getElementById('token');
  var fromHash = /token=([^&]+)/.exec(window.location.hash);
  if (fromHash) input.value = decodeURIComponent(fromHash[1]);
  var sdk = /sdk=(\d)/.exec(window.location.hash); // #token=…&sdk=2 tries SDK v2's payloads
  var sdkVersion = sdk ? Number(sdk[1]) : 3;
  function record(kind) {
    return function (payload) { window.paylineCallbacks.push([kind, payload]); };
  }
  function show(name, payload) {
    var li = document.createElement('li');
    var n = document.createElement('span');
    n.className = 'n';
    n.textContent = String(window.paylineEvents.length);
    var title = document.createElement('span');
    title.className = 'name';
    title.textContent = name;
    var body = document.createElement('pre');
    body.textContent = JSON.stringify(payload, null, 2);
    li.append(n, title, body);
    // Newest first: on a phone the latest event is what one looks for,
    // and it stays above the fold; the numbers keep the order.
    log.prepend(li);
    empty.hidden = true;
    count.textContent = '(' + window.paylineEvents.length + ', newest first)';
  }
  document.getElementById('open').onclick = function () {
    PaylineLink.open({
      linkToken: input.value.trim(),
      sdkVersion: sdkVersion,
      onEvent: function (name, payload) {
        window.paylineEvents.push([name, payload]);
        show(name, payload);
      },
      onLogin: record('onLogin'),
      onSuccess: record('onSuccess'),
      onError: record('onError'),
      onExit: record('onExit')
    });
  };
})();
