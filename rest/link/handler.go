// Package link serves the hosted Link modal: the JavaScript SDK
// (/link/v1/link.js), the modal page and its assets (embedded, no CDN),
// a demo page, and the JSON API the modal calls (/link/v1/api/*). The API
// is authenticated by the link token, never by an API secret, and every
// call goes through domain.LinkService, the same code the sandbox helper
// uses.
package link

import (
	"embed"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"payline/domain"
	"payline/rest/wire"
)

//go:embed assets
var assets embed.FS

// Handler serves everything under /link/v1/.
type Handler struct {
	link       *domain.LinkService
	directory  *domain.DirectoryService
	log        *slog.Logger
	mux        *http.ServeMux
	privacyURL string
	// upstreams are, in a relayed mode, the origins (scheme, host, port)
	// of the upstreams' Link SDKs, which the modal loads and frames.
	upstreams string
	// publicURL is where browsers reach this server (SetPublicURL).
	publicURL string
	// portal sends receipts (SetPortal).
	portal *domain.PortalService
}

// DefaultPrivacyURL is Payline's own privacy notice, linked from Link's
// consent screen unless the operator names another.
const DefaultPrivacyURL = "/link/v1/privacy"

// NewHandler builds the Link routes. Unexpected errors are logged to log
// with the request id. privacyURL is the consent screen's privacy link
// (DefaultPrivacyURL when empty); upstreamOrigins, in a relayed mode, are
// the upstreams' Link origins the modal may load and frame.
func NewHandler(link *domain.LinkService, directory *domain.DirectoryService, log *slog.Logger, privacyURL string, upstreamOrigins []string) *Handler {
	if privacyURL == "" {
		privacyURL = DefaultPrivacyURL
	}
	h := &Handler{link: link, directory: directory, log: log, mux: http.NewServeMux(), privacyURL: privacyURL,
		upstreams: strings.Join(upstreamOrigins, " ")}
	static, _ := fs.Sub(assets, "assets")
	files := http.FileServer(http.FS(static))
	h.mux.HandleFunc("GET /link/v1/link.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		serveAsset(files, w, r, "/link.js")
	})
	h.mux.HandleFunc("GET /link/v1/modal", func(w http.ResponseWriter, r *http.Request) {
		// The modal is framed by integrators' pages, so framing is allowed;
		// everything it loads and calls is this origin.
		// blob: shows the pictures a person takes before they are sent.
		csp := "default-src 'self'; img-src 'self' data: blob:; frame-ancestors *"
		if h.upstreams != "" {
			// A relayed mode opens the upstream's Link inside the modal.
			csp += "; script-src 'self' " + h.upstreams + "; frame-src " + h.upstreams
		}
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Cache-Control", "no-store")
		serveAsset(files, w, r, "/modal.html")
	})
	h.mux.HandleFunc("GET /link/v1/demo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		serveAsset(files, w, r, "/demo.html")
	})
	h.mux.HandleFunc("GET /link/v1/site", func(w http.ResponseWriter, r *http.Request) {
		// A legacy site's page: Link full-page without the integrator's
		// SDK; the token is in the fragment, which never reaches a server.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		serveAsset(files, w, r, "/site.html")
	})
	h.mux.HandleFunc("GET "+continuePath, func(w http.ResponseWriter, r *http.Request) {
		// The page a hand-off's QR code opens on the phone: the code is in
		// the fragment, read by the page and then taken out of the address.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		serveAsset(files, w, r, "/continue.html")
	})
	h.mux.HandleFunc("GET /link/v1/privacy", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		serveAsset(files, w, r, "/privacy.html")
	})
	h.mux.Handle("GET /link/v1/assets/", http.StripPrefix("/link/v1/assets", files))
	h.mux.HandleFunc("GET /link/v1/api/session", h.api(h.session))
	h.mux.HandleFunc("GET /link/v1/api/search", h.api(h.search))
	h.mux.HandleFunc("GET /link/v1/api/merchants", h.api(h.merchants))
	h.mux.HandleFunc("GET /link/v1/api/matches", h.api(h.matches))
	h.mux.HandleFunc("POST /link/v1/api/login", h.api(h.login))
	h.mux.HandleFunc("POST /link/v1/api/switch", h.api(h.doSwitch))
	h.mux.HandleFunc("POST /link/v1/api/bill", h.api(h.bill))
	h.mux.HandleFunc("POST "+uploadsPath, h.api(h.uploads))
	h.mux.HandleFunc("POST "+previewPath, h.api(h.previewUploads))
	h.mux.HandleFunc("POST /link/v1/api/matched_switch", h.api(h.matchedSwitch))
	h.mux.HandleFunc("GET /link/v1/api/jobs/{job_id}", h.api(h.job))
	h.mux.HandleFunc("POST /link/v1/api/dd_form", h.api(h.depositForm))
	h.mux.HandleFunc("POST /link/v1/api/handoff", h.api(h.startHandoff))
	h.mux.HandleFunc("GET /link/v1/api/handoff/{handoff_id}", h.api(h.handoff))
	h.mux.HandleFunc("POST "+claimPath, h.api(h.claimHandoff))
	h.mux.HandleFunc("POST "+receiptPath, h.api(h.receipt))
	// Anything else under the API, a wrong method included, is answered in
	// Link's error shape rather than net/http's plain text.
	h.mux.HandleFunc("/link/v1/api/", h.api(h.noRoute))
	return h
}

