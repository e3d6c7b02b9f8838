export declare const HEADER_SIGNATURE: 'x-service-signature';
export declare const HEADER_TIMESTAMP: 'x-timestamp';
export declare const DEFAULT_TOLERANCE_SECONDS: number;

export type WebhookFailure = 'missing' | 'stale' | 'signature';

/** A delivery that does not verify. */
export declare class WebhookError extends Error {
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string);
}

export type Body = string | ArrayBuffer | Uint8Array;
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/** The X-Service-Signature of body sent at timestamp (Unix seconds). */
export declare function signature(secret: string, timestamp: number, body: Body): Promise<string>;

/** Rejects with WebhookError unless the raw body carries a valid signature. */
export declare function verifyWebhook(secret: string, headers: HeadersLike, body: Body,
  options?: { toleranceSeconds?: number; now?: number }): Promise<void>;

/** The headers Payline would send with body at time at (Unix seconds), for tests. */
export declare function signWebhook(secret: string, body: Body, at?: number): Promise<Record<string, string>>;
