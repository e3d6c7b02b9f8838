/*
 * Payline Link SDK (v3 payloads).
 *
 *   PaylineLink.open({linkToken, onLogin, onSuccess, onError, onExit, onEvent})
 *   PaylineLink.close()
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
      frame.contentWindow.postMessage({ type: 'payline:init', linkToken: options.linkToken }, origin);
      return;
    }
    if (msg.type !== 'payline:event') return;
    var name = msg.name;
    var payload = msg.payload || {};
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
    if (!opts || typeof opts.linkToken !== 'string' || opts.linkToken === '') {
      throw new Error('PaylineLink.open needs {linkToken}');
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