// noRoute refuses an API path or method the modal never calls, naming the
// methods the path takes when there are any.
func (h *Handler) noRoute(r *http.Request, _ string) (any, error) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := h.mux.Handler(probe); pattern != "" && pattern != "/link/v1/api/" {
			allowed = append(allowed, m)
		}
	}
	path := strings.ToValidUTF8(r.URL.Path, "?")
	if len(allowed) > 0 {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeMethodNotAllowed, "%s takes %s, not %s", path, strings.Join(allowed, " or "), r.Method)
	}
	return nil, domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound, "the Link API has no endpoint %s", path)
}

func serveAsset(files http.Handler, w http.ResponseWriter, r *http.Request, name string) {
	r2 := r.Clone(r.Context())
	r2.URL.Path = name
	files.ServeHTTP(w, r2)
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

type apiFunc func(r *http.Request, token string) (any, error)

// api reads the link token from "Authorization: Bearer" and writes the
// result, or a Link error: {error: {type, code, message, pending_retry}}.
func (h *Handler) api(fn apiFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		out, err := fn(r, token)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		wire.Write(w, http.StatusOK, out)
	}
}

// TokenFirst checks a request's link token before anything reads its
// body: a body (a document upload is up to ten files of 10 MB) is read
// only for a token that opens, so a stranger without one cannot make the
// server hold uploads in memory. A token that does not open gets its
// Link error at once. An upload or a preview is admitted to be read
// (domain.LinkService.AdmitUploads: the token's preview rate, a document
// slot, waiting for one in the queue) before its files are read too, so
// a request refused or waiting holds no files, and it holds the slot
// until its answer is written.
func (h *Handler) TokenFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			var err error
			switch r.URL.Path {
			case claimPath:
				// A phone claiming a hand-off has no token yet: its code,
				// in a small JSON body, is what it has.
			case uploadsPath, previewPath:
				ctx, release, admitErr := h.link.AdmitUploads(r.Context(), token, r.URL.Path == previewPath)
				defer release()
				r, err = r.WithContext(ctx), admitErr
			default:
				_, err = h.link.Open(r.Context(), token)
			}
			if err != nil {
				w.Header().Set("Cache-Control", "no-store")
				h.writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// The paths of Link's uploads and their previews, which read documents.
const (
	uploadsPath = "/link/v1/api/uploads"
	previewPath = "/link/v1/api/uploads/preview"
)

// linkError is the payload of Link's error and exit events.
type linkError struct {
	Type         string `json:"type"`
	Code         string `json:"code"`
	Message      string `json:"message"`
	PendingRetry bool   `json:"pending_retry"`
}

// writeError sends a Link error with the status REST would use for it,
// through the one writer every HTTP transport shares; the type groups the
// code as domain.LinkErrorType says.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	wire.WriteError(w, r, h.log, err, func(e *domain.Error, _ int) any {
		return map[string]linkError{"error": {Type: domain.LinkErrorType(e.Code), Code: e.Code, Message: e.Message}}
	})
}

type targetJSON struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	LastFour string `json:"last_four"`
}

// platformJSON is what the modal needs of a platform: its name and the
// switch limits REST shows, in the same shape.
type platformJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
	wire.SwitchLimits
}

func newPlatformJSON(p domain.Platform) platformJSON {
	return platformJSON{ID: p.ID, Name: p.Name, Type: string(p.Type), SwitchLimits: wire.NewSwitchLimits(p.SupportedJobs, p.SwitchLimits)}
}

