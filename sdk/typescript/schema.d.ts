// Generated from docs/openapi.yaml (API version 2025-07-08) by generate.mjs with openapi-typescript. DO NOT EDIT.

export interface paths {
    "/employers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List employers, ordered by name. */
        get: operations["listEmployers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/employers/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Look an employer up by EIN. */
        get: operations["lookupEmployer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/employers/{employer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getEmployer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/platforms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List platforms, ordered by name. ESPs only with include_esps=true. */
        get: operations["listPlatforms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/platforms/{platform_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPlatform"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search employers and platforms by name.
         * @description Exact name matches rank first, then names starting with q, then
         *     names with a later word starting with q, then names containing q;
         *     by name within each tier. Case and punctuation are ignored.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a link token that starts Link; it expires after one hour and is single-use. */
        post: operations["createLinkToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Jobs started through Link that have an outcome, newest first; monitoring refreshes are not listed. */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a workspace member in to the admin API; the token lasts one hour.
         * @description Every refusal is INVALID_CREDENTIALS (401), whether the e-mail or the
         *     password was wrong. After five failures for one e-mail, or from one
         *     client address, attempts are refused with 429 and Retry-After until
         *     a minute has passed per further attempt, counted by every instance
         *     alike. Send the token as
         *     `Authorization: Bearer <token>` to the other /admin endpoints.
         */
        post: operations["adminToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's API keys in this server's mode, newest first (never their secrets). Every role may list. */
        get: operations["listAPIKeys"];
        put?: never;
        /**
         * Administrators only. Creates a key; its secret is in this response only.
         * @description expires_at (RFC 3339, or "2006-01-02 15:04:05" as UTC) makes a key
         *     that stops authenticating then (EXPIRED_API_SECRET): create the new
         *     key, move your services to it, and let the old one lapse.
         */
        post: operations["createAPIKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api_keys/{api_key}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Administrators only. Revokes a key of the workspace; every instance refuses its secret within a second. */
        post: operations["revokeAPIKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's members by e-mail, in one page (never their passwords). Every role may list. */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/members/{member_id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Administrators only. Ends every session of a member of the workspace, dashboard sign-ins and admin tokens alike, in every mode.
         * @description The member's tokens and cookies are refused at once (401
         *     INVALID_ADMIN_TOKEN), and its GraphQL websockets close at their next
         *     credential check. The administrator's own id ends its own sessions
         *     too. Written to the audit log as member.sessions_ended. A member of
         *     another workspace is MEMBER_NOT_FOUND (404), as an unknown id is. A
         *     member signs out of one session with DELETE /dashboard/session and
         *     the session's token (Authorization: Bearer) or cookie.
         */
        delete: operations["endMemberSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Legacy. A hosted Link page (no SDK needed) for a legacy switch or payment token, which sends the browser to redirect_url when Link ends.
         * @description The url's fragment carries the link token. When Link ends the page
         *     redirects to redirect_url with outcome (success, error or exit),
         *     link_token_id and, on success, account_id, platform_id and job, or
         *     on error error_type and error_code, added to its query string.
         *     Only http:// and https:// redirect URLs are accepted. Each site is
         *     its own end user (end_user_id site_<uuid>).
         */
        post: operations["createSite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_tokens/{token_id}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated in favour of GET /jobs?link_token_id=. The token's finished jobs, oldest first, as a bare array in the legacy job shape.
         * @deprecated
         * @description Only jobs whose outcome is success or error; params.amount (cents
         *     or null) as versions before 2023-11-22 show it, whatever
         *     Service-Version says. Answers carry `Deprecation: @1700611200`
         *     (RFC 9745: 2023-11-22) and `Link: </v1/jobs?link_token_id=ID>;
         *     rel="successor-version"`.
         */
        get: operations["legacyTokenJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Payroll accounts, newest first. */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listEndUserAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/portal_links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A link to the person's own page (docs/person.md), to hand to them in your own app: single-use, it expires in 15 minutes and signs them in to a page that shows only their data at your company, where they can download their reports and take consent back. It holds no API key and no link token. 404 END_USER_NOT_FOUND for an end user with neither accounts nor documents. */
        post: operations["createPortalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/link_sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only (404 elsewhere). Completes Link without a browser, through the same code as the modal. */
        post: operations["sandboxLinkSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Sandbox only (404 elsewhere). Sets monitoring_status, e.g. user_action_required to simulate a broken connection. */
        patch: operations["sandboxPatchAccount"];
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The customer's webhooks in this mode, oldest first. */
        get: operations["listWebhooks"];
        put?: never;
        /** Register a webhook. At most 10 per API key; the eleventh is 400 WEBHOOK_LIMIT_REACHED. */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        get: operations["getWebhook"];
        /** Change url, enabled_events or status (active resumes a paused webhook). The version cannot change. */
        put: operations["updateWebhook"];
        post?: never;
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every delivery attempt to the webhook, newest first. */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_listeners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sandbox and development only. A websocket that receives this key's webhook deliveries (payline webhooks listen).
         * @description Upgrades to a websocket with subprotocol payline-webhooks-listen.v1
         *     (docs/webhooks.md). The server registers a webhook whose url is
         *     payline-listen://<id>, sends {"type":"ready"} and then one
         *     {"type":"delivery", delivery_id, event, event_id, headers, body}
         *     per event; the client answers each with {"type":"answer",
         *     delivery_id, status_code, error}, which the delivery log records.
         *     Closing the socket deletes the webhook. In production: 404 SANDBOX_ONLY.
         */
        get: operations["openWebhookListener"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/upstream/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Development and production with --upstream-url only. Receives the upstream's webhook deliveries (docs/upstreams.md).
         * @description Registered at the upstream by serve itself. The delivery's
         *     x-service-signature (or x-pinwheel-signature) must be v2= and the
         *     hex HMAC-SHA256, keyed with the upstream secret, of
         *     "v2:" + x-timestamp + ":" + body, with x-timestamp within 5
         *     minutes; otherwise 401 INVALID_WEBHOOK_SIGNATURE and nothing
         *     changes. The account the event names is read back from the
         *     upstream and stored here before the 200; 503 UPSTREAM_UNAVAILABLE
         *     when it cannot be, so the upstream delivers again. Replays change
         *     nothing.
         */
        post: operations["receiveUpstreamWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. No secret needed. */
        get: operations["getOpenAPI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connector-protocol.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The connector protocol's OpenAPI document (docs/connectors.md). No secret needed. */
        get: operations["getConnectorProtocol"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox only (404 elsewhere). Sends a signed webhook.test event now and returns the logged attempt. */
        post: operations["sandboxTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's identity; 404 PRODUCT_NOT_FOUND (naming the job that produces it) until a job has. */
        get: operations["getIdentity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/employment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's employment; 404 PRODUCT_NOT_FOUND (naming the job that produces it) until a job has. */
        get: operations["getEmployment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/income": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's income; 404 PRODUCT_NOT_FOUND (naming the job that produces it) until a job has. */
        get: operations["getIncome"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/direct_deposit_allocations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's direct deposit allocations; 404 PRODUCT_NOT_FOUND (naming the job that produces it) until a job has. */
        get: operations["getDirectDepositAllocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/paystubs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Paystubs by pay date, newest first. */
        get: operations["listPaystubs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/paystubs/{paystub_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPaystub"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/documents/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/tax_forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** W-2s, newest year first. */
        get: operations["listTaxForms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/tax_forms/{tax_form_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One tax form, with a signed link to its document (a PDF).
         * @description parsed_data is always included (the vendor returns it only with
         *     with_parsed_data=true; Payline accepts that parameter and has the
         *     data anyway).
         */
        get: operations["getTaxForm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/shifts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Shifts of a time-and-attendance account, newest first. */
        get: operations["listShifts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Documents of the end user. */
        get: operations["listDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/document_reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The review queue: uploaded paystubs and W-2s the checks left in doubt, newest upload first.
         * @description Documents whose `fraud.status` is `needs_review` (or `suspected`) carry a `review`: `required`
         *     until a workspace member accepts or rejects them, then `completed`. Until it is accepted a
         *     document counts toward no income. An API key may read the queue, and so may a signed-in
         *     member (`Authorization: Bearer` with the token of POST /admin/token, or the dashboard's
         *     cookie); a review itself is made by a member (POST .../review). docs/documents.md, "Review by
         *     a person".
         */
        get: operations["listDocumentReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/documents/{document_id}/pages/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One page of an uploaded document's file, drawn as a picture for the person reviewing it.
         * @description A PDF's page drawn at 150 dpi as a PNG; an uploaded picture is its own single page, answered as
         *     it was uploaded (PNG or JPEG). A page past the last is 404 DOCUMENT_PAGE_NOT_FOUND. The boxes of
         *     the document's `readings` are fractions of this picture's width and height. Not cached.
         */
        get: operations["getDocumentPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/documents/{document_id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A workspace member accepts (with any corrections) or rejects a document under review.
         * @description Administrators and members of the reviewer role review; a review records the member whose
         *     session makes it (`Authorization: Bearer` with the token of POST /admin/token, or the
         *     dashboard's cookie), so an API secret alone is refused (401 MISSING_ADMIN_TOKEN). Corrections
         *     name fields of the parsed data, each with its value as text: a paystub's employer_name,
         *     employer_ein, employee_name, pay_date, pay_period_start, pay_period_end (YYYY-MM-DD),
         *     gross_pay_amount, net_pay_amount, gross_pay_ytd, net_pay_ytd, total_taxes, total_deductions,
         *     reimbursements (dollars: "1,234.56"; a JSON number is read from its literal); a W-2's tax_year,
         *     employer_name, employer_ein and box1 to box6. An empty value or null clears a field. Accepting
         *     a paystub that still lacks its pay date, gross or net pay is refused (MISSING_FIELDS naming
         *     them); a rejection needs a note. The corrected data, the review, an audit entry
         *     (document.reviewed) and the documents.reviewed event are written together. A document is
         *     reviewed once: again is DOCUMENT_ALREADY_REVIEWED; one that needs none is
         *     DOCUMENT_REVIEW_NOT_REQUIRED.
         */
        post: operations["reviewDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/earnings_stream/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Estimated payouts of the end user's connected accounts, soonest first. */
        get: operations["listEarningsStreamPayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/bill_navigator/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["setBillNavigatorStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/verification_reports/voie": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verification of income and employment from every payroll account of the end user.
         * @description Rebuilt only when the accounts' data changed since the last build; every GET mints a fresh download link.
         */
        get: operations["getVOIE"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/verification_reports/voe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verification of employment from every payroll account of the end user. */
        get: operations["getVOE"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A document's PDF, through the signed link in its download_url.
         * @description Needs no API secret: the link is the credential. It expires at
         *     download_url_expiration (15 minutes by default); an expired, altered
         *     or unknown link is 403 DOWNLOAD_LINK_INVALID. HEAD and Range work.
         */
        get: operations["downloadDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The customer's Link orders in this mode, newest first. */
        get: operations["listLinkOrders"];
        put?: never;
        /**
         * Send Link to a person by e-mail or text (or print its QR code), with reminders, until it completes or expires.
         * @description Takes what a link token takes (the same rules: org_name, end_user_id, features or
         *     required_jobs, employer_id or platform_id) plus where to send the order's short link.
         *     The link leaves at once, or at 08:00 in time_zone when the order is made in the quiet
         *     hours (21:00 to 08:00). Texts need sms_consent: true, your assertion that the person
         *     agreed to receive one; a phone without it is 400 INVALID_FIELDS. No message ever holds
         *     a link token: the link opens Link on a token the order mints. See docs/link-orders.md.
         */
        post: operations["createLinkOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_orders/{link_order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getLinkOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_orders/{link_order_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the order's link again on every channel now (or when the quiet hours end); 400 LINK_ORDER_CLOSED once the order is closed. */
        post: operations["resendLinkOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/link_orders/{link_order_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel the order; its link then says it was canceled and no reminder follows. 400 LINK_ORDER_CLOSED once completed or expired. */
        post: operations["cancelLinkOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** People's disputes in this mode, newest receipt first (docs/disputes.md). */
        get: operations["listDisputes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{dispute_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dispute with its clocks, the furnisher notice and every step; 404 DISPUTE_NOT_FOUND for another customer's. */
        get: operations["getDispute"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{dispute_id}/investigate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start the reinvestigation of an open dispute (open → investigating), recorded with your key and the time; 400 DISPUTE_STATUS_CONFLICT otherwise. */
        post: operations["investigateDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{dispute_id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the reinvestigation (investigating → resolved) with its outcome and the reason; sends dispute.resolved. 400 DISPUTE_STATUS_CONFLICT for an open dispute (investigate it first), DISPUTE_RESOLVED for a resolved one. */
        post: operations["resolveDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * File a person's dispute on their behalf (they can also file it on their own page); received now, due in 30 days, the furnisher told within 5 business days; sends dispute.opened.
         * @description The item must be the end user's here: a paystub (a figure of it in field), an employment
         *     (the account's id), a report's field (report_type and field; id, the account the figure
         *     came from, to have its source told) or an uploaded document (the person is its source:
         *     no furnisher is told, and the dispute says so). 404 DISPUTE_ITEM_NOT_FOUND otherwise.
         *     The steps name your API key as who opened it. See docs/disputes.md.
         */
        post: operations["openDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/end_users/{end_user_id}/disputes/{dispute_id}/information": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New information the person brought to an unresolved dispute; the first during the period extends due_at to 45 days from receipt, once (extended_at records when). */
        post: operations["addDisputeInformation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/o/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Link order's short link, as the person follows it; changes nothing.
         * @description Needs no API secret: the code is the credential. An open order answers 200 with a page
         *     whose script posts back to the same address at once (its Continue button without a
         *     script), so a mail scanner or a link preview that fetches the link neither opens the
         *     order nor mints a token. A completed order answers 200, an expired or canceled one 410,
         *     and an unknown code 404, each with a short page that says so plainly.
         */
        get: operations["showLinkOrder"];
        put?: never;
        /**
         * Opens the order's Link session (the link's page posts here).
         * @description While the order is open it answers 303 to Link's hosted page on the order's link token
         *     (in the URL's fragment, which no server sees): the same order on any device until it
         *     completes; the first opening makes the order opened. A closed order answers as GET does.
         */
        post: operations["openLinkOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/o/{code}/qr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The order's short link as a QR code (error correction M), a 512-pixel PNG or, with format=svg, an SVG. */
        get: operations["linkOrderQRCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/disconnect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Permanently disconnect; connected becomes false and monitoring_status unavailable. Data stays readable. */
        post: operations["disconnectAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{account_id}/disable_monitoring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop refreshes; monitoring_status becomes customer_disabled. */
        post: operations["disableMonitoring"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        APIKey: {
            /** @enum {string} */
            mode: "sandbox" | "development" | "production";
            /** @description The key's public id, for logs and revocation; not a credential. */
            key: string;
            /** @description Only when the key is created. */
            secret?: string;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description Neither revoked nor expired. */
            is_active: boolean;
            /** Format: date-time */
            revoked_at: string | null;
        };
        Member: {
            /**
             * Format: uuid
             * @description What DELETE /admin/members/{member_id}/sessions takes.
             */
            id: string;
            email: string;
            /** @enum {string} */
            role: "administrator" | "developer" | "reviewer" | "viewer";
            /** Format: date-time */
            created_at: string;
        };
        ProductMeta: {
            refreshed_at: components["schemas"]["Timestamp"];
        };
        ListMetaWithFreshness: {
            count: number;
            next_cursor: string | null;
            refreshed_at: components["schemas"]["Timestamp"] | null;
        };
        EarningsStreamMeta: {
            count: number;
            next_cursor: string | null;
            refreshed_at: components["schemas"]["Timestamp"] | null;
            updated_at: components["schemas"]["Timestamp"] | null;
        };
        Address: {
            raw: string;
            line1: string;
            line2: string | null;
            city: string;
            state: string;
            postal_code: string;
            country: string;
        };
        PhoneNumber: {
            value: string;
            /** @enum {string} */
            type: "home" | "work" | "mobile";
        };
        ProductCommon: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            account_id: string;
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
        };
        Identity: components["schemas"]["ProductCommon"] & {
            full_name: string;
            /** Format: date */
            date_of_birth: string;
            last_four_ssn: string;
            emails: string[];
            address: components["schemas"]["Address"];
            phone_numbers: components["schemas"]["PhoneNumber"][];
        };
        Employment: components["schemas"]["ProductCommon"] & {
            /** @enum {string} */
            status: "employed" | "terminated" | "furloughed";
            /** Format: date */
            start_date: string;
            /** Format: date */
            termination_date: string | null;
            employer_name: string;
            employer_address: components["schemas"]["Address"];
            employer_phone_number: components["schemas"]["PhoneNumber"];
            title: string;
        };
        Income: components["schemas"]["ProductCommon"] & {
            /** @description Cents per compensation_unit. */
            compensation_amount: number;
            /** @enum {string} */
            compensation_unit: "hourly" | "daily" | "weekly" | "bi-weekly" | "semi-weekly" | "monthly" | "semi-monthly" | "annually" | "variable" | "per_mile";
            currency: string;
            /** @enum {string} */
            pay_frequency: "daily" | "weekly" | "bi-weekly" | "monthly" | "semi-monthly" | "variable";
        };
        DirectDepositAllocations: components["schemas"]["ProductCommon"] & {
            allocations: {
                account_name: string;
                /** @enum {string} */
                account_type: "checking" | "savings";
                /** @enum {string} */
                allocation_type: "amount" | "percentage" | "remainder";
                amount: number | null;
                percentage: number | null;
                bank_name: string | null;
                currency: string;
                masked_account_number: string;
                priority: number;
                routing_number: string;
            }[];
        };
        PayLine: {
            name: string;
            category: string;
            amount: number;
            hours: number | null;
            rate: number | null;
        };
        Paystub: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            account_id: string;
            /** Format: date */
            pay_date: string;
            /** Format: date */
            pay_period_start: string;
            /** Format: date */
            pay_period_end: string;
            gross_pay_amount: number;
            gross_pay_ytd: number;
            net_pay_amount: number;
            net_pay_ytd: number;
            check_amount: number;
            total_taxes: number;
            total_deductions: number;
            total_reimbursements: number;
            currency: string;
            employer_name: string;
            external_paystub_id: string;
            earnings: components["schemas"]["PayLine"][];
            /** @description The taxes withheld this pay period; they add up to total_taxes. */
            taxes: {
                name: string;
                /** @enum {string} */
                category: "federal_income" | "social_security" | "medicare" | "state_income" | "local_income" | "other";
                /** @description cents */
                amount: number;
            }[];
            /** @description The deductions this pay period; they add up to total_deductions. */
            deductions: {
                name: string;
                category: string;
                /** @description cents */
                amount: number;
            }[];
            /** @description Time-off balances; empty when the platform reports none (the sandbox models none). */
            time_off: {
                name: string;
                /** @enum {string} */
                category: "pto" | "sick" | "other";
                available_hours?: number;
                earned_hours?: number;
                used_hours?: number;
            }[];
            created_at: components["schemas"]["Timestamp"];
        };
        /** @description A paystub as verification reports show it (the vendor's report schema has no itemised lines). */
        ReportPaystub: {
            /**
             * Format: uuid
             * @description The paystub's id; for one read from an uploaded paystub, the document's id.
             */
            id: string;
            /** @description The account it was read from; empty for one read from an uploaded paystub. */
            account_id: string;
            /** Format: date */
            pay_date: string;
            /** Format: date */
            pay_period_start: string;
            /** Format: date */
            pay_period_end: string;
            gross_pay_amount: number;
            gross_pay_ytd: number;
            net_pay_amount: number;
            net_pay_ytd: number;
            check_amount: number;
            total_taxes: number;
            total_deductions: number;
            total_reimbursements: number;
            currency: string;
            employer_name: string;
            external_paystub_id: string;
            earnings: components["schemas"]["PayLine"][];
            created_at: components["schemas"]["Timestamp"];
            /** @description The paystub's earnings lines in the written VOE's columns; they add up to gross_pay_amount. */
            earnings_by_type: components["schemas"]["EarningsByType"];
            /** @description The hours its regular (base) lines report; null when none does. */
            regular_hours: number | null;
            /** @description The hours its overtime lines report; null when none does. */
            overtime_hours: number | null;
        };
        /** @description Earnings in the written VOE's columns (Fannie Mae Form 1005), in cents. Base is salary and regular hourly pay. */
        EarningsByType: {
            base: number;
            overtime: number;
            bonus: number;
            commission: number;
            other: number;
        };
        /** @description One kind of variable income over the last twelve months against the twelve before, in cents. */
        IncomeTrend: {
            /**
             * @description stable is within ±5%; none: paid in neither span; unknown: the paystubs do not reach back 24 months.
             * @enum {string}
             */
            trend: "increasing" | "stable" | "declining" | "none" | "unknown";
            last_12_months: number;
            prior_12_months: number;
            /** @description Whole percent, rounded half away from zero; null when the earlier span had none or is not covered. */
            change_percent: number | null;
        };
        W2: {
            document_type?: string;
            applicant?: {
                name?: string;
                ssn?: string;
                address?: components["schemas"]["Address"];
            };
            employer_name?: string;
            /** @description The employer's EIN as an uploaded W-2 prints it (box b); absent on W-2s from payroll platforms. */
            employer_ein?: string;
            /** @description Box 1. Null on an uploaded W-2 whose box was not read (never 0). */
            total_wages: number | null;
            /** @description Box 16, summed over the state rows. */
            state_wages: number | null;
            /** @description Box 3. */
            social_security_wages: number | null;
            /** @description Box 5. */
            medicare_wages: number | null;
            /** @description Box 2. */
            federal_taxes: number | null;
            /** @description Box 17, summed over the state rows. */
            state_taxes: number | null;
            /** @description Box 4. */
            social_security_taxes: number | null;
            /** @description Box 6. */
            medicare_taxes: number | null;
            tax_year?: string;
            boxes?: components["schemas"]["W2Boxes"];
        };
        /** @description Every box read from an uploaded W-2 (absent on a payroll platform's W-2s), each as printed: amounts in cents, null when the box was not read. Several copies on one page (two or four) are read as one W-2. */
        W2Boxes: {
            /** @description Box a as printed, masked or not. */
            employee_ssn?: string;
            /** @description Box f. */
            employee_address?: string;
            /** @description Box c after the employer's name. */
            employer_address?: string;
            /** @description Box d. */
            control_number?: string;
            /** @description Wages, tips, other compensation. */
            box1: number | null;
            /** @description Federal income tax withheld. */
            box2: number | null;
            /** @description Social security wages. */
            box3: number | null;
            /** @description Social security tax withheld. */
            box4: number | null;
            /** @description Medicare wages and tips. */
            box5: number | null;
            /** @description Medicare tax withheld. */
            box6: number | null;
            /** @description Social security tips. */
            box7: number | null;
            /** @description Allocated tips. */
            box8: number | null;
            /** @description Dependent care benefits. */
            box10: number | null;
            /** @description Nonqualified plans. */
            box11: number | null;
            /** @description Box 12's coded amounts in the order printed (D: 401(k) deferrals, DD: employer health coverage, W: HSA, ...). */
            box12: {
                code: string;
                amount: number;
            }[] | null;
            /** @description The rows of boxes 15 to 20, one per state. */
            states: {
                /** @description Box 15, two letters. */
                state: string;
                /** @description Box 15, the employer's state ID number. */
                employer_state_id?: string;
                /** @description Box 16. */
                wages: number | null;
                /** @description Box 17. */
                tax: number | null;
                /** @description Box 18. */
                local_wages: number | null;
                /** @description Box 19. */
                local_tax: number | null;
                /** @description Box 20. */
                locality?: string;
            }[] | null;
            /** @description How many copies of the form the page holds (1, 2 or 4). */
            copies?: number;
        };
        TaxForm: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            account_id: string;
            created_at: components["schemas"]["Timestamp"];
            /** @description The tax year of the form. */
            year: number;
            /**
             * @description The vendor's form names; Payline's sandbox has W-2s.
             * @enum {string}
             */
            form_type: "W-2" | "W-2C" | "1099-NEC" | "1099-MISC" | "1099-K" | "1040";
            /**
             * Format: uuid
             * @description The end user's document (GET /end_users/{id}/documents/{document_id}).
             */
            document_id: string;
            document?: components["schemas"]["DocumentLink"];
            parsed_data: components["schemas"]["W2"];
        };
        Shift: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            account_id: string;
            created_at: components["schemas"]["Timestamp"];
            /** Format: date */
            start_date: string;
            /** Format: date */
            end_date: string;
            /**
             * @description The work performed.
             * @enum {string}
             */
            type: "shift" | "rideshare" | "delivery" | "other";
            /** @description An IANA time zone name. */
            timezone: string;
            /** @description The periods worked, clock-in to clock-out. */
            timestamps: {
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            }[];
            earnings: components["schemas"]["PayLine"][];
            /** @description ISO 4217; USD in the sandbox. */
            currency: string;
        };
        DocumentLink: {
            /** Format: uuid */
            id: string;
            /** @description A signed link: {public_url}/files/{id}?expires=...&signature=... */
            download_url: string;
            download_url_expiration: components["schemas"]["Timestamp"];
        };
        DirectDepositFormData: {
            /** @enum {string} */
            document_type: "direct_deposit_form";
            /** @description Empty when no identity was read; the form leaves a line to fill in. */
            employee_name: string;
            employer_name: string;
            account_name?: string;
            /** @enum {string} */
            account_type: "checking" | "savings";
            masked_account_number: string;
            routing_number: string;
            /** @description The switch's action and allocation, as on its job. */
            params: Record<string, never>;
        };
        VerificationReport: {
            /**
             * Format: uuid
             * @description The report's id, the same across rebuilds; the PDF's Reference # is {id}-v{version}.
             */
            id: string;
            /** @description The organization the report was made for (the customer's name). */
            requester: string;
            /** @description The tracking id the request that built this version gave (?tracking_id=); empty for none. Printed on the PDF. */
            tracking_id: string;
            /**
             * @description The permissible purpose the request that built this version gave (?purpose=); empty for none. Printed on the PDF.
             * @enum {string}
             */
            purpose: "" | "credit_application" | "account_review" | "employment" | "tenant_screening" | "insurance" | "government_benefits" | "consumer_request";
            /** @description This build's number (1 for the first); every rebuild from changed data is a new version with its own PDF. */
            version: number;
            /**
             * @description The report's earlier builds still kept (--report-retention, 25 months by default), newest first, each with a fresh
             *     link to its own PDF, so the version an underwriter read can be fetched again.
             */
            versions: {
                version: number;
                /** @description The Reference # printed on that build's PDF. */
                reference: string;
                refreshed_at: components["schemas"]["Timestamp"];
                document: components["schemas"]["DocumentLink"];
            }[];
            /** @description When the underlying data last changed. */
            updated_at: components["schemas"]["Timestamp"];
            /** @description When the report was last built. */
            refreshed_at: components["schemas"]["Timestamp"];
            /** @enum {string} */
            report_type: "voie" | "voe";
            employee: {
                name: {
                    first_name: string;
                    middle_name: string;
                    last_name: string;
                    full_name: string;
                };
                address: components["schemas"]["Address"];
                last_four_ssn: string;
                date_of_birth: string;
                phone_numbers: components["schemas"]["PhoneNumber"][];
            };
            employments: components["schemas"]["ReportEmployment"][];
            /** @description What the report could not draw from source data, what Payline derived, and where identity came from. */
            completeness: {
                missing: string[];
                derived: string[];
                paystubs: {
                    /** Format: date */
                    from: string;
                    /** Format: date */
                    to: string;
                } | null;
                /** @description The account the employee block came from; empty when none reports an identity (never a document id). */
                identity_source_account_id: string;
                /**
                 * Format: uuid
                 * @description When no account reports an identity: the uploaded paystub or W-2 whose printed employee name the report
                 *     uses (the name only); absent otherwise.
                 */
                identity_source_document_id?: string;
                identity_conflicts: string[];
            };
            document: components["schemas"]["DocumentLink"];
            /**
             * @description Points an underwriter should review, empty when none: OVERLAPPING_EMPLOYMENT (two employments at one EIN
             *     overlap), PAY_GAP (no pay for more than twice the pay frequency within the last twelve months),
             *     MISSING_FINAL_PAY (a termination with no paycheck within 31 days), EMPLOYER_ADDRESS_CONFLICT (one employer,
             *     two addresses), DECLINING_INCOME (overtime, bonus or commission more than 5% below the year before),
             *     W2_MISMATCH (a year's gross pay against its W-2's box 5), DOCUMENT_SET_ASIDE (an uploaded paystub or W-2
             *     the report leaves out, one per excluded_documents entry, said without accusing: what the file shows, the
             *     fields a person has not yet checked, a reviewer's rejection, what could not be read), HOURS_OVER_80 (paystubs
             *     reporting more than 80 hours a week on average), PAY_PERIOD_INVERTED (a pay period that ends before it starts)
             *     ANNUALIZED_FROM_ONE_PAYSTUB (a projected income resting on a single paystub) and ITEM_DISPUTED (one per dispute
             *     of the person's still open when the report was built: what they dispute, when it was received and when it is
             *     due; employment names the account; docs/disputes.md). The report raises them and decides nothing.
             */
            flags: {
                /** @enum {string} */
                code: "OVERLAPPING_EMPLOYMENT" | "PAY_GAP" | "MISSING_FINAL_PAY" | "EMPLOYER_ADDRESS_CONFLICT" | "DECLINING_INCOME" | "W2_MISMATCH" | "DOCUMENT_SET_ASIDE" | "HOURS_OVER_80" | "PAY_PERIOD_INVERTED" | "ANNUALIZED_FROM_ONE_PAYSTUB" | "ITEM_DISPUTED";
                /** @description What the data shows, in a sentence. */
                message: string;
                /** @description The account id of the employment it concerns; empty for none, and for an employment read from uploaded documents. */
                employment: string;
                /** @description The uploaded documents it concerns; absent when none. */
                document_ids?: string[];
            }[];
            /** @description The consumer's rights under the Fair Credit Reporting Act and whom to contact to dispute the data (the operator's --dispute-contact). */
            fcra_notice: {
                text: string;
                dispute_contact: string;
            };
            /**
             * @description The paystubs and W-2s the end user uploaded that the report leaves out, and why: suspected (evidence of
             *     tampering, in fraud's reasons), needs_review (doubts a person has not yet settled, the fields in fraud's
             *     reasons), rejected (by a reviewer), unread (nothing could be read) or incomplete (a paystub's pay date, gross
             *     or net pay, or a W-2's tax year, employer, box 1 or box 5 not read). Each is also a DOCUMENT_SET_ASIDE flag.
             */
            excluded_documents: {
                /** Format: uuid */
                document_id: string;
                /** @enum {string} */
                document_type: "paystub" | "w2";
                /** @enum {string} */
                reason: "suspected" | "needs_review" | "rejected" | "unread" | "incomplete";
                fraud: components["schemas"]["DocumentFraud"];
            }[];
        };
        ReportEmployment: {
            /** @description The account the employment was read from; empty for one read from uploaded paystubs (source.type documents). */
            account_id: string;
            employer_name: string;
            employer_address: components["schemas"]["Address"];
            start_date: string;
            /**
             * @description Whole months from start_date to the termination date, or to the build while it lasts; null when either date is
             *     unknown (an employment read from uploaded documents has no start date), never 0 for unknown. Listed in
             *     completeness.missing then.
             */
            employment_duration_months: number | null;
            employment_status: string;
            /** @description Empty: no platform reports it (listed in completeness.missing). */
            employment_type: string;
            termination_date: string | null;
            title: string;
            most_recent_pay_date: string | null;
            /** @description The earliest start date of the end user's employments at this employer: a rehire keeps its first. */
            original_hire_date: string;
            /** @description This employment's own start date. */
            most_recent_hire_date: string;
            /** @description Digits, as the payroll platform reported them; null when none did. */
            employer_phone_number: string | null;
            /** @description From the directory's employer; null when not on record. */
            employer_ein: string | null;
            /** @description Where this employment's figures came from. */
            source: {
                /**
                 * @description payroll (read from the account's payroll platform) or documents (read from paystubs and W-2s the end user uploaded).
                 * @enum {string}
                 */
                type: "payroll" | "documents";
                /** @description For type documents: the uploaded paystubs and W-2s the figures were read from. */
                document_ids?: string[];
                /** @description For type documents: says plainly that the figures were read from files the end user supplied, not confirmed with the employer, and who reviewed those a person accepted. */
                notice?: string;
                /** @description Who reviewed the uploads of this employment (its paystubs, or W-2s beside a payroll account) that a person accepted: "reviewed by a member of <customer>", each once; absent when none was. */
                review_bases?: string[];
                platform_id: string;
                /** @description The payroll platform read, as the directory names it ("" when it does not). */
                platform_name: string;
                data_as_of: components["schemas"]["Timestamp"];
            };
            /** @description When the end user agreed in Link to share this account, and which version of the consent text they read; null when Link recorded none (an account connected before it did, or a token that skipped the consent screen). */
            consent: {
                given_at: components["schemas"]["Timestamp"];
                text_version: string;
            } | null;
            /** @description VOIE only. */
            income?: {
                /** @description Cents: projected_income.total, kept for compatibility; null for an employment that ended or without a rate. */
                projected_annual_income: number | null;
                /** @description How the total was derived, in words. */
                projection_basis: string;
                /**
                 * @description A current employment's pay over a year by type, in cents rounded half up: base is an hourly rate × the average
                 *     regular hours a week over the last 52 weeks of paystubs × 52, or the salary; overtime, bonus and commission are
                 *     the last 24 months' amounts halved (the whole history annualized when shorter, said so); total is their sum.
                 *     Null for an employment that ended or without a rate.
                 */
                projected_income: {
                    base: number;
                    overtime: number;
                    bonus: number;
                    commission: number;
                    total: number;
                    /** @description How each figure was derived, in words. */
                    basis: {
                        base: string;
                        overtime: string;
                        bonus: string;
                        commission: string;
                        total: string;
                    };
                } | null;
                /** @description Each kind of variable income over the last twelve months against the twelve before; null for an employment that ended. */
                trends: {
                    overtime: components["schemas"]["IncomeTrend"];
                    bonus: components["schemas"]["IncomeTrend"];
                    commission: components["schemas"]["IncomeTrend"];
                } | null;
                /** @description The regular (not overtime) hours of the same paystubs, per week: what an hourly base is projected from. */
                average_weekly_regular_hours: number | null;
                /** @description The hours the last twelve months of paystubs report, per week; null when they report none. */
                average_weekly_hours: number | null;
                /** @description Which paystubs the average comes from, in words. */
                hours_basis: string;
                pay_frequency: string;
                compensation_unit: string;
                /** @description Cents per compensation_unit. */
                compensation_amount: number;
                currency: string;
                annual_incomes: {
                    year: string;
                    gross_pay_ytd: number;
                    net_pay_ytd: number;
                    total_deductions_ytd: number;
                    total_reimbursements_ytd: number;
                    total_taxes_ytd: number;
                    earnings_ytds: {
                        amount: number;
                        category: string;
                    }[];
                    paystub_count: number;
                    /**
                     * @description Where gross_pay_ytd and net_pay_ytd come from: the sum of every paystub of the year (all were
                     *     read); the year's last paystub's year-to-date figures (the paystubs read start mid-year);
                     *     partial, the sum of paystubs that start mid-year and carry no year-to-date figures; or w2, a year
                     *     no paystub was read for, whose gross_pay_ytd is its W-2's box 5 (the payroll account's W-2, or one
                     *     the end user uploaded of the employer): its net pay, taxes, deductions and reimbursements are
                     *     unknown, 0 and listed in completeness.missing, and w2_unsplit is the whole of box 5.
                     * @enum {string}
                     */
                    basis: "paystubs" | "year_to_date" | "partial" | "w2";
                    /** @description The year's earliest paystub read; empty for basis w2. */
                    first_pay_date: string;
                    /** @description Some of the year's figures cover less than the year (taxes, deductions, reimbursements and earnings are sums of the paystubs read). */
                    partial: boolean;
                    /** @description The year's earnings lines in the written VOE's columns, in cents. Base is salary and regular hourly pay. */
                    earnings_by_type: components["schemas"]["EarningsByType"];
                    /**
                     * @description What earnings_by_type covers: every paystub of the year, or only the paystubs read (from first_pay_date).
                     * @enum {string}
                     */
                    earnings_by_type_basis: "paystubs" | "paystubs_read";
                    /** @description For a year read from mid-year with a W-2, its box 5 less the earnings the paystubs read split; the pay no source splits by type. Null otherwise. */
                    w2_unsplit: number | null;
                    /**
                     * @description The year's W-2 beside its paystubs (null without one): wages (box 1), Medicare wages (box 5, which
                     *     pre-tax deductions do not lower, so it should equal gross_pay_ytd), gross_pay_ytd minus box 5 in cents,
                     *     and flagged when that is over a dollar in a year whose gross covers the whole year.
                     */
                    w2: {
                        wages: number;
                        medicare_wages: number;
                        difference: number;
                        flagged: boolean;
                        /**
                         * Format: uuid
                         * @description The W-2 the end user uploaded that this is read from (boxes 1 and 5 as read), for a year the
                         *     payroll account has no W-2 of its own; absent for the account's own W-2.
                         */
                        document_id?: string;
                    } | null;
                }[];
                paystubs: components["schemas"]["ReportPaystub"][];
            };
        };
        Document: {
            /** Format: uuid */
            id: string;
            created_at: components["schemas"]["Timestamp"];
            end_user_id: string;
            /**
             * Format: uuid
             * @description The account it came from; null for a document the user uploaded in Link.
             */
            account_id: string | null;
            /** @enum {string} */
            document_type: "w2" | "direct_deposit_form" | "paystub";
            /** @description An uploaded document's file name, as the user's device gave it. */
            file_name?: string;
            /** @description Which of the uploaded file's documents this is, when the file held several (a PDF of three paystubs); absent for a file of one. */
            file_part?: number;
            document: components["schemas"]["DocumentLink"];
            /** @description What was read from the document; null when nothing could be (an upload Payline cannot read). */
            parsed_data: (components["schemas"]["W2"] | components["schemas"]["DirectDepositFormData"] | components["schemas"]["UploadedPaystub"]) | null;
            warnings: {
                field: string;
                /** @enum {string} */
                status: "unparsable";
                message: string;
            }[];
            fraud: components["schemas"]["DocumentFraud"];
            /** @description Where each field of an uploaded document was read and how sure the reader is of it; absent for a document Payline made. */
            readings?: components["schemas"]["FieldReading"][];
            review?: components["schemas"]["DocumentReview"];
        };
        FieldReading: {
            /** @description The parsed data's field (net_pay_amount, box1). */
            field: string;
            page: number;
            /** @description x0, y0, x1, y1 as fractions of the page's width and height, from its top left. */
            box: number[];
            confidence: number;
            /** @enum {string} */
            source: "text_layer" | "ocr";
        };
        /**
         * @description A person's review of an uploaded document the checks left in doubt (absent when none is
         *     needed): required until a workspace member accepts it (with any corrections) or rejects it.
         *     An accepted document counts toward income with basis "reviewed by a member of <customer>".
         */
        DocumentReview: {
            /** @enum {string} */
            status: "required" | "completed";
            /** @enum {string} */
            outcome?: "accepted" | "rejected";
            reviewed_at?: components["schemas"]["Timestamp"];
            /**
             * Format: uuid
             * @description The workspace member who reviewed (GET /admin/members).
             */
            reviewer_id?: string;
            /** @description What a report says an accepted document's figures rest on: "reviewed by a member of Acme Lending". */
            basis?: string;
            note?: string;
            /** @description The fields the reviewer changed, each before and after as the parsed data writes it (amounts in cents; "" for a field not read). */
            corrections?: {
                field: string;
                before: string;
                after: string;
            }[];
        };
        /**
         * @description The forgery checks' outcome (docs/documents.md, Forgery checks): suspected when a reason is evidence of
         *     tampering, needs_review when the reasons are doubts only (a person settles them: the document's review),
         *     not_suspected when the checks ran and none failed, unavailable when nothing was read. Decided when the
         *     document is stored and never changed afterwards; a review is recorded beside it.
         */
        DocumentFraud: {
            /** @enum {string} */
            status: "suspected" | "needs_review" | "not_suspected" | "unavailable";
            /** @description The checks that failed; absent when none did. */
            reasons?: {
                /** @enum {string} */
                code: "ARITHMETIC_MISMATCH" | "PERIOD_EXCEEDS_YTD" | "YTD_NOT_CUMULATIVE" | "PAY_DATE_OFF_SCHEDULE" | "EMPLOYER_UNKNOWN" | "FONTS_INCONSISTENT" | "EDITED_AFTER_CREATION" | "FIGURES_REUSED" | "TEXT_LAYER_MISMATCH" | "FIELDS_MISSING" | "FIELDS_UNCERTAIN" | "IMPLAUSIBLE" | "SERIES_INCONSISTENT" | "ANOTHER_VERSION";
                /** @description What does not add up, with the amounts in dollars. */
                message: string;
                /**
                 * @description evidence of tampering (suspected) or a doubt for a person to settle (needs_review).
                 * @enum {string}
                 */
                kind?: "evidence" | "doubt";
                /** @description The fields of the parsed data the reason is about. */
                fields?: string[];
            }[];
        };
        /** @description What the documents reader read from an uploaded paystub of any layout. A field it could not find is left out and named in the document's warnings (employer_name is then empty). */
        UploadedPaystub: {
            /** @enum {string} */
            document_type: "paystub";
            employer_name: string;
            /** @description The employer's EIN as the paystub prints it. */
            employer_ein?: string;
            employee_name?: string;
            /** @description The period's taxes as the paystub totals them. */
            total_taxes?: number;
            /** @description The period's deductions as the paystub totals them. */
            total_deductions?: number;
            earnings?: components["schemas"]["PayLine"][];
            taxes?: components["schemas"]["PayLine"][];
            deductions?: components["schemas"]["PayLine"][];
            /** Format: date */
            pay_date?: string;
            /** Format: date */
            pay_period_start?: string;
            /** Format: date */
            pay_period_end?: string;
            gross_pay_amount?: number;
            net_pay_amount?: number;
            gross_pay_ytd?: number;
            net_pay_ytd?: number;
            /** @description The period's non-taxable additions to net pay (expenses, per diem). */
            reimbursements?: number;
            currency: string;
        };
        Payout: {
            /** @enum {string} */
            status: "estimated" | "processed";
            /** Format: date */
            pay_date: string;
            /** @description The payout's net pay, the sum of its earnings' net pay (cents). */
            net_pay: {
                amount: number;
                currency: string;
            };
            earnings: {
                /** Format: date */
                date: string;
                confidence_score: number;
                net_pay: {
                    amount: number;
                    currency: string;
                };
            }[];
        };
        /**
         * @description created → sent (a message reached a channel) → opened (the link was followed) → completed (Link connected an account or took documents) | expired | canceled.
         * @enum {string}
         */
        LinkOrderStatus: "created" | "sent" | "opened" | "completed" | "expired" | "canceled";
        LinkOrderCreate: {
            /** @description Your name as the person knows it: it signs the messages and titles Link. */
            org_name: string;
            end_user_id: string;
            /** @enum {string} */
            solution?: "Verify" | "Bill Switch" | "Bill Manager" | "Paycheck Viewer" | "Switch Kit" | "Deposit Switch";
            features?: components["schemas"]["JobType"][];
            required_jobs?: components["schemas"]["JobType"][];
            /** @description As a link token's allocation. */
            allocation?: {
                /** @enum {string} */
                type?: "amount" | "percentage" | "remainder";
                /**
                 * Format: decimal
                 * @description Dollars with at most two decimals for amount, a whole percentage from 1 to 100 for percentage; absent for remainder.
                 */
                value?: number;
                targets?: {
                    name?: string;
                    /** @enum {string} */
                    type: "checking" | "savings";
                    account_number: string;
                    /** @description Must pass the ABA checksum. */
                    routing_number: string;
                }[];
            };
            /** Format: uuid */
            employer_id?: string;
            /** Format: uuid */
            platform_id?: string;
            skip_intro_screen?: boolean;
            disable_direct_deposit_splitting?: boolean;
            /** @enum {string} */
            language?: "en" | "es";
            /** @description At least one of email and phone. */
            delivery: {
                /** Format: email */
                email?: string;
                /** @description E.164 (+15551234567) or 10 US digits; needs sms_consent: true. */
                phone?: string;
            };
            /**
             * @description Your assertion that the person agreed to receive a text from you; texts are sent only with it.
             * @default false
             */
            sms_consent: boolean;
            /** @default 72 */
            expires_in_hours: number;
            /**
             * @description Reminders spaced evenly over the window, until the order completes or is canceled.
             * @default 2
             */
            reminders: number;
            /**
             * @description The IANA time zone whose quiet hours (21:00 to 08:00) no message is sent in; it also writes the expiry in the messages.
             * @default America/New_York
             */
            time_zone: string;
        };
        PortalLink: {
            /** Format: uuid */
            id: string;
            end_user_id: string;
            /**
             * Format: uri
             * @description The link (…/p/{code}): opening it shows a button that signs the person in; once used or expired, the page offers to send a fresh link to the address on file.
             */
            url: string;
            created_at: components["schemas"]["Timestamp"];
            expires_at: components["schemas"]["Timestamp"];
        };
        /** @enum {string} */
        DisputeStatus: "open" | "investigating" | "resolved";
        /** @enum {string} */
        DisputeOutcome: "corrected" | "verified" | "deleted";
        DisputeCreate: {
            item: {
                /** @enum {string} */
                type: "paystub" | "employment" | "report_field" | "document";
                /** @description The paystub's, account's or document's id; for a report field, the account it came from (optional). */
                id?: string;
                /** @description The disputed figure: net_pay_amount, gross_pay_amount, start_date... */
                field?: string;
                /**
                 * @description For a report field.
                 * @enum {string}
                 */
                report_type?: "voie" | "voe";
            };
            /** @description The person's own words. */
            note: string;
            /** @description An uploaded document of the end user's sent with the dispute. */
            document_id?: string;
        };
        DisputeInformationCreate: {
            note: string;
            document_id?: string;
        };
        Dispute: {
            /** Format: uuid */
            id: string;
            end_user_id: string;
            status: components["schemas"]["DisputeStatus"];
            outcome: components["schemas"]["DisputeOutcome"] | null;
            /** @description The resolution's reason. */
            reason: string | null;
            item: {
                /** @enum {string} */
                type: "paystub" | "employment" | "report_field" | "document";
                id: string | null;
                field: string | null;
                /** @enum {string} */
                report_type?: "voie" | "voe";
                /** @description The connection the item came from (null for a document or a report field about none). */
                account_id: string | null;
            };
            note: string;
            document_id: string | null;
            received_at: components["schemas"]["Timestamp"];
            /** @description 30 days after received_at; 45 once extended_at is set. */
            due_at: components["schemas"]["Timestamp"];
            /** @description When new information during the period extended the due time. */
            extended_at: components["schemas"]["Timestamp"] | null;
            /** @description Unresolved past due_at (dispute.overdue was or will be sent). */
            overdue: boolean;
            /** @description When the source acknowledged the notice. */
            furnisher_notified_at: components["schemas"]["Timestamp"] | null;
            furnisher_notice: {
                /**
                 * @description pending (queued or retrying), acknowledged, not_sent (the route has no dispute channel, or never answered: reason says which), no_furnisher (an uploaded document, or a figure Payline computed: reason says which).
                 * @enum {string}
                 */
                status: "pending" | "acknowledged" | "not_sent" | "no_furnisher";
                /** @description The source it goes through: sandbox, a connector's or an upstream's name, end_user, payline. */
                route: string | null;
                /** @description 5 business days after received_at (US federal holidays observed). */
                due_at: components["schemas"]["Timestamp"];
                notified_at: components["schemas"]["Timestamp"] | null;
                /** @description The source's own reference of the notice. */
                reference: string | null;
                reason: string | null;
            };
            resolved_at: components["schemas"]["Timestamp"] | null;
            /** @description Every change, oldest first, with who made it (end_user, key:<id>, member:<email>) and when. */
            steps: {
                status: components["schemas"]["DisputeStatus"];
                outcome?: components["schemas"]["DisputeOutcome"];
                by: string;
                at: components["schemas"]["Timestamp"];
                reason?: string;
            }[];
            information: {
                note: string;
                document_id: string | null;
                at: components["schemas"]["Timestamp"];
            }[];
        };
        LinkOrder: {
            /** Format: uuid */
            id: string;
            status: components["schemas"]["LinkOrderStatus"];
            end_user_id: string;
            org_name: string;
            /** @description The short link the messages carry (never a link token). */
            url: string;
            /** @description The link as a QR code: a PNG, or an SVG with ?format=svg. */
            qr_code_url: string;
            created_at: components["schemas"]["Timestamp"];
            expires_at: components["schemas"]["Timestamp"];
            reminders_left: number;
            time_zone: string;
            /**
             * Format: uuid
             * @description The account Link connected when it completed the order (null for documents, or before).
             */
            account_id: string | null;
            deliveries: {
                /** @enum {string} */
                channel: "email" | "sms";
                /** @description The address, masked: j***@example.com, ***-***-1234. */
                to: string;
                /**
                 * @description The latest message: queued (waiting, quiet hours, or retrying: failure_reason then says why), sent, failed (refused for good or every try failed), skipped (the order closed first).
                 * @enum {string}
                 */
                status: "queued" | "sent" | "failed" | "skipped";
                sent_at: components["schemas"]["Timestamp"] | null;
                failure_reason?: string;
            }[];
        };
        Webhook: {
            /** Format: uuid */
            id: string;
            url: string;
            enabled_events: string[];
            /** @enum {string} */
            status: "active" | "paused";
            version: string;
            created_at: components["schemas"]["Timestamp"];
            last_updated: components["schemas"]["Timestamp"];
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            event: string;
            /** Format: uuid */
            event_id: string;
            attempt: number;
            /** @description Null when no response arrived. */
            status_code: number | null;
            latency_ms: number;
            /** @enum {string} */
            outcome: "delivered" | "retrying" | "failed" | "skipped";
            error: string | null;
            /**
             * @description The start of the endpoint's response body (at most 512 bytes, cut on a character
             *     boundary, control characters shown as U+FFFD), so you can see why it refused a delivery.
             *     Null when no response arrived or its body was empty. Stored sealed.
             */
            response_excerpt: string | null;
            next_attempt: components["schemas"]["Timestamp"] | null;
            created_at: components["schemas"]["Timestamp"];
        };
        /** @enum {string} */
        Outcome: "success" | "pending" | "error";
        /** @enum {string} */
        MonitoringStatus: "active" | "degraded" | "user_action_required" | "customer_disabled" | "unavailable";
        /**
         * @description org_name is required (3 to 30 characters); end_user_id too unless account_id is set (On Demand
         *     Update). A direct_deposit_switch in required_jobs or features needs allocation.targets. The
         *     legacy form (job, account_number, routing_number, account_type, account_name) maps onto
         *     required_jobs and allocation.targets.
         */
        LinkTokenCreate: {
            org_name?: string;
            end_user_id?: string;
            /** @enum {string} */
            solution?: "Verify" | "Bill Switch" | "Bill Manager" | "Paycheck Viewer" | "Switch Kit" | "Deposit Switch";
            features?: components["schemas"]["JobType"][];
            required_jobs?: components["schemas"]["JobType"][];
            allocation?: {
                /** @enum {string} */
                type?: "amount" | "percentage" | "remainder";
                /**
                 * Format: decimal
                 * @description Dollars with at most two decimals (0.01 to 1000000.00) for amount, read from the literal; a whole percentage from 1 to 100 for percentage; absent for remainder. Exponents and strings are refused.
                 */
                value?: number;
                targets?: {
                    name?: string;
                    /** @enum {string} */
                    type: "checking" | "savings";
                    account_number: string;
                    /** @description Must pass the ABA checksum. */
                    routing_number: string;
                }[];
            };
            /** Format: uuid */
            employer_id?: string;
            /** Format: uuid */
            platform_id?: string;
            /** Format: uuid */
            account_id?: string;
            /**
             * Format: decimal
             * @description Legacy form: dollars with exactly two decimals (19.99, 25.00), 0.01 to 1000000.00.
             */
            amount?: number;
            skip_intro_screen?: boolean;
            disable_direct_deposit_splitting?: boolean;
            /** @enum {string} */
            language?: "en" | "es";
            end_user?: {
                platform_matching?: {
                    social_security_number?: string;
                    social_security_last_four?: string;
                    first_name?: string;
                    last_name?: string;
                    /** Format: date */
                    date_of_birth?: string;
                    mobile_phone_number?: string;
                    home_address_zip_code?: string;
                    /** Format: email */
                    email?: string;
                };
            };
            /** @enum {string} */
            job?: "direct_deposit_switch" | "direct_deposit_payment";
            account_number?: string;
            routing_number?: string;
            /** @enum {string} */
            account_type?: "checking" | "savings";
            account_name?: string;
            skip_exit_survey?: boolean;
        };
        LinkToken: {
            /** Format: uuid */
            id: string;
            token: string;
            expires: components["schemas"]["Timestamp"];
            /** @enum {string} */
            mode: "sandbox" | "development" | "production";
        };
        Account: {
            /** Format: uuid */
            id: string;
            created_at: components["schemas"]["Timestamp"];
            /** Format: uuid */
            link_token_id: string;
            /** Format: uuid */
            platform_id: string;
            end_user_id: string;
            connected: boolean;
            monitoring_status: components["schemas"]["MonitoringStatus"];
            data_updated_at: {
                [key: string]: components["schemas"]["Timestamp"];
            };
            data_refreshed_at: {
                [key: string]: components["schemas"]["Timestamp"];
            };
            /**
             * @description Present when the person took their consent back on their own page (docs/person.md): connected is false, monitoring_status unavailable, and the data read from the account was deleted (webhook consent.revoked). Absent otherwise.
             * @enum {string}
             */
            disconnected_by?: "end_user";
        };
        Job: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            account_id: string;
            /** Format: uuid */
            platform_id: string;
            /** @description Ends in (Partnership) for partner platforms. */
            platform_name: string;
            /** Format: uuid */
            link_token_id: string;
            name: components["schemas"]["JobType"];
            timestamp: components["schemas"]["Timestamp"];
            outcome: components["schemas"]["Outcome"];
            error_code: string | null;
            /** @description The kind of error (the vendor's field): PLATFORM_ERROR, USER_ACTION_REQUIRED, ...; null unless the outcome is error. */
            error_type: string | null;
            /** @description For switches: action and allocation (absent for platform matching). For read jobs, what they fetched: count, and from_pay_date/to_pay_date (paystubs) or year/document_type (tax_forms), with sync_status. Versions before 2023-11-22 add amount (cents or null). */
            params: {
                /** @enum {string} */
                action?: "full_switch" | "partial_switch";
                amount?: number | null;
                /** @description How many data objects the job fetched. */
                count?: number;
                /** Format: date */
                from_pay_date?: string;
                /** Format: date */
                to_pay_date?: string;
                /** @enum {string} */
                sync_status?: "in_progress" | "complete";
                /** @description The newest tax year a tax_forms job read. */
                year?: number;
                /** @enum {string} */
                document_type?: "paystub" | "W-2" | "1099" | "direct_deposit_form" | "verification_report" | "1040" | "bank_statement" | "ssi_award_letter" | "w2" | "verification_photo";
                /**
                 * @description bill_switch: the new payment method's kind.
                 * @enum {string}
                 */
                type?: "ach" | "card";
                /** @description bill_switch: the new payment method, never in full. */
                payment?: {
                    card_name?: string;
                    last_four_card_number?: string;
                    account_name?: string;
                    /** @enum {string} */
                    account_type?: "checking" | "savings";
                    last_four_account_number?: string;
                };
                allocation?: {
                    /** @enum {string} */
                    type?: "amount" | "percentage" | "remainder";
                    /**
                     * Format: decimal
                     * @description Dollars written from cents with two decimals (19.99) for amount; the whole percentage for percentage.
                     */
                    value?: number;
                    target?: {
                        account_name?: string;
                        /** @enum {string} */
                        account_type: "checking" | "savings";
                        /** @description The target account's last four digits (absent only on switches recorded before Payline kept them). */
                        last_four_account_number?: string;
                    };
                };
            };
        };
        ErrorBody: {
            error: {
                /** @enum {string} */
                type: "RECORD_NOT_FOUND" | "INVALID_REQUEST_PARAMETERS" | "UNAUTHORIZED_REQUEST" | "UNKNOWN_ERROR" | "RATE_LIMIT_EXCEEDED";
                code: string;
                message: string;
                status_code: number;
            };
        };
        PaginationMeta: {
            count: number;
            /** @description Null on the last page. */
            next_cursor: string | null;
        };
        /** Format: date-time */
        Timestamp: string;
        /** @enum {string} */
        JobType: "identity" | "paystubs" | "income" | "direct_deposit_switch" | "bill_cancellation" | "employment" | "shifts" | "direct_deposit_payment" | "tax_forms" | "bill_switch" | "direct_deposit_allocations";
        /** @enum {string} */
        PlatformType: "payroll" | "time_and_attendance" | "tax" | "merchant";
        /** @enum {string} */
        MerchantCategory: "automotive" | "buy_now_pay_later" | "charity_and_donations" | "education" | "entertainment_and_recreation" | "financial_services" | "fitness" | "food_and_delivery" | "gaming" | "health_and_wellness" | "home_and_household_services" | "insurance" | "internet_and_telecom" | "loan" | "media" | "music_and_audio_streaming" | "news" | "other" | "productivity_and_saas_tools" | "professional_services" | "rent" | "shopping_and_retail" | "social_and_dating" | "sports" | "travel_and_transportation" | "utilities" | "video_streaming";
        Employer: {
            /** Format: uuid */
            id: string;
            name: string;
            last_updated: components["schemas"]["Timestamp"];
            /** Format: uri */
            logo_url?: string;
            supported_jobs: components["schemas"]["JobType"][];
            amount_supported: boolean;
            fractional_amount_supported: boolean;
            /**
             * Format: decimal
             * @description Dollars written from stored cents with two decimals (5.00); absent when amounts are not supported.
             */
            min_amount?: number;
            /**
             * Format: decimal
             * @description Dollars written from stored cents with two decimals (2500.00); absent when amounts are not supported.
             */
            max_amount?: number;
            percentage_supported: boolean;
            /** @description 0 when percentages are not supported. */
            min_percentage: number;
            /** @description 0 when percentages are not supported. */
            max_percentage: number;
        };
        Platform: {
            /** Format: uuid */
            id: string;
            name: string;
            display_name: string;
            type: components["schemas"]["PlatformType"];
            last_updated: components["schemas"]["Timestamp"];
            /** Format: uri */
            logo_url?: string;
            merchant_categories: components["schemas"]["MerchantCategory"][];
            /** @description Null except for merchant platforms. */
            merchant_category: components["schemas"]["MerchantCategory"] | null;
            supported_jobs: components["schemas"]["JobType"][];
            amount_supported: boolean;
            fractional_amount_supported: boolean;
            /** Format: decimal */
            min_amount?: number;
            /** Format: decimal */
            max_amount?: number;
            percentage_supported: boolean;
            min_percentage: number;
            max_percentage: number;
        };
        /** @description An Employer (response_type employer) or a Platform (response_type platform, with platform_type). */
        SearchResult: {
            /** @enum {string} */
            response_type: "employer" | "platform";
            platform_type?: components["schemas"]["PlatformType"];
            /** Format: uuid */
            id: string;
            name: string;
            display_name?: string;
            type?: components["schemas"]["PlatformType"];
            last_updated: components["schemas"]["Timestamp"];
            /** Format: uri */
            logo_url?: string;
            merchant_categories?: components["schemas"]["MerchantCategory"][];
            merchant_category?: components["schemas"]["MerchantCategory"] | null;
            supported_jobs: components["schemas"]["JobType"][];
            amount_supported: boolean;
            fractional_amount_supported: boolean;
            /** Format: decimal */
            min_amount?: number;
            /** Format: decimal */
            max_amount?: number;
            percentage_supported: boolean;
            min_percentage: number;
            max_percentage: number;
        };
    };
    responses: {
        /** @description The webhook. */
        OneWebhook: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    data: components["schemas"]["Webhook"];
                };
            };
        };
        /** @description The dispute. */
        OneDispute: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    data: components["schemas"]["Dispute"];
                };
            };
        };
        /** @description The Link order. */
        OneLinkOrder: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    data: components["schemas"]["LinkOrder"];
                };
            };
        };
        /** @description A page of accounts. */
        AccountPage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    meta: components["schemas"]["PaginationMeta"];
                    data: components["schemas"]["Account"][];
                };
            };
        };
        /** @description The account. */
        OneAccount: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    data: components["schemas"]["Account"];
                };
            };
        };
        /** @description The report, with a fresh download link to its PDF. */
        OneReport: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    data: components["schemas"]["VerificationReport"];
                };
            };
        };
        /**
         * @description 400 INVALID_REQUEST_PARAMETERS, 401 UNAUTHORIZED_REQUEST,
         *     404 RECORD_NOT_FOUND, 429 RATE_LIMIT_EXCEEDED (with Retry-After),
         *     500 UNKNOWN_ERROR.
         */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: {
        /** @description Your own reference for this report (a loan or case number). Printed on the PDF and echoed in the JSON; a tracking id other than the current version's builds a version of its own. */
        ReportTrackingID: string;
        /** @description The permissible purpose you have for the report. Printed on the PDF and echoed in the JSON; another purpose than the current version's builds a version of its own. */
        ReportPurpose: "credit_application" | "account_review" | "employment" | "tenant_screening" | "insurance" | "government_benefits" | "consumer_request";
        ServiceVersion: "2025-07-08" | "2023-11-22" | "2023-07-18" | "2023-04-18" | "2022-09-09" | "2022-06-22" | "2022-03-02";
        /** @description meta.next_cursor of the previous page, unchanged. */
        Cursor: string;
        Limit: number;
        /** @description Only rows updated after this RFC 3339 date-time. */
        LastUpdated: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listEmployers: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
                /** @description Only rows updated after this RFC 3339 date-time. */
                last_updated?: components["parameters"]["LastUpdated"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of employers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Employer"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    lookupEmployer: {
        parameters: {
            query: {
                /** @description Exactly 9 digits, no dash. */
                ein: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The employer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Employer"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getEmployer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                employer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The employer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Employer"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listPlatforms: {
        parameters: {
            query?: {
                include_esps?: boolean;
                type?: components["schemas"]["PlatformType"];
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
                /** @description Only rows updated after this RFC 3339 date-time. */
                last_updated?: components["parameters"]["LastUpdated"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of platforms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Platform"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getPlatform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                platform_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Platform"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    search: {
        parameters: {
            query: {
                q: string;
                /** @description Repeatable; results support every job listed. */
                supported_jobs?: components["schemas"]["JobType"][];
                response_types?: ("employer" | "platform")[];
                amount_supported?: boolean;
                platform_type?: components["schemas"]["PlatformType"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matches, best first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            count: number;
                        };
                        data: components["schemas"]["SearchResult"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createLinkToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkTokenCreate"];
            };
        };
        responses: {
            /** @description The token. `token` is shown only here. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LinkToken"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                job_types?: components["schemas"]["JobType"][];
                link_token_id?: string;
                account_id?: string;
                outcome?: components["schemas"]["Outcome"];
                from_timestamp?: string;
                to_timestamp?: string;
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Job"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    adminToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The member's e-mail address. */
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            token: string;
                            /** Format: date-time */
                            expiration: string;
                            workspace_name: string;
                            /** @enum {string} */
                            mode: "sandbox" | "development" | "production";
                            /** @enum {string} */
                            user_role: "administrator" | "developer" | "reviewer" | "viewer";
                        };
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listAPIKeys: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["APIKey"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createAPIKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    expires_at?: string | null;
                };
            };
        };
        responses: {
            /** @description The new key with its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["APIKey"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    revokeAPIKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                api_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["APIKey"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every member of the workspace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Member"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    endMemberSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whose sessions ended, and how many there were (0 when none were open). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            member_id: string;
                            email: string;
                            sessions_ended: number;
                        };
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    org_name: string;
                    /** @enum {string} */
                    job: "direct_deposit_switch" | "direct_deposit_payment";
                    account_number: string;
                    routing_number: string;
                    /** @enum {string} */
                    account_type: "checking" | "savings";
                    account_name?: string;
                    /** Format: uri */
                    redirect_url: string;
                    /**
                     * Format: decimal
                     * @description Dollars with exactly two decimals; required for direct_deposit_payment.
                     */
                    amount?: number;
                    /** Format: uuid */
                    employer_id?: string;
                    /** Format: uuid */
                    platform_id?: string;
                    /** @default false */
                    skip_exit_survey?: boolean;
                    /**
                     * @description Seconds the url works.
                     * @default 900
                     */
                    ttl?: number;
                };
            };
        };
        responses: {
            /** @description The site. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            url: string;
                            /** @description Unix seconds */
                            expires: number;
                            /** Format: uuid */
                            token_id: string;
                        };
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    legacyTokenJobs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token's jobs. */
            200: {
                headers: {
                    Deprecation?: string;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"][];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                connected?: boolean;
                monitoring_status?: components["schemas"]["MonitoringStatus"];
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["AccountPage"];
            default: components["responses"]["Error"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneAccount"];
            default: components["responses"]["Error"];
        };
    };
    listEndUserAccounts: {
        parameters: {
            query?: {
                connected?: boolean;
                monitoring_status?: components["schemas"]["MonitoringStatus"];
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["AccountPage"];
            default: components["responses"]["Error"];
        };
    };
    createPortalLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The portal link. Its url is shown only here. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PortalLink"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    sandboxLinkSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The link token value. */
                    token: string;
                    /** Format: uuid */
                    platform_id?: string;
                    /** Format: uuid */
                    employer_id?: string;
                    username: string;
                    password: string;
                    mfa_code?: string;
                    /** @description For switch tokens; a full switch when absent. */
                    allocation?: {
                        /** @enum {string} */
                        action?: "full_switch" | "partial_switch";
                        /** @enum {string} */
                        type?: "amount" | "percentage" | "remainder";
                        /**
                         * Format: decimal
                         * @description Dollars with at most two decimals for amount; a whole percentage for percentage.
                         */
                        value?: number;
                    };
                };
            };
        };
        responses: {
            /** @description The account the login made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            account_id: string;
                            /** Format: uuid */
                            link_token_id: string;
                        };
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    sandboxPatchAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    monitoring_status: "active" | "degraded" | "user_action_required" | "unavailable";
                };
            };
        };
        responses: {
            200: components["responses"]["OneAccount"];
            default: components["responses"]["Error"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    /** @enum {string} */
                    version: "2025-07-08" | "2023-11-22" | "2023-07-18" | "2023-04-18";
                    enabled_events: string[];
                    /** @enum {string} */
                    status?: "active" | "paused";
                };
            };
        };
        responses: {
            200: components["responses"]["OneWebhook"];
            default: components["responses"]["Error"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneWebhook"];
            default: components["responses"]["Error"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    enabled_events?: string[];
                    /** @enum {string} */
                    status?: "active" | "paused";
                };
            };
        };
        responses: {
            200: components["responses"]["OneWebhook"];
            default: components["responses"]["Error"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    openWebhookListener: {
        parameters: {
            query?: {
                enabled_events?: string;
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching to the websocket protocol. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    receiveUpstreamWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    event: string;
                    event_id: string;
                    payload: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description Received and ingested. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        received?: boolean;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getOpenAPI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI description. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
        };
    };
    getConnectorProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connector protocol, version 1. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
        };
    };
    sandboxTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product and when it was last read from the platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Identity"];
                        meta: components["schemas"]["ProductMeta"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getEmployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product and when it was last read from the platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Employment"];
                        meta: components["schemas"]["ProductMeta"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getIncome: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product and when it was last read from the platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Income"];
                        meta: components["schemas"]["ProductMeta"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getDirectDepositAllocations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product and when it was last read from the platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DirectDepositAllocations"];
                        meta: components["schemas"]["ProductMeta"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listPaystubs: {
        parameters: {
            query?: {
                /** @description Only stubs paid on or after this date. */
                from_pay_date?: string;
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["ListMetaWithFreshness"];
                        data: components["schemas"]["Paystub"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getPaystub: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
                paystub_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The paystub. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Paystub"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listTaxForms: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["ListMetaWithFreshness"];
                        data: components["schemas"]["TaxForm"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getTaxForm: {
        parameters: {
            query?: {
                with_parsed_data?: boolean;
            };
            header?: never;
            path: {
                account_id: string;
                tax_form_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tax form. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TaxForm"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listShifts: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["ListMetaWithFreshness"];
                        data: components["schemas"]["Shift"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                type?: "direct_deposit_form" | "w2";
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Document"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listDocumentReviews: {
        parameters: {
            query?: {
                /** @description Whose review is required (the default), completed, or all of them. */
                status?: "required" | "completed" | "all";
                /** @description Only this end user's documents. */
                end_user_id?: string;
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of documents, each with its review. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Document"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getDocumentPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
                document_id: string;
                /** @description The page, from 1. */
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    reviewDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    outcome: "accepted" | "rejected";
                    /** @description Field name to its corrected value, as text. */
                    corrections?: {
                        [key: string]: (string | number) | null;
                    };
                    /** @description Why; required to reject. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The document as reviewed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listEarningsStreamPayouts: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["EarningsStreamMeta"];
                        data: components["schemas"]["Payout"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    setBillNavigatorStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "deactivate";
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Recorded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    getVOIE: {
        parameters: {
            query?: {
                /** @description Your own reference for this report (a loan or case number). Printed on the PDF and echoed in the JSON; a tracking id other than the current version's builds a version of its own. */
                tracking_id?: components["parameters"]["ReportTrackingID"];
                /** @description The permissible purpose you have for the report. Printed on the PDF and echoed in the JSON; another purpose than the current version's builds a version of its own. */
                purpose?: components["parameters"]["ReportPurpose"];
            };
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneReport"];
            default: components["responses"]["Error"];
        };
    };
    getVOE: {
        parameters: {
            query?: {
                /** @description Your own reference for this report (a loan or case number). Printed on the PDF and echoed in the JSON; a tracking id other than the current version's builds a version of its own. */
                tracking_id?: components["parameters"]["ReportTrackingID"];
                /** @description The permissible purpose you have for the report. Printed on the PDF and echoed in the JSON; another purpose than the current version's builds a version of its own. */
                purpose?: components["parameters"]["ReportPurpose"];
            };
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneReport"];
            default: components["responses"]["Error"];
        };
    };
    downloadDocument: {
        parameters: {
            query: {
                expires: string;
                signature: string;
            };
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF, as an attachment, not cached. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description The requested range of the PDF. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listLinkOrders: {
        parameters: {
            query?: {
                /** @description Only this end user's orders. */
                end_user_id?: string;
                /** @description Only orders with this status. */
                status?: components["schemas"]["LinkOrderStatus"];
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["LinkOrder"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkOrderCreate"];
            };
        };
        responses: {
            201: components["responses"]["OneLinkOrder"];
            default: components["responses"]["Error"];
        };
    };
    getLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                link_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneLinkOrder"];
            default: components["responses"]["Error"];
        };
    };
    resendLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                link_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneLinkOrder"];
            default: components["responses"]["Error"];
        };
    };
    cancelLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                link_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneLinkOrder"];
            default: components["responses"]["Error"];
        };
    };
    listDisputes: {
        parameters: {
            query?: {
                /** @description Only this end user's disputes. */
                end_user_id?: string;
                /** @description Only disputes with this status. */
                status?: components["schemas"]["DisputeStatus"];
                /** @description true: only unresolved disputes past their due_at. */
                overdue?: boolean;
                /** @description meta.next_cursor of the previous page, unchanged. */
                cursor?: components["parameters"]["Cursor"];
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of disputes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: components["schemas"]["PaginationMeta"];
                        data: components["schemas"]["Dispute"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dispute_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneDispute"];
            default: components["responses"]["Error"];
        };
    };
    investigateDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dispute_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneDispute"];
            default: components["responses"]["Error"];
        };
    };
    resolveDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dispute_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    outcome: components["schemas"]["DisputeOutcome"];
                    /** @description What the reinvestigation found; the person sees it. */
                    reason: string;
                };
            };
        };
        responses: {
            200: components["responses"]["OneDispute"];
            default: components["responses"]["Error"];
        };
    };
    openDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeCreate"];
            };
        };
        responses: {
            201: components["responses"]["OneDispute"];
            default: components["responses"]["Error"];
        };
    };
    addDisputeInformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                end_user_id: string;
                dispute_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeInformationCreate"];
            };
        };
        responses: {
            200: components["responses"]["OneDispute"];
            default: components["responses"]["Error"];
        };
    };
    showLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The open order's page, or the completed order's. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No order has this link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The order expired or was canceled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    openLinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order is completed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description To Link's hosted page. */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No order has this link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The order expired or was canceled. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    linkOrderQRCode: {
        parameters: {
            query?: {
                format?: "png" | "svg";
            };
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The QR code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
                };
            };
            /** @description No order has this link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    disconnectAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Disconnected. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    disableMonitoring: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Monitoring disabled. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
}
