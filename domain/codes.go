package domain

// Every error code Payline returns, in one place: the `code` of REST error
// bodies, GraphQL's extensions.code, Link's error and exit events, and a
// job's error_code. docs/errors.md lists exactly these (a test checks).
// The spec names only MISSING_FIELDS; the rest are Payline's.

// Request shape and pipeline.
const (
	CodeMissingFields         = "MISSING_FIELDS"
	CodeInvalidFields         = "INVALID_FIELDS"
	CodeMissingServiceVersion = "MISSING_SERVICE_VERSION"
	CodeInvalidServiceVersion = "INVALID_SERVICE_VERSION"
	CodeInvalidJSON           = "INVALID_JSON"
	CodeUnsupportedMediaType  = "UNSUPPORTED_CONTENT_TYPE"
	CodeRequestTooLarge       = "REQUEST_TOO_LARGE"
	CodeInvalidQuery          = "INVALID_QUERY_STRING"
	CodeRouteNotFound         = "ROUTE_NOT_FOUND"
	CodeMethodNotAllowed      = "METHOD_NOT_ALLOWED"
	CodeConflict              = "CONFLICT"
	CodeRateLimitExceeded     = "RATE_LIMIT_EXCEEDED"
	// CodeServerBusy refuses a request when the instance already serves
	// as many as it may at once.
	CodeServerBusy = "SERVER_BUSY"
	// CodeTooManyConcurrent refuses a request when the same key already
	// has as many in flight on this instance as one key may.
	CodeTooManyConcurrent = "TOO_MANY_CONCURRENT_REQUESTS"
	// CodeTooManyFromAddress refuses a request when its client address
	// already has as many at this instance's door (before a credential is
	// checked or a body has arrived) as one address may.
	CodeTooManyFromAddress = "TOO_MANY_CONCURRENT_FROM_ADDRESS"
	// CodeSignInSlowed tells an address trying an e-mail whose sign-ins
	// failed often lately to come back when its turn comes (Retry-After):
	// at that time its password is checked, whoever else guesses.
	CodeSignInSlowed = "SIGN_IN_SLOWED"
	// CodeURITooLong refuses (414) a request whose target (path and query)
	// is over the API's limit.
	CodeURITooLong = "URI_TOO_LONG"
	// CodeClientClosedRequest is the outcome (499, nginx's) of a request
	// whose client left before its answer: logged at INFO and counted,
	// never read by anyone.
	CodeClientClosedRequest = "CLIENT_CLOSED_REQUEST"
	// CodeDocumentsBusy answers 503 an upload or preview that could not
	// get a slot to be read in within DocumentAdmissionConfig.Wait, or
	// that found the instance's queue full: the instance is overloaded
	// with documents; retrying after Retry-After works.
	CodeDocumentsBusy = "DOCUMENTS_BUSY"
	// CodeRequestTimeout ends a request (408) whose body arrived slower
	// than the minimum rate, or not within the read timeout.
	CodeRequestTimeout = "REQUEST_TIMEOUT"
	// CodeServiceUnavailable answers 503 while the database cannot be
	// reached (stopped, restarting, network cut); Retry-After says when to
	// try again.
	CodeServiceUnavailable = "SERVICE_UNAVAILABLE"
	// CodeUpstreamUnavailable answers 503 while a service this one calls
	// out to (a payroll upstream, a connector) cannot be reached: its own
	// code, so a caller never reads it as this service's database.
	CodeUpstreamUnavailable = "UPSTREAM_UNAVAILABLE"
	// CodeDeadlineExceeded is a connector's answer (504) to work whose
	// deadline passed: the connector, not the platform, ran out of time,
	// which Payline reads as the connector being unavailable.
	CodeDeadlineExceeded = "DEADLINE_EXCEEDED"
	// CodeIntrospectionDisabled refuses __schema and __type on a server
	// started with --graphql-introspection=false.
	CodeIntrospectionDisabled = "INTROSPECTION_DISABLED"
	// CodeInvalidWebhookSignature refuses (401) an upstream's delivery
	// whose signature or timestamp does not check out.
	CodeInvalidWebhookSignature = "INVALID_WEBHOOK_SIGNATURE"
	// CodeHTTPSRequired refuses a plain-HTTP request that reached a
	// production or development server through a TLS proxy (--trust-proxy).
	CodeHTTPSRequired = "HTTPS_REQUIRED"
	// CodeHeadersTooLarge refuses headers over the API's limit.
	CodeHeadersTooLarge = "HEADERS_TOO_LARGE"
	CodeUnknown         = "UNKNOWN_ERROR"
)

