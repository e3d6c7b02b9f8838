package rest

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"payline/domain"
	"payline/internal/qr"
	"payline/rest/wire"
)

const resLinkOrder = "link_order"

// linkOrderBody is the POST /link_orders body: a link token's current
// fields, where to send the link, and the order's own settings.
type linkOrderBody struct {
	OrgName                       string          `json:"org_name"`
	EndUserID                     string          `json:"end_user_id"`
	Solution                      string          `json:"solution"`
	Features                      []string        `json:"features"`
	RequiredJobs                  []string        `json:"required_jobs"`
	Allocation                    *allocationBody `json:"allocation"`
	EmployerID                    string          `json:"employer_id"`
	PlatformID                    string          `json:"platform_id"`
	SkipIntroScreen               bool            `json:"skip_intro_screen"`
	DisableDirectDepositSplitting bool            `json:"disable_direct_deposit_splitting"`
	Language                      string          `json:"language"`
	Delivery                      *struct {
		Email string `json:"email"`
		Phone string `json:"phone"`
	} `json:"delivery"`
	SMSConsent     bool   `json:"sms_consent"`
	ExpiresInHours *int   `json:"expires_in_hours"`
	Reminders      *int   `json:"reminders"`
	TimeZone       string `json:"time_zone"`
}

func (b linkOrderBody) request() (domain.LinkOrderRequest, error) {
	link, err := linkTokenBody{OrgName: b.OrgName, EndUserID: b.EndUserID, Solution: b.Solution, Features: b.Features,
		RequiredJobs: b.RequiredJobs, Allocation: b.Allocation, EmployerID: b.EmployerID, PlatformID: b.PlatformID,
		SkipIntroScreen: b.SkipIntroScreen, DisableDirectDepositSplitting: b.DisableDirectDepositSplitting, Language: b.Language}.request()
	if err != nil {
		return domain.LinkOrderRequest{}, err
	}
	r := domain.LinkOrderRequest{Link: link, SMSConsent: b.SMSConsent, ExpiresInHours: b.ExpiresInHours, Reminders: b.Reminders, TimeZone: b.TimeZone}
	if b.Delivery != nil {
		r.Email, r.Phone = b.Delivery.Email, b.Delivery.Phone
	}
	return r, nil
}

type linkOrderDeliveryJSON struct {
	Channel       domain.MessageChannel `json:"channel"`
	To            string                `json:"to"`
	Status        domain.MessageStatus  `json:"status"`
	SentAt        *wire.Time            `json:"sent_at"`
	FailureReason *string               `json:"failure_reason,omitempty"`
}

type linkOrderJSON struct {
	ID            string                  `json:"id"`
	Status        domain.LinkOrderStatus  `json:"status"`
	EndUserID     string                  `json:"end_user_id"`
	OrgName       string                  `json:"org_name"`
	URL           string                  `json:"url"`
	QRCodeURL     string                  `json:"qr_code_url"`
	CreatedAt     wire.Time               `json:"created_at"`
	ExpiresAt     wire.Time               `json:"expires_at"`
	RemindersLeft int                     `json:"reminders_left"`
	TimeZone      string                  `json:"time_zone"`
	AccountID     *string                 `json:"account_id"`
	Deliveries    []linkOrderDeliveryJSON `json:"deliveries"`
}

func (s *Server) newLinkOrderJSON(o domain.LinkOrder) linkOrderJSON {
	out := linkOrderJSON{ID: o.ID, Status: o.Status, EndUserID: o.EndUserID, OrgName: o.OrgName, URL: s.linkOrders.URL(o),
		QRCodeURL: s.linkOrders.QRCodeURL(o), CreatedAt: wire.Time(o.CreatedAt), ExpiresAt: wire.Time(o.ExpiresAt),
		RemindersLeft: o.RemindersLeft(), TimeZone: o.TimeZone, Deliveries: []linkOrderDeliveryJSON{}}
	if o.AccountID != "" {
		out.AccountID = &o.AccountID
	}
	for _, d := range o.Deliveries {
		j := linkOrderDeliveryJSON{Channel: d.Channel, To: d.MaskedTo(), Status: d.Status}
		if d.SentAt != nil {
			t := wire.Time(*d.SentAt)
			j.SentAt = &t
		}
		if d.FailureReason != "" {
			j.FailureReason = &d.FailureReason
		}
		out.Deliveries = append(out.Deliveries, j)
	}
	return out
}

