import type { Client, FetchOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** The API version (Service-Version) this library was generated from. */
export declare const API_VERSION: '2025-07-08';

/** An answer of 400 or more: the API's error body and the request id to quote to support. */
export declare class PaylineError extends Error {
  readonly status: number;
  /** Such as INVALID_REQUEST_PAYLOAD or RATE_LIMIT_EXCEEDED. */
  readonly type: string;
  /** Such as UNKNOWN_FIELDS; docs/errors.md lists them. */
  readonly code: string;
  /** The API's message. */
  readonly detail: string;
  /** x-service-request-id. */
  readonly requestId: string;
  /** Retry-After in seconds, when the answer had one. */
  readonly retryAfter?: number;
}

export interface ClientOptions {
  /** Another API version than API_VERSION. */
  version?: string;
  /** A token of POST /admin/token, for the /admin endpoints. */
  adminToken?: string;
  /** Retries of one call (default 4). */
  maxRetries?: number;
  /** The longest wait before a retry, in seconds (default 30). */
  maxWait?: number;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: (input: Request) => Promise<Response>;
}

/** The GET paths whose answers are pages ({data: [...], meta: {next_cursor}}). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: { cursor?: unknown } } } } ? P : never;
}[keyof paths];

/** The item type of a list path's pages. */
export type ListItem<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: (infer T)[] } } } } };
}
  ? T
  : never;

type ListInit<P extends ListPath> = Omit<FetchOptions<paths[P]['get']>, 'params'> & {
  params?: Omit<NonNullable<FetchOptions<paths[P]['get']>['params']>, 'query'> & {
    query?: Omit<NonNullable<NonNullable<FetchOptions<paths[P]['get']>['params']>['query']>, 'cursor'>;
  };
};

export interface PaylineClient extends Client<paths> {
  /** Yields the items of every page, following meta.next_cursor; a page is fetched only when the loop reaches it. */
  paginate<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** Fetches a document (GET /files/{document_id}) by the signed link a report or document answer gave. */
  download(
    path: '/files/{document_id}',
    init: { params: { path: { document_id: string }; query: { expires: number | string; signature: string } } },
  ): Promise<{ data?: ArrayBuffer; response: Response }>;
}

/**
 * A client of the server at serverUrl (scheme, host and port; a trailing /v1 is accepted) that
 * authenticates with secret, an API key's secret.
 */
export declare function createClient(serverUrl: string, secret: string, options?: ClientOptions): PaylineClient;