// GraphQL.
const (
	// CodeComplexityLimit refuses a query whose cost, computed before it
	// runs, is over the limit (gqlgen's code, kept).
	CodeComplexityLimit = "COMPLEXITY_LIMIT_EXCEEDED"
	// CodeDepthLimit refuses a query nested deeper than the limit.
	CodeDepthLimit = "DEPTH_LIMIT_EXCEEDED"
	// CodeQueryTooLarge refuses a document over the text bounds (tokens,
	// fields once fragments are spread, repeats of one field, fragments)
	// before it is validated.
	CodeQueryTooLarge = "QUERY_TOO_LARGE"
	// CodeSubscriptionNeedsWebsocket refuses a subscription sent over
	// plain HTTP, where it could never answer.
	CodeSubscriptionNeedsWebsocket = "SUBSCRIPTION_REQUIRES_WEBSOCKET"
	// CodeTooManySubscriptions refuses a subscription over the limit of
	// one websocket, or of one credential on this instance.
	CodeTooManySubscriptions = "TOO_MANY_SUBSCRIPTIONS"
	// CodeTooManyConnections refuses a websocket over the limit of one
	// credential on this instance.
	CodeTooManyConnections = "TOO_MANY_CONNECTIONS"
	// CodeOperationTimeout ends an operation that ran past its deadline.
	CodeOperationTimeout = "OPERATION_TIMEOUT"
)

// Authentication.
const (
	CodeMissingAPISecret   = "MISSING_API_SECRET"
	CodeInvalidAPISecret   = "INVALID_API_SECRET"
	CodeRevokedAPISecret   = "REVOKED_API_SECRET"
	CodeWrongModeAPISecret = "WRONG_MODE_API_SECRET"
	CodeExpiredAPISecret   = "EXPIRED_API_SECRET"
	// The admin API's bearer token and the dashboard's session.
	CodeMissingAdminToken = "MISSING_ADMIN_TOKEN"
	CodeInvalidAdminToken = "INVALID_ADMIN_TOKEN"
	CodeExpiredAdminToken = "EXPIRED_ADMIN_TOKEN"
	// CodeRoleForbidden refuses a change the member's role may not make.
	CodeRoleForbidden = "ROLE_FORBIDDEN"
	// CodeCrossOrigin refuses a cookie-authenticated write from another site.
	CodeCrossOrigin = "CROSS_ORIGIN_REQUEST"
)

// Records that do not exist for the caller.
const (
	CodeEmployerNotFound  = "EMPLOYER_NOT_FOUND"
	CodePlatformNotFound  = "PLATFORM_NOT_FOUND"
	CodeCustomerNotFound  = "CUSTOMER_NOT_FOUND"
	CodeAPIKeyNotFound    = "API_KEY_NOT_FOUND"
	CodeMemberNotFound    = "MEMBER_NOT_FOUND"
	CodeAccountNotFound   = "ACCOUNT_NOT_FOUND"
	CodeJobNotFound       = "JOB_NOT_FOUND"
	CodeLinkTokenNotFound = "LINK_TOKEN_NOT_FOUND"
	CodeWebhookNotFound   = "WEBHOOK_NOT_FOUND"
	CodeEndUserNotFound   = "END_USER_NOT_FOUND"
	CodeDocumentNotFound  = "DOCUMENT_NOT_FOUND"
	// CodeDocumentPageNotFound answers a page past the last of an
	// uploaded document's file.
	CodeDocumentPageNotFound = "DOCUMENT_PAGE_NOT_FOUND"
	CodePaystubNotFound      = "PAYSTUB_NOT_FOUND"
	CodeTaxFormNotFound      = "TAX_FORM_NOT_FOUND"
	CodeProductNotFound      = "PRODUCT_NOT_FOUND"
	CodeNotSandbox           = "SANDBOX_ONLY"
	// CodeLinkOrderNotFound answers an order id the caller has no order
	// with, and an order link no order has.
	CodeLinkOrderNotFound = "LINK_ORDER_NOT_FOUND"
)

// Reviews of uploaded documents (a conflict with the document's state).
const (
	// CodeDocumentAlreadyReviewed refuses a second review of a document.
	CodeDocumentAlreadyReviewed = "DOCUMENT_ALREADY_REVIEWED"
	// CodeDocumentReviewNotRequired refuses a review of a document whose
	// checks left nothing for a person to settle.
	CodeDocumentReviewNotRequired = "DOCUMENT_REVIEW_NOT_REQUIRED"
)

// Link orders.
const (
	// CodeLinkOrderClosed refuses (400, a conflict with the order's state) to resend or cancel an order that
	// is completed, expired or (for a resend) canceled.
	CodeLinkOrderClosed = "LINK_ORDER_CLOSED"
)

