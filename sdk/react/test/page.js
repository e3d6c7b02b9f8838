// The page the browser test (sdk/react_test.go) mounts the wrapper in,
// bundled with React by esbuild (npm run build:test-page): no CDN. It
// records every event and callback for the test to read.
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PaylineLink } from '../index.js';

window.paylineEvents = [];
window.paylineCallbacks = [];
const token = new URLSearchParams(window.location.hash.slice(1)).get('token');

function App() {
  const [mounted, setMounted] = useState(true);
  window.unmountLink = () => setMounted(false);
  if (!mounted) return createElement('p', { id: 'unmounted' }, 'The button is gone.');
  return createElement(PaylineLink, {
    linkToken: token,
    serverUrl: window.location.origin,
    className: 'connect',
    onEvent: (name, payload) => window.paylineEvents.push([name, payload]),
    onSuccess: (payload) => window.paylineCallbacks.push(['onSuccess', payload]),
    onExit: (payload) => window.paylineCallbacks.push(['onExit', payload]),
  }, 'Connect your payroll');
}

createRoot(document.getElementById('root')).render(createElement(App));