// session tells the modal what this token allows.
func (h *Handler) session(r *http.Request, token string) (any, error) {
	sess, err := h.link.Open(r.Context(), token)
	if err != nil {
		return nil, err
	}
	t := sess.Token
	if sess.Account != nil {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeLinkTokenUsed, "this link token was already used; ask for a new one")
	}
	out := map[string]any{
		"link_token_id": t.ID, "org_name": t.OrgName, "mode": t.Mode, "jobs": t.Jobs(),
		"wants_switch": t.WantsSwitch(), "disable_splitting": t.DisableDirectDepositSplitting,
		"skip_intro_screen": t.SkipIntroScreen, "platform_matching": t.PlatformMatching != nil,
		"on_demand_update": t.AccountID != "", "privacy_url": h.privacyURL, "redirect_url": t.RedirectURL,
		"bill_job": billJob(t),
		// A user who cannot log in may upload documents instead: the
		// domain's rule, which UploadDocuments enforces too.
		"uploads": sess.UploadsOffered(),
		// The consent screen's text version, which the login sends back
		// so Link records what the end user agreed to.
		"consent_text_version": domain.ConsentTextVersion,
	}
	if sess.Upstream != nil {
		// A relayed mode: the modal opens the upstream's Link with its own
		// token, inside itself; credentials go to the upstream only.
		out["upstream"] = map[string]string{"link_token": sess.Upstream.Token, "sdk_url": sess.Upstream.SDKURL}
	}
	if t.Allocation != nil {
		var targets []targetJSON
		for _, tg := range t.Allocation.Targets {
			targets = append(targets, targetJSON{Name: tg.Name, Type: tg.Type, LastFour: tg.Masked()})
		}
		out["allocation"] = map[string]any{"type": t.Allocation.Type, "value": t.Allocation.ValueJSON(), "targets": targets}
	}
	if t.PlatformID != "" || t.EmployerID != "" {
		p, employerID, err := h.link.Target(r.Context(), t, "", "")
		switch {
		case err == nil:
			out["platform"] = newPlatformJSON(p)
		case sess.Upstream != nil && t.PlatformID == "":
			// A relayed token naming an employer whose platform the
			// upstream's directory does not say: the upstream's Link finds
			// it; the session names the employer alone.
			employerID = t.EmployerID
		default:
			return nil, err
		}
		if employerID != "" {
			e, err := h.directory.Employer(r.Context(), employerID)
			if err != nil {
				return nil, err
			}
			out["employer"] = map[string]string{"id": e.ID, "name": e.Name}
		}
	}
	return out, nil
}

// search finds employers and platforms that can do the token's jobs.
func (h *Handler) search(r *http.Request, token string) (any, error) {
	sess, err := h.link.Open(r.Context(), token)
	if err != nil {
		return nil, err
	}
	results, err := h.directory.Search(r.Context(), domain.SearchQuery{Q: r.URL.Query().Get("q"), SupportedJobs: sess.Token.RequiredJobs, Limit: 15})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, res := range results {
		if res.Employer != nil {
			ids = append(ids, res.Employer.PlatformID)
		}
	}
	platforms, errs := h.directory.PlatformsByID(r.Context(), ids)
	names := map[string]string{}
	for i, p := range platforms {
		if errs[i] == nil {
			names[p.ID] = p.Name
		}
	}
	out := make([]map[string]any, 0, len(results))
	for _, res := range results {
		if res.Employer != nil {
			out = append(out, map[string]any{"kind": "employer", "id": res.Employer.ID, "name": res.Employer.Name,
				"platform_id": res.Employer.PlatformID, "platform_name": names[res.Employer.PlatformID], "logo_url": res.Employer.LogoURL})
		} else {
			out = append(out, map[string]any{"kind": "platform", "id": res.Platform.ID, "name": res.Platform.Name,
				"platform_id": res.Platform.ID, "platform_name": res.Platform.Name, "logo_url": res.Platform.LogoURL})
		}
	}
	return map[string]any{"results": out}, nil
}

// billJob is the bill change a token asks for ("" for none): a switch
// when it asks for both.
func billJob(t domain.LinkToken) domain.JobType { return t.BillJob() }

