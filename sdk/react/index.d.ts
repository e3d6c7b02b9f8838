import type { ReactElement, ReactNode } from 'react';

/** The allocation of a switch, as Link reports it (SDK v3). */
export interface LinkAllocation {
  type: 'remainder' | 'amount' | 'percentage';
  /** Dollars for amount, the whole percentage for percentage. */
  value?: number;
}

/** success (SDK v3): once per successful switch, or on login for read-only jobs. */
export interface LinkSuccess {
  accountId: string;
  platformId: string;
  job: 'login' | 'direct_deposit_switch' | (string & {});
  params?: { action: 'full_switch' | 'partial_switch'; allocation?: LinkAllocation };
}

/** error, and exit with an error: docs/link.md lists the types and codes. */
export interface LinkError {
  type: string;
  code: string;
  message: string;
  /** True when the failed job is retried within 24 hours, the result arriving by webhook. */
  pendingRetry: boolean;
}

/** exit: empty without an error. */
export type LinkExit = Partial<LinkError>;

export interface LinkLogin {
  platformId: string;
  accountId: string;
}

/** The client events of SDK v3 and their payloads. Unknown future events arrive as Record<string, unknown>. */
export interface LinkEvents {
  open: Record<string, never>;
  exit: LinkExit;
  success: LinkSuccess;
  error: LinkError;
  select_employer: { selectedEmployerId: string; selectedEmployerName: string };
  select_platform: { selectedPlatformId: string; selectedPlatformName: string };
  incorrect_platform_given: Record<string, never>;
  login_attempt: { platformId: string };
  login: LinkLogin;
  input_allocation: { action?: 'full_switch' | 'partial_switch'; allocation?: LinkAllocation };
  doc_uploads_begin: Record<string, never>;
  doc_uploads_submitted: { uploadedDocumentSubmittedCount: number };
  dd_form_begin: Record<string, never>;
  dd_form_create: { url: string };
  dd_form_download: Record<string, never>;
  screen_transition: {
    screen_name: 'SEARCH_DEFAULT' | 'SEARCH_RESULTS' | 'SEARCH_PLATFORM_ONLY' | 'PROVIDER_CONFIRMATION' | 'LOGIN' |
      'DD_AMOUNT_SELECTION' | 'DD_CONFIRMATION' | 'JOB_SUCCESS' | 'JOB_ERROR' | 'EXIT_CONFIRMATION' | (string & {});
    selectedEmployerId?: string;
    selectedEmployerName?: string;
    selectedPlatformId?: string;
    selectedPlatformName?: string;
  };
  other_event: Record<string, unknown>;
}

export type LinkEventName = keyof LinkEvents;

/** onEvent's argument pairs: a known event with its payload, or an unknown one. */
export type LinkEventHandler = <N extends LinkEventName | (string & {})>(
  name: N,
  payload: N extends LinkEventName ? LinkEvents[N] : Record<string, unknown>,
) => void;

export interface PaylineLinkOptions {
  /** data.token of POST /v1/link_tokens, created by your server. */
  linkToken: string;
  /** Your Payline server's address; link.js is loaded from {serverUrl}/link/v1/link.js. The page's origin when empty. */
  serverUrl?: string;
  /** 3 (the default) or 2, for SDK v2's payloads. */
  sdkVersion?: 2 | 3;
  onSuccess?: (payload: LinkSuccess) => void;
  onExit?: (payload: LinkExit) => void;
  onEvent?: LinkEventHandler;
  onLogin?: (payload: LinkLogin) => void;
  onError?: (payload: LinkError) => void;
}

export interface PaylineLinkHandle {
  /** Opens the modal; throws until ready. */
  open(): void;
  /** Closes the modal if this hook opened it. */
  close(): void;
  /** True once link.js has loaded. */
  ready: boolean;
  /** Why link.js could not load, if it could not. */
  error: Error | null;
}

export declare function usePaylineLink(options: PaylineLinkOptions): PaylineLinkHandle;

export interface PaylineLinkProps extends PaylineLinkOptions {
  className?: string;
  /** The button's label (default "Connect your payroll"). */
  children?: ReactNode;
}

/** A button that opens Link, disabled until the SDK has loaded. */
export declare function PaylineLink(props: PaylineLinkProps): ReactElement;
