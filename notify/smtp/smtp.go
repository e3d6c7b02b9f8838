// Package smtp sends e-mail through an SMTP server (github.com/wneessen/go-mail):
// STARTTLS or implicit TLS, authentication, and a plain-text and an HTML
// body as multipart/alternative. It never logs an address or a body, and
// the errors it returns name neither.
package smtp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"

	"payline/domain"
)

// DefaultTimeout bounds connecting and greeting the server.
const DefaultTimeout = 15 * time.Second

// Config is where and how mail is sent.
type Config struct {
	// URL is smtp://USER:PASSWORD@HOST:PORT (STARTTLS, required unless
	// HOST is a loopback address; port 587 by default) or
	// smtps://USER:PASSWORD@HOST:PORT (TLS from the first byte; port 465
	// by default). Without a user no AUTH is sent. ?auth=login picks
	// AUTH LOGIN instead of PLAIN for servers that offer only it.
	URL string
	// From is the address mail is sent from; the message's FromName (the
	// customer's name) is its display name.
	From string
	// RootCAs, when set, are the CAs the server's certificate may chain
	// to instead of the system's (a relay with a private certificate).
	RootCAs *x509.CertPool
	// Timeout bounds connecting and greeting (DefaultTimeout when zero).
	Timeout time.Duration
	// Now dates what was sent (time.Now when nil).
	Now func() time.Time
}

// Sender sends e-mail through one SMTP server. It is safe for concurrent
// use: each message is sent over a connection of its own.
type Sender struct {
	from string
	opts []mail.Option
	host string
	now  func() time.Time
}

