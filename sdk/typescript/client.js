// Payline's API client: every endpoint of docs/openapi.yaml, typed by
// schema.d.ts (generated with openapi-typescript) and called through
// openapi-fetch, with the Service-Version header pinned per client,
// retries that honour 429 Retry-After, pagination and typed errors.
import createFetchClient from 'openapi-fetch';

/** The API version (Service-Version) this library was generated from. */
export const API_VERSION = '2025-07-08';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** An answer of 400 or more: the API's error body and the request id to quote to support. */
export class PaylineError extends Error {
  constructor(status, type, code, message, requestId, retryAfter) {
    let text = `payline: ${status} ${type}${code ? '/' + code : ''}`;
    if (message) text += `: ${message}`;
    if (requestId) text += ` (request ${requestId})`;
    super(text);
    this.name = 'PaylineError';
    this.status = status;
    this.type = type;
    this.code = code;
    this.detail = message;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/**
 * A client of the server at serverUrl (scheme, host and port; a trailing /v1
 * is accepted) that authenticates with secret, an API key's secret.
 *
 * A 429 is retried after its Retry-After whatever the method (the server
 * refused it before doing anything); a lost connection, 502, 503 or 504 only
 * for GET, HEAD, PUT and DELETE, because the API's POST and PATCH calls take
 * no idempotency key and may have been done. A Retry-After beyond maxWait
 * seconds is thrown rather than waited out. Every answer of 400 or more
 * rejects with a PaylineError, so a call that resolves has its data.
 */
export function createClient(serverUrl, secret, options = {}) {
  const {
    version = API_VERSION, adminToken = '', maxRetries = 4, maxWait = 30, fetch: baseFetch = globalThis.fetch,
  } = options;
  const root = serverUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  if (!/^https?:\/\//.test(root)) throw new TypeError(`payline: server URL ${JSON.stringify(serverUrl)} needs http:// or https://`);

  const headers = { 'Service-Version': version };
  if (secret) headers['x-api-secret'] = secret;
  if (adminToken) headers.authorization = `Bearer ${adminToken}`;

  async function send(request) {
    for (let attempt = 0; ; attempt++) {
      let response;
      let failure;
      try {
        response = await baseFetch(request.clone());
      } catch (e) {
        failure = e;
      }
      if (response && response.ok) return response;
      if (response) failure = await readError(response);
      const wait = retryAfter(request.method, failure, attempt, maxRetries, maxWait);
      if (wait === undefined) throw failure;
      await sleep(wait, request.signal);
    }
  }

  const client = createFetchClient({ baseUrl: root + '/v1', headers, fetch: send });
  const files = createFetchClient({ baseUrl: root, headers, fetch: send });

  /**
   * Yields the items of every page of a GET list, following meta.next_cursor;
   * a page is fetched only when the loop reaches it.
   */
  async function* paginate(path, init = {}) {
    let cursor;
    for (;;) {
      const params = { ...init.params, query: { ...init.params?.query, cursor } };
      const { data } = await client.GET(path, { ...init, params });
      yield* data.data;
      cursor = data.meta?.next_cursor;
      if (!cursor) return;
    }
  }

  /** Fetches a document by the signed link a report or document answer gave. */
  async function download(path, init) {
    return files.GET(path, { parseAs: 'arrayBuffer', ...init });
  }

  return Object.assign(client, { paginate, download });
}

function retryAfter(method, failure, attempt, maxRetries, maxWait) {
  if (attempt >= maxRetries) return undefined;
  const api = failure instanceof PaylineError;
  if (api && failure.status !== 429 && !(IDEMPOTENT.has(method) && [502, 503, 504].includes(failure.status))) return undefined;
  if (!api && !IDEMPOTENT.has(method)) return undefined;
  if (!api && failure?.name === 'AbortError') return undefined;
  let wait = 0.1 * 2 ** attempt + Math.random() * 0.05;
  if (api && failure.retryAfter) wait = failure.retryAfter;
  return wait <= maxWait ? wait : undefined;
}

async function readError(response) {
  const text = await response.text();
  const requestId = response.headers.get('x-service-request-id') ?? '';
  let retryAfter;
  const ra = response.headers.get('retry-after');
  if (ra) {
    retryAfter = /^\d+$/.test(ra) ? Number(ra) : Math.max((Date.parse(ra) - Date.now()) / 1000, 0) || undefined;
  }
  try {
    const { error } = JSON.parse(text);
    if (error?.type) return new PaylineError(response.status, error.type, error.code ?? '', error.message ?? '', requestId, retryAfter);
  } catch {
    // not the API's JSON: a proxy's page, say
  }
  return new PaylineError(response.status, response.statusText, '', text.slice(0, 200).trim(), requestId, retryAfter);
}

function sleep(seconds, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