// merchants lists the merchants that can make the token's bill change,
// with the categories that have any, for Link's category chips; with
// ?category= only that category's.
func (h *Handler) merchants(r *http.Request, token string) (any, error) {
	sess, err := h.link.Open(r.Context(), token)
	if err != nil {
		return nil, err
	}
	job := billJob(sess.Token)
	if job == "" {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeUnsupportedJobs, "this link token asks for no bill change")
	}
	category := r.URL.Query().Get("category")
	var out []map[string]any
	seen := map[string]bool{}
	var cursor *domain.Cursor
	for {
		page, err := h.directory.ListPlatforms(r.Context(), domain.PlatformFilter{Type: domain.PlatformMerchant},
			domain.PageRequest{Limit: domain.MaxPageLimit, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, p := range page.Items {
			if !slices.Contains(p.SupportedJobs, job) {
				continue
			}
			for _, c := range p.MerchantCategories {
				seen[c] = true
			}
			if category == "" || slices.Contains(p.MerchantCategories, category) {
				out = append(out, map[string]any{"kind": "platform", "id": p.ID, "name": p.Name, "platform_id": p.ID,
					"platform_name": p.Name, "logo_url": p.LogoURL, "categories": p.MerchantCategories})
			}
		}
		if page.Next == nil {
			break
		}
		cursor = page.Next
	}
	var categories []string
	for _, c := range domain.MerchantCategories {
		if seen[c] {
			categories = append(categories, c)
		}
	}
	return map[string]any{"categories": categories, "results": out}, nil
}

// matches runs platform matching; an empty list sends the user to search.
func (h *Handler) matches(r *http.Request, token string) (any, error) {
	matched, err := h.link.MatchPlatforms(r.Context(), token)
	if err != nil {
		return nil, err
	}
	out := make([]platformJSON, len(matched))
	for i, p := range matched {
		out[i] = newPlatformJSON(p)
	}
	return map[string]any{"platforms": out}, nil
}

func (h *Handler) login(r *http.Request, token string) (any, error) {
	var b struct {
		PlatformID string `json:"platform_id"`
		EmployerID string `json:"employer_id"`
		Username   string `json:"username"`
		Password   string `json:"password"`
		MFACode    string `json:"mfa_code"`
		// ConsentTextVersion is the consent text the modal showed.
		ConsentTextVersion string `json:"consent_text_version"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	acct, err := h.link.Login(r.Context(), token, domain.LoginRequest{PlatformID: b.PlatformID, EmployerID: b.EmployerID,
		Credentials:        domain.Credentials{Username: b.Username, Password: b.Password, MFACode: b.MFACode},
		ConsentTextVersion: b.ConsentTextVersion})
	var mfa *domain.MFARequiredError
	if errors.As(err, &mfa) {
		return map[string]any{"mfa_required": true, "prompt": mfa.Prompt}, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := h.directory.Platform(r.Context(), acct.PlatformID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"account_id": acct.ID, "platform": newPlatformJSON(p)}, nil
}

func (h *Handler) doSwitch(r *http.Request, token string) (any, error) {
	var b struct {
		Action string       `json:"action"`
		Type   string       `json:"type"`
		Value  *wire.Number `json:"value"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	j, err := h.link.Switch(r.Context(), token, domain.SwitchRequest{Action: b.Action, Type: b.Type, Value: b.Value.Domain()})
	if err != nil {
		return nil, err
	}
	return newJobJSON(j), nil
}

// uploads takes the documents a user who cannot log in uploads:
// multipart/form-data with document_type and up to ten files.
func (h *Handler) uploads(r *http.Request, token string) (any, error) {
	docType, files, err := readUploadForm(r)
	if err != nil {
		return nil, err
	}
	n, err := h.link.UploadDocuments(r.Context(), token, docType, files)
	if err != nil {
		return nil, err
	}
	return map[string]any{"submitted": n}, nil
}

// uploadPreviewJSON is what the upload screen shows of one file before
// the user submits: whether it was read, what, and a note in the user's
// words.
type uploadPreviewJSON struct {
	Name         string  `json:"name"`
	Read         bool    `json:"read"`
	EmployerName string  `json:"employer_name"`
	PayDate      string  `json:"pay_date"`
	NetPay       *string `json:"net_pay"` // formatted, "$1,234.56"
	Note         string  `json:"note"`
}

// previewUploads reads the files as uploads would and says what was read
// of each, storing nothing: the same multipart body.
func (h *Handler) previewUploads(r *http.Request, token string) (any, error) {
	docType, files, err := readUploadForm(r)
	if err != nil {
		return nil, err
	}
	previews, err := h.link.PreviewUploads(r.Context(), token, docType, files)
	if err != nil {
		return nil, err
	}
	out := make([]uploadPreviewJSON, len(previews))
	for i, p := range previews {
		out[i] = uploadPreviewJSON{Name: p.Name, Read: p.Read, EmployerName: p.EmployerName, PayDate: p.PayDate, Note: p.Note}
		if p.NetPay != nil {
			net := p.NetPay.Formatted()
			out[i].NetPay = &net
		}
	}
	return map[string]any{"files": out}, nil
}

// readUploadForm reads an upload's multipart/form-data: document_type and
// up to ten files, each a document; a part named pages is a further page
// of the document of the file before it (a paystub photographed page by
// page), and counts toward the ten. A file is read only up to the size limit, so an
// oversized one costs no memory.
func readUploadForm(r *http.Request) (string, []domain.UploadFile, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, domain.Errorf(domain.KindInvalid, domain.CodeUnsupportedMediaType, "send the files as multipart/form-data")
	}
	var docType string
	var files []domain.UploadFile
	parts := 0 // files and pages, of which the first MaxUploadFiles are read
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", nil, domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "the upload is larger than %d files of %d MB", domain.MaxUploadFiles, domain.MaxUploadBytes>>20)
		}
		var refusal *domain.Error // the body's reader refused it (too slow)
		if errors.As(err, &refusal) {
			return "", nil, refusal
		}
		if err != nil {
			return "", nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "the multipart body is malformed: %v", err)
		}
		switch part.FormName() {
		case "document_type":
			b, _ := io.ReadAll(io.LimitReader(part, 64))
			docType = string(b)
		case "files", "pages":
			f := domain.UploadFile{Name: part.FileName()}
			if parts < domain.MaxUploadFiles {
				f.Data, err = io.ReadAll(io.LimitReader(part, domain.MaxUploadBytes+1))
			}
			parts++
			rest, copyErr := io.Copy(io.Discard, part)
			if err == nil {
				err = copyErr
			}
			if errors.As(err, &tooLarge) {
				return "", nil, domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "the upload is larger than %d files of %d MB", domain.MaxUploadFiles, domain.MaxUploadBytes>>20)
			}
			if errors.As(err, &refusal) {
				return "", nil, refusal
			}
			if err != nil {
				return "", nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "could not read %s: %v", f.Name, err)
			}
			f.Size = int64(len(f.Data)) + rest
			if part.FormName() == "pages" && len(files) > 0 {
				// A further page of the document of the file before.
				last := &files[len(files)-1]
				last.Pages = append(last.Pages, domain.UploadPage{Data: f.Data, Size: f.Size})
				break
			}
			files = append(files, f)
		}
		part.Close()
	}
	return docType, files, nil
}