// Disputes (docs/disputes.md).
const (
	// CodeDisputeNotFound answers a dispute id the caller has no dispute
	// with (another customer's included).
	CodeDisputeNotFound = "DISPUTE_NOT_FOUND"
	// CodeDisputeItemNotFound refuses a dispute of an item the end user
	// does not have at this customer.
	CodeDisputeItemNotFound = "DISPUTE_ITEM_NOT_FOUND"
	// CodeDisputeStatusConflict refuses a move the dispute's state machine
	// does not allow (resolving an open dispute before investigating it,
	// investigating twice).
	CodeDisputeStatusConflict = "DISPUTE_STATUS_CONFLICT"
	// CodeDisputeResolved refuses a change to a resolved dispute.
	CodeDisputeResolved = "DISPUTE_RESOLVED"
)

// Download links.
const (
	// CodeDownloadLinkInvalid answers an expired, altered or foreign
	// download link (403).
	CodeDownloadLinkInvalid = "DOWNLOAD_LINK_INVALID"
)

// A Link hand-off's code (the QR code that continues Link on a phone)
// that is unknown or already used, or that expired.
const (
	CodeLinkHandoffInvalid = "LINK_HANDOFF_INVALID"
	CodeLinkHandoffExpired = "LINK_HANDOFF_EXPIRED"
)

// The person's own page (portal.go): a portal link that is unknown or
// used, or expired; a page asked for without a live session (401); a
// fresh link asked for with no address on file to send it to; a receipt
// asked for before Link connected or uploaded anything.
const (
	CodePortalLinkInvalid    = "PORTAL_LINK_INVALID"
	CodePortalLinkExpired    = "PORTAL_LINK_EXPIRED"
	CodePortalSessionInvalid = "PORTAL_SESSION_INVALID"
	CodePortalNoAddress      = "PORTAL_NO_ADDRESS"
	CodeLinkNotCompleted     = "LINK_NOT_COMPLETED"
)

// Link: logins, tokens and platforms.
const (
	CodeInvalidCredentials  = "INVALID_CREDENTIALS"
	CodeInvalidMFACode      = "INVALID_MFA_CODE"
	CodeMFARequired         = "MFA_REQUIRED"
	CodeAccountLocked       = "ACCOUNT_LOCKED"
	CodeLinkTokenInvalid    = "LINK_TOKEN_INVALID"
	CodeLinkTokenExpired    = "LINK_TOKEN_EXPIRED"
	CodeLinkTokenUsed       = "LINK_TOKEN_USED"
	CodePlatformUnavailable = "PLATFORM_UNAVAILABLE"
	CodeUnsupportedJobs     = "UNSUPPORTED_JOBS"
	CodeAccountDisconnected = "ACCOUNT_DISCONNECTED"
)

// Link's document uploads.
const (
	// CodeUploadTooLargeInflated refuses an upload with a file whose
	// compressed content inflates past MaxUploadInflatedBytes when read.
	CodeUploadTooLargeInflated = "UPLOAD_TOO_LARGE_INFLATED"
	// CodeUploadTooSlowToRead refuses an upload or preview whose files
	// took longer than the reading limit (MaxUploadReading) to read.
	CodeUploadTooSlowToRead = "UPLOAD_TOO_SLOW_TO_READ"
)

// Webhooks.
const (
	CodeWebhookLimit = "WEBHOOK_LIMIT_REACHED"
)

// Job error codes: a job's error_code, and the code of Link's error event
// when a job does not succeed.
const (
	CodeJobPending            = "JOB_PENDING"
	CodePendingTimeout        = "PENDING_TIMEOUT"
	CodeSandboxJobError       = "SANDBOX_JOB_ERROR"
	CodeSandboxPendingExpired = "SANDBOX_PENDING_EXPIRED"
	CodeUnknownConnection     = "UNKNOWN_CONNECTION"
	// CodeInvalidConnectorData: the source (a connector, an upstream, the
	// sandbox) sent a product that fails its type's Validate; nothing of
	// it is stored and the previous good data stays served.
	CodeInvalidConnectorData = "INVALID_CONNECTOR_DATA"
)

// ErrorTypePlatform is the error_type of a job the platform could not do.
const ErrorTypePlatform = "PLATFORM_ERROR"

// LinkErrorType groups the codes Link shows into the error types
// docs/link.md lists: what the end user can fix, a token to replace, the
// platform, or the service.
func LinkErrorType(code string) string {
	switch code {
	case CodeInvalidCredentials, CodeInvalidMFACode, CodeAccountLocked, CodeMFARequired:
		return "USER_ACTION_REQUIRED"
	case CodeLinkTokenInvalid, CodeLinkTokenExpired, CodeLinkTokenUsed, CodeLinkHandoffInvalid, CodeLinkHandoffExpired:
		return "INVALID_LINK_TOKEN"
	case CodePlatformUnavailable:
		return ErrorTypePlatform
	case CodeUnknown:
		return "UNKNOWN_ERROR"
	case CodeServiceUnavailable, CodeUpstreamUnavailable, CodeDocumentsBusy:
		return "SERVICE_UNAVAILABLE"
	}
	return "INVALID_REQUEST"
}