// New checks the configuration and returns the sender; it does not
// connect. The error names what is wrong without repeating the password.
func New(cfg Config) (*Sender, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, errors.New("--smtp-url is not a URL: give smtp://USER:PASSWORD@HOST:587 or smtps://USER:PASSWORD@HOST:465")
	}
	if cfg.From == "" {
		return nil, errors.New("--smtp-from is required with --smtp-url: the address mail is sent from")
	}
	if err := mail.NewMsg().From(cfg.From); err != nil {
		return nil, fmt.Errorf("--smtp-from %q is not an e-mail address", cfg.From)
	}
	host := u.Hostname()
	if host == "" {
		return nil, errors.New("--smtp-url names no host")
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: cfg.RootCAs}
	opts := []mail.Option{mail.WithTimeout(timeout), mail.WithTLSConfig(tlsConfig)}
	var port int
	switch u.Scheme {
	case "smtp":
		port = 587
		policy := mail.TLSMandatory
		if loopback(host) {
			// Nothing crosses a network to a relay on this machine.
			policy = mail.TLSOpportunistic
		}
		opts = append(opts, mail.WithTLSPolicy(policy)) // not WithTLSPortPolicy, which falls back to port 25
	case "smtps":
		port = 465
		opts = append(opts, mail.WithSSL())
	default:
		return nil, fmt.Errorf("--smtp-url scheme %q: use smtp:// (STARTTLS) or smtps:// (implicit TLS)", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port <= 0 || port > 65535 {
			return nil, fmt.Errorf("--smtp-url port %q is not a port", p)
		}
	}
	opts = append(opts, mail.WithPort(port))
	if user := u.User.Username(); user != "" {
		pass, _ := u.User.Password()
		auth := mail.SMTPAuthPlain
		switch strings.ToLower(u.Query().Get("auth")) {
		case "", "plain":
		case "login":
			auth = mail.SMTPAuthLogin
		default:
			return nil, fmt.Errorf("--smtp-url auth=%q: use plain or login", u.Query().Get("auth"))
		}
		opts = append(opts, mail.WithSMTPAuth(auth), mail.WithUsername(user), mail.WithPassword(pass))
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Sender{from: cfg.From, opts: opts, host: host, now: now}, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Send delivers one e-mail. A message the server refused for good (a
// wrong password, a 5xx answer, TLS the server does not offer) wraps
// domain.ErrDeliveryRefused with the server's reason; a server that
// cannot be reached or answers 4xx is an error worth retrying. Neither
// names the recipient.
func (s *Sender) Send(ctx context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	if m.Channel != domain.ChannelEmail {
		return domain.SentMessage{}, fmt.Errorf("smtp: a %s message is not e-mail", m.Channel)
	}
	msg, err := s.message(m)
	if err != nil {
		return domain.SentMessage{}, err
	}
	client, err := mail.NewClient(s.host, s.opts...)
	if err != nil {
		return domain.SentMessage{}, fmt.Errorf("smtp: %w", err)
	}
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return domain.SentMessage{}, classify(err, m.To)
	}
	err = client.SendWithSMTPClient(conn, msg)
	// The message is the server's once DATA is accepted: a failed QUIT
	// must not make it look unsent (and be sent twice).
	_ = client.CloseWithSMTPClient(conn)
	if err != nil {
		return domain.SentMessage{}, classify(err, m.To)
	}
	return domain.SentMessage{ProviderID: msg.GetMessageID(), SentAt: s.now().UTC()}, nil
}

// message builds the MIME message: From with the customer's name, the
// plain text, and the HTML as its alternative.
func (s *Sender) message(m domain.OutboundMessage) (*mail.Msg, error) {
	html := m.HTML
	if html == "" {
		html = HTMLFromText(m.FromName, m.Text)
	} else if what := RemoteContent(html); what != "" {
		return nil, fmt.Errorf("%w: the message's HTML has %s, and Payline's mail carries no remote content or tracking", domain.ErrDeliveryRefused, what)
	}
	msg := mail.NewMsg()
	var err error
	if m.FromName != "" {
		err = msg.FromFormat(m.FromName, s.from)
	} else {
		err = msg.From(s.from)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: the sender's name cannot be written in a From header", domain.ErrDeliveryRefused)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("%w: the recipient is not a valid e-mail address", domain.ErrDeliveryRefused)
	}
	msg.Subject(m.Subject)
	// The Message-ID names the sending domain, not this machine.
	_, fromDomain, _ := strings.Cut(s.from, "@")
	id, err := domain.RandomHex(16)
	if err != nil {
		return nil, err
	}
	msg.SetMessageIDWithValue(id + "@" + fromDomain)
	msg.SetDate()
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(mail.TypeTextHTML, html)
	return msg, nil
}

// classify turns what go-mail returned into a refusal the customer can
// read, or an error worth retrying. The recipient is masked wherever the
// server's words repeat it.
func classify(err error, to string) error {
	clean := func(s string) string {
		if to != "" {
			s = strings.ReplaceAll(s, to, domain.MaskAddress(domain.ChannelEmail, to))
		}
		return s
	}
	var se *mail.SendError
	if errors.As(err, &se) {
		code := se.ErrorCode()
		// SendError's text lists the recipients after its reason; the
		// server's words come before them.
		words, _, _ := strings.Cut(se.Error(), ", affected recipient")
		if !se.IsTemp() && code >= 500 {
			return fmt.Errorf("%w: the SMTP server refused the message: %s", domain.ErrDeliveryRefused, clean(words))
		}
		return fmt.Errorf("smtp: the server did not take the message: %s", clean(words))
	}
	var tp *textproto.Error
	if errors.As(err, &tp) {
		what := "the connection"
		if tp.Code == 535 || tp.Code == 534 || tp.Code == 530 || tp.Code == 454 {
			what = "the login"
		}
		if tp.Code >= 500 {
			return fmt.Errorf("%w: the SMTP server refused %s: %d %s", domain.ErrDeliveryRefused, what, tp.Code, clean(tp.Msg))
		}
		return fmt.Errorf("smtp: the server deferred %s: %d %s", what, tp.Code, clean(tp.Msg))
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return fmt.Errorf("%w: the SMTP server's certificate is not trusted: %v", domain.ErrDeliveryRefused, cert.Err)
	}
	if errors.Is(err, mail.ErrPlainAuthNotSupported) || errors.Is(err, mail.ErrLoginAuthNotSupported) {
		return fmt.Errorf("%w: the SMTP server does not offer the login method --smtp-url asks for (%v)", domain.ErrDeliveryRefused, err)
	}
	// go-mail says these in words only: the server lacks what the
	// configuration requires, which no retry will change.
	if s := err.Error(); strings.Contains(s, "does not support STARTTLS") || strings.Contains(s, "does not support SMTP AUTH") {
		return fmt.Errorf("%w: %s", domain.ErrDeliveryRefused, strings.TrimPrefix(s, "dial failed: "))
	}
	return fmt.Errorf("smtp: %w", err)
}
