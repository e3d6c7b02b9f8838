// @payline/link-react: Payline Link in a React app. The hook loads the Link
// SDK (link.js) from your Payline server once per page, opens the modal with
// a link token your server created, hands every client event to your
// callbacks, and closes the modal when the component unmounts.
import { createElement, useCallback, useEffect, useRef, useState } from 'react';

// scripts holds one load per SDK address, shared by every hook on the page.
const scripts = new Map();

function loadSDK(src) {
  if (typeof window !== 'undefined' && window.PaylineLink) return Promise.resolve(window.PaylineLink);
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => (window.PaylineLink ? resolve(window.PaylineLink) : reject(new Error(`${src} did not define PaylineLink`)));
      script.onerror = () => {
        scripts.delete(src);
        script.remove();
        reject(new Error(`could not load the Payline Link SDK from ${src}`));
      };
      document.head.appendChild(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

/**
 * usePaylineLink({linkToken, serverUrl, sdkVersion, onSuccess, onExit, onEvent, onLogin, onError})
 * returns {open, close, ready, error}. serverUrl is your Payline server's
 * address (the page's own origin when empty); the latest callbacks are
 * always the ones called.
 */
export function usePaylineLink(options) {
  const { linkToken, serverUrl = '', sdkVersion = 3 } = options;
  const callbacks = useRef(options);
  callbacks.current = options;
  const opened = useRef(false);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState(null);

  const src = `${serverUrl.replace(/\/+$/, '')}/link/v1/link.js`;
  useEffect(() => {
    let live = true;
    loadSDK(src).then(
      () => live && setReady(true),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [src]);

  const close = useCallback(() => {
    if (opened.current && typeof window !== 'undefined' && window.PaylineLink) window.PaylineLink.close();
    opened.current = false;
  }, []);

  // Unmounting closes an open modal and stops its message listener.
  useEffect(() => close, [close]);

  const open = useCallback(() => {
    if (!window.PaylineLink) throw new Error('usePaylineLink: the Link SDK has not loaded yet (wait for ready)');
    const call = (name) => (payload) => {
      const fn = callbacks.current[name];
      if (typeof fn === 'function') fn(payload);
    };
    window.PaylineLink.open({
      linkToken,
      sdkVersion,
      onEvent: (name, payload) => {
        const fn = callbacks.current.onEvent;
        if (typeof fn === 'function') fn(name, payload);
      },
      onLogin: call('onLogin'),
      onSuccess: call('onSuccess'),
      onError: call('onError'),
      onExit: (payload) => {
        opened.current = false;
        call('onExit')(payload);
      },
    });
    opened.current = true;
  }, [linkToken, sdkVersion]);

  return { open, close, ready, error };
}

/**
 * <PaylineLink linkToken=... onSuccess=...>Connect your payroll</PaylineLink>:
 * a button that opens Link, disabled until the SDK has loaded. Takes the
 * hook's options and className; children are the label.
 */
export function PaylineLink(props) {
  const { children = 'Connect your payroll', className, ...options } = props;
  const { open, ready } = usePaylineLink(options);
  return createElement('button', { type: 'button', className, disabled: !ready || !options.linkToken, onClick: open }, children);
}