// bill queues the bill switch or cancellation the user chose.
func (h *Handler) bill(r *http.Request, token string) (any, error) {
	var b wire.BillBody
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	j, err := h.link.Bill(r.Context(), token, *b.Request())
	if err != nil {
		return nil, err
	}
	return newJobJSON(j), nil
}

func (h *Handler) matchedSwitch(r *http.Request, token string) (any, error) {
	var b struct {
		PlatformID string `json:"platform_id"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	acct, j, err := h.link.MatchedSwitch(r.Context(), token, b.PlatformID)
	if err != nil {
		return nil, err
	}
	out := newJobJSON(j)
	out["account_id"] = acct.ID
	return out, nil
}

// depositForm makes the switch's direct deposit form and links it.
func (h *Handler) depositForm(r *http.Request, token string) (any, error) {
	l, err := h.link.DepositForm(r.Context(), token)
	if err != nil {
		return nil, err
	}
	return map[string]any{"document_id": l.ID, "url": l.DownloadURL, "expires": l.DownloadURLExpiration}, nil
}

func (h *Handler) job(r *http.Request, token string) (any, error) {
	j, err := h.link.Job(r.Context(), token, r.PathValue("job_id"))
	if err != nil {
		return nil, err
	}
	return newJobJSON(j), nil
}

// newJobJSON is what the modal needs to follow a job to its outcome.
func newJobJSON(j domain.Job) map[string]any {
	out := map[string]any{"id": j.ID, "name": j.Name, "account_id": j.AccountID, "platform_id": j.PlatformID,
		"outcome": j.Outcome, "params": j.Params}
	if j.Outcome == domain.OutcomeError || j.Outcome == domain.OutcomePending {
		code := j.ErrorCode
		if j.Outcome == domain.OutcomePending {
			code = domain.CodeJobPending
		}
		out["error"] = linkError{Type: domain.ErrorTypePlatform, Code: code, PendingRetry: j.Outcome == domain.OutcomePending,
			Message: jobErrorMessage(j)}
	}
	return out
}

func jobErrorMessage(j domain.Job) string {
	if j.Outcome == domain.OutcomePending {
		return "The platform is still working on this; the result will arrive by webhook within 24 hours."
	}
	return "The platform could not complete the " + strings.ReplaceAll(string(j.Name), "_", " ") + " (" + j.ErrorCode + ")."
}
