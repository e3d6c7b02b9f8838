/*
 * Payline Link SDK.
 *
 *   PaylineLink.open({linkToken, sdkVersion, onLogin, onSuccess, onError, onExit, onEvent})
 *   PaylineLink.close()
 *
 * sdkVersion 3 (the default) gives SDK v3 payloads; 2 gives v2's where the
 * spec says they differ: success carries params.amount {value, unit}
 * instead of params.action/allocation, and an input_amount {value, unit}
 * precedes input_allocation for amounts and percentages.
 *
 * open() shows the hosted modal in an iframe served by the same Payline
 * host as this script. The link token is handed to the modal by
 * postMessage, never in a URL. Every client event reaches onEvent(name,
 * payload); login, success, error and exit also reach their own callback
 * with the same payload. exit closes the modal.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var origin = script ? new URL(script.src, window.location.href).origin : window.location.origin;
  var frame = null;
  var options = null;

  function call(fn, arg) {
    if (typeof fn === 'function') {
      try { fn(arg); } catch (e) { setTimeout(function () { throw e; }); }
    }
  }

  function onMessage(event) {
    if (!frame || event.source !== frame.contentWindow || event.origin !== origin) return;
    var msg = event.data || {};
    if (msg.type === 'payline:ready') {
      frame.contentWindow.postMessage({ type: 'payline:init', linkToken: options.linkToken, handoffCode: options.handoffCode,
        sdkVersion: options.sdkVersion || 3 }, origin);
      return;
    }
    if (msg.type !== 'payline:event') return;
    var events = options.sdkVersion === 2 ? toV2(msg.name, msg.payload || {}) : [[msg.name, msg.payload || {}]];
    events.forEach(function (e) { deliver(e[0], e[1]); });
  }

  // toV2 rewrites one v3 event as the events SDK v2 sends for it.
  function toV2(name, payload) {
    var alloc = (payload.params || payload).allocation;
    var amount = alloc && (alloc.type === 'amount' || alloc.type === 'percentage') && alloc.value != null
      ? { value: alloc.value, unit: alloc.type === 'amount' ? '$' : '%' } : null;
    if (name === 'input_allocation') {
      return amount ? [['input_amount', amount], [name, payload]] : [[name, payload]];
    }
    if (name === 'success' && payload.params) {
      var v2 = { accountId: payload.accountId, platformId: payload.platformId, job: payload.job };
      if (amount) v2.params = { amount: amount };
      return [[name, v2]];
    }
    return [[name, payload]];
  }

  function deliver(name, payload) {
    if (typeof options.onEvent === 'function') {
      try { options.onEvent(name, payload); } catch (e) { setTimeout(function () { throw e; }); }
    }
    if (name === 'login') call(options.onLogin, payload);
    if (name === 'success') call(options.onSuccess, payload);
    if (name === 'error') call(options.onError, payload);
    if (name === 'exit') {
      call(options.onExit, payload);
      close();
    }
  }

  function open(opts) {
    // handoffCode is Payline's own continue page's: the code of a
    // hand-off's QR code, which the modal exchanges for the session.
    var code = opts && typeof opts.handoffCode === 'string' && opts.handoffCode !== '';
    if (!opts || (!code && (typeof opts.linkToken !== 'string' || opts.linkToken === ''))) {
      throw new Error('PaylineLink.open needs {linkToken}');
    }
    if (opts.sdkVersion != null && opts.sdkVersion !== 2 && opts.sdkVersion !== 3) {
      throw new Error('PaylineLink.open: sdkVersion must be 2 or 3');
    }
    close();
    options = opts;
    frame = document.createElement('iframe');
    frame.src = origin + '/link/v1/modal';
    frame.title = 'Payline Link';
    frame.id = 'payline-link-frame';
    frame.setAttribute('allow', 'clipboard-write');
    frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;border:0;z-index:2147483647;background:rgba(15,23,42,.55)';
    window.addEventListener('message', onMessage);
    // Keyboard and screen reader users land in the modal.
    frame.addEventListener('load', function () { if (frame) frame.focus(); });
    document.body.appendChild(frame);
  }

  function close() {
    window.removeEventListener('message', onMessage);
    if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
    frame = null;
  }

  window.PaylineLink = { open: open, close: close };
})();