func (s *Server) linkOrderRoutes() {
	if s.linkOrders == nil {
		return
	}
	s.handle("POST /v1/link_orders", s.createLinkOrder)
	s.handle("GET /v1/link_orders", s.listLinkOrders)
	s.handle("GET /v1/link_orders/{link_order_id}", s.getLinkOrder)
	s.handle("POST /v1/link_orders/{link_order_id}/resend", s.resendLinkOrder)
	s.handle("POST /v1/link_orders/{link_order_id}/cancel", s.cancelLinkOrder)
	// The short links people follow, and their QR codes: no secret, the
	// code is the credential.
	// GET changes nothing (a mail scanner or a link preview that fetches
	// the link neither opens the order nor mints a token); the page posts
	// to the same address, by its script at once or by its button.
	s.mux.Handle("GET "+domain.OrderLinkPath+"{code}", s.unvouched(http.HandlerFunc(s.showLinkOrder)))
	s.mux.Handle("POST "+domain.OrderLinkPath+"{code}", s.unvouched(http.HandlerFunc(s.openLinkOrder)))
	s.mux.Handle("GET "+domain.OrderLinkPath+"{code}/qr", s.unvouched(http.HandlerFunc(s.linkOrderQR)))
	s.mux.HandleFunc("GET "+domain.OrderLinkPath+"open.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write([]byte(orderOpenScript)) // a failed write is a client gone: no one left to tell
	})
}

func (s *Server) createLinkOrder(r *http.Request) (response, error) {
	var body linkOrderBody
	if err := wire.Decode(r, &body); err != nil {
		return response{}, err
	}
	req, err := body.request()
	if err != nil {
		return response{}, err
	}
	o, err := s.linkOrders.Create(r.Context(), scopeOf(r), req, versionOf(r))
	if err != nil {
		return response{}, err
	}
	return response{status: http.StatusCreated, resource: resLinkOrder, data: s.newLinkOrderJSON(o)}, nil
}

func (s *Server) getLinkOrder(r *http.Request) (response, error) {
	o, err := s.linkOrders.LinkOrder(r.Context(), scopeOf(r), r.PathValue("link_order_id"))
	if err != nil {
		return response{}, err
	}
	return object(resLinkOrder, s.newLinkOrderJSON(o)), nil
}

func (s *Server) listLinkOrders(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	var f domain.LinkOrderFilter
	f.EndUserID, _ = q.str("end_user_id")
	if v, ok := q.str("status"); ok {
		f.Status = domain.LinkOrderStatus(v)
	}
	p := q.page(domain.ListLinkOrders)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.linkOrders.LinkOrders(r.Context(), scopeOf(r), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resLinkOrder, mapAll(pg.Items, s.newLinkOrderJSON), pg.Next), nil
}

func (s *Server) resendLinkOrder(r *http.Request) (response, error) {
	o, err := s.linkOrders.Resend(r.Context(), scopeOf(r), r.PathValue("link_order_id"))
	if err != nil {
		return response{}, err
	}
	return object(resLinkOrder, s.newLinkOrderJSON(o)), nil
}

func (s *Server) cancelLinkOrder(r *http.Request) (response, error) {
	o, err := s.linkOrders.Cancel(r.Context(), scopeOf(r), r.PathValue("link_order_id"))
	if err != nil {
		return response{}, err
	}
	return object(resLinkOrder, s.newLinkOrderJSON(o)), nil
}

// orderOpenScript submits the page's form as soon as it loads, so a
// person who followed the link is in Link without a tap; the button
// stays for a browser without scripts.
const orderOpenScript = `document.addEventListener('DOMContentLoaded', function () {
  var f = document.getElementById('open-form');
  if (f) { document.getElementById('open-status').textContent = 'Opening…'; f.submit(); }
});
`

// showLinkOrder answers GET on an order's short link without changing
// anything: an open order's page posts back to open it (its script at
// once, its button without one); a closed order's, or one past its
// expiry, says so.
func (s *Server) showLinkOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.linkOrders.ByCode(r.Context(), r.PathValue("code"))
	if err != nil {
		s.orderFailure(w, r, err)
		return
	}
	if o.Status.Terminal() || !s.linkOrders.Now().Before(o.ExpiresAt) {
		if !o.Status.Terminal() {
			o.Status = domain.OrderExpired // the sweep closes it within a minute
		}
		s.closedOrderPage(w, o)
		return
	}
	s.orderPage(w, http.StatusOK, orderPageData{Title: o.OrgName + " asks you to connect your payroll account",
		Body: "Link opens in a moment. It takes a few minutes: you sign in to your payroll provider, or upload your pay documents.",
		Open: true})
}

// orderFailure answers a link that no order has, or a failure to read it.
func (s *Server) orderFailure(w http.ResponseWriter, r *http.Request, err error) {
	if domain.IsKind(err, domain.KindNotFound) {
		s.orderPage(w, http.StatusNotFound, orderPageData{Title: "This link is not valid",
			Body: "Check that the whole link was copied from the message you received. If it still does not open, ask the company that sent it for a new one."})
		return
	}
	s.log.ErrorContext(r.Context(), "open link order", "request_id", domain.RequestID(r.Context()), "error", err)
	s.orderPage(w, http.StatusServiceUnavailable, orderPageData{Title: "We could not open this link right now",
		Body: "Something went wrong on our side. Please try the link again in a few minutes."})
}

// openLinkOrder follows an order's short link: an open order's page is
// Link, full-page, on the order's link token (a 303 to the hosted site
// page with the token in the fragment, which no server sees and which
// the page takes out of the address bar); a closed order's is a short
// page that says plainly whether it was completed, expired or canceled.
func (s *Server) openLinkOrder(w http.ResponseWriter, r *http.Request) {
	l, err := s.linkOrders.Open(r.Context(), r.PathValue("code"))
	if err != nil {
		s.orderFailure(w, r, err)
		return
	}
	if l.LinkToken != "" {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "/link/v1/site#token="+url.QueryEscape(l.LinkToken), http.StatusSeeOther)
		return
	}
	s.closedOrderPage(w, l.Order)
}

// closedOrderPage says plainly whether the order was completed, expired
// or canceled.
func (s *Server) closedOrderPage(w http.ResponseWriter, o domain.LinkOrder) {
	org := o.OrgName
	switch o.Status {
	case domain.OrderCompleted:
		s.orderPage(w, http.StatusOK, orderPageData{Title: "You're all set", Status: string(o.Status),
			Body: "You already finished this request from " + org + ". There is nothing more to do: you can close this page."})
	case domain.OrderExpired:
		s.orderPage(w, http.StatusGone, orderPageData{Title: "This link has expired", Status: string(o.Status),
			Body: "The link " + org + " sent you stopped working on " + o.ExpiresAt.In(o.Location()).Format("January 2, 2006 at 3:04 PM MST") +
				". Ask " + org + " to send you a new one."})
	default: // canceled
		s.orderPage(w, http.StatusGone, orderPageData{Title: "This link was canceled", Status: string(o.Status),
			Body: org + " canceled this request, so the link no longer opens. If you think this is a mistake, contact " + org + "."})
	}
}

type orderPageData struct {
	Title, Body, Status string
	// Open shows the form that opens Link (an open order's page).
	Open bool
}

// orderPageTemplate is the page of a link that no longer opens Link, in
// Link's own page style (its hosted pages' stylesheet; no inline style
// or script, as the CSP says).
var orderPageTemplate = template.Must(template.New("order").Parse(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{.Title}}</title>
  <link rel="stylesheet" href="/link/v1/assets/demo.css">
{{- if .Open}}
  <script src="/o/open.js"></script>
{{- end}}
</head>
<body>
  <main>
    <h1>{{.Title}}</h1>
    <p{{if .Status}} data-status="{{.Status}}"{{end}}>{{.Body}}</p>
{{- if .Open}}
    <form id="open-form" method="post">
      <button type="submit">Continue</button> <span id="open-status" class="muted" role="status"></span>
    </form>
{{- end}}
    <p class="muted">Payline connects payroll accounts for the companies that ask you to.</p>
  </main>
</body>
</html>
`))

func (s *Server) orderPage(w http.ResponseWriter, status int, d orderPageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = orderPageTemplate.Execute(w, d) // a failed write is a client gone: no one left to tell
}

// qrPixels is the PNG's width: sharp printed at 2 inches on a letter.
const qrPixels = 512

// linkOrderQR draws the order's short link as a QR code: a PNG, or an
// SVG with ?format=svg. Error correction M (internal/qr).
func (s *Server) linkOrderQR(w http.ResponseWriter, r *http.Request) {
	o, err := s.linkOrders.ByCode(r.Context(), r.PathValue("code"))
	if err != nil {
		status := http.StatusServiceUnavailable
		if domain.IsKind(err, domain.KindNotFound) {
			status = http.StatusNotFound
		} else {
			s.log.ErrorContext(r.Context(), "link order QR code", "request_id", domain.RequestID(r.Context()), "error", err)
		}
		http.Error(w, strings.ToLower(http.StatusText(status)), status)
		return
	}
	format := r.URL.Query().Get("format")
	var body []byte
	switch format {
	case "", "png":
		body, err = qr.PNG(s.linkOrders.URL(o), qrPixels)
		w.Header().Set("Content-Type", "image/png")
	case "svg":
		body, err = qr.SVG(s.linkOrders.URL(o), qrPixels)
		w.Header().Set("Content-Type", "image/svg+xml")
	default:
		http.Error(w, "format must be png or svg", http.StatusBadRequest)
		return
	}
	if err != nil {
		s.writeError(w, r, errors.Join(errors.New("draw link order QR code"), err))
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = w.Write(body) // a failed write is a client gone: no one left to tell
}
