package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
	"payline/internal/trust"
	"payline/rest"
)

// webhooks runs `payline webhooks listen`.
func (e environment) webhooks(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "listen" {
		fmt.Fprint(e.stderr, "usage: payline webhooks listen [--forward-to URL] [--api-url URL] [--events a,b] [--version V]\n")
		return errUsage
	}
	fs := e.flagSet("webhooks listen")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, "usage: payline webhooks listen [--forward-to URL] [--api-url URL] [--events a,b] [--version V]\n"+
			"The API secret comes from PAYLINE_API_SECRET (a sandbox or development secret; never a flag, so it stays out of the process list).\n")
		fs.PrintDefaults()
	}
	forwardTo := fs.String("forward-to", "", "local URL each delivery is POSTed to, such as http://localhost:3000/hook; "+
		"without it each delivery's body is printed and answered 200 here")
	defaultURL := e.getenv("PAYLINE_PUBLIC_URL")
	if defaultURL == "" {
		defaultURL = "http://" + e.envOr("PAYLINE_ADDR", "127.0.0.1:8080")
	}
	apiURL := fs.String("api-url", e.envOr("PAYLINE_API_URL", defaultURL),
		"the Payline server (PAYLINE_API_URL); default PAYLINE_PUBLIC_URL, else http:// and PAYLINE_ADDR, as serve reads them")
	events := fs.String("events", "", "comma-separated event names to receive; default every event")
	version := fs.String("version", "", "webhook version the payloads are shaped for; default the latest")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	secret := strings.TrimSpace(e.getenv("PAYLINE_API_SECRET"))
	if secret == "" {
		fmt.Fprintln(e.stderr, "payline webhooks listen: set PAYLINE_API_SECRET to a sandbox or development API secret (it is not taken as a flag, so it stays out of the process list)")
		return errUsage
	}
	if *forwardTo != "" {
		target, err := url.Parse(*forwardTo)
		if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
			fmt.Fprintf(e.stderr, "payline webhooks listen: --forward-to must be an http:// or https:// URL, got %q\n", *forwardTo)
			return errUsage
		}
	}
	return listen(ctx, e.stdout, *apiURL, secret, *forwardTo, *events, *version)
}

// listen connects to the server's listener endpoint, forwards each
// delivery to forwardTo with its headers and signature, prints a line
// per delivery and reports each local answer back, until ctx ends or the
// server closes the connection. Without forwardTo it prints each
// delivery's body and answers 200 itself, so a first try needs no
// receiver (as stripe listen does).
func listen(ctx context.Context, out io.Writer, apiURL, secret, forwardTo, events, version string) error {
	// The API secret goes with the connection: https, or http on this
	// machine only, and no redirect followed with it.
	u, err := trust.BaseURL(strings.TrimSuffix(apiURL, "/"), "--api-url", "the API secret travels with the connection")
	if err != nil {
		return err
	}
	u = u.JoinPath("/v1/webhook_listeners")
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return fmt.Errorf("--api-url must be http:// or https://, got %q", apiURL)
	}
	q := u.Query()
	if events != "" {
		q.Set("enabled_events", events)
	}
	if version != "" {
		q.Set("version", version)
	}
	u.RawQuery = q.Encode()
	conn, resp, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{
		HTTPClient:   trust.RefusingRedirects(http.DefaultClient),
		Subprotocols: []string{rest.ListenerProtocol},
		HTTPHeader:   http.Header{"x-api-secret": {secret}, "Service-Version": {domain.LatestVersion}},
	})
	if err != nil {
		return fmt.Errorf("connect to %s: %w", apiURL, refusal(resp, err))
	}
	defer conn.CloseNow()

	var ready rest.ListenerMessage
	if err := wsjson.Read(ctx, conn, &ready); err != nil || ready.Type != "ready" {
		return fmt.Errorf("the server did not start the listener: %v", err)
	}
	if forwardTo == "" {
		fmt.Fprintf(out, "Ready. Printing %d event types (version %s) here, answering 200, as webhook %s. Ctrl-C stops.\n",
			len(ready.EnabledEvents), ready.Version, ready.WebhookID)
	} else {
		fmt.Fprintf(out, "Ready. Forwarding %d event types (version %s) to %s as webhook %s. Ctrl-C stops.\n",
			len(ready.EnabledEvents), ready.Version, forwardTo, ready.WebhookID)
	}
	client := &http.Client{Timeout: domain.ListenerAnswerTimeout - time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for {
		var m rest.ListenerMessage
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			if ctx.Err() != nil {
				conn.Close(websocket.StatusNormalClosure, "")
				return nil
			}
			if websocket.CloseStatus(err) == websocket.StatusNormalClosure {
				return nil
			}
			return fmt.Errorf("the connection to %s ended: %w", apiURL, err)
		}
		if m.Type != "delivery" {
			continue
		}
		answer, line := deliver(ctx, client, forwardTo, m)
		fmt.Fprintln(out, line)
		if err := wsjson.Write(ctx, conn, answer); err != nil && ctx.Err() == nil {
			return fmt.Errorf("report the answer to %s: %w", apiURL, err)
		}
	}
}

// deliver hands one delivery to the local receiver, or prints its body
// and answers 200 when there is none, and returns the answer for the
// server and the line to print.
func deliver(ctx context.Context, client *http.Client, forwardTo string, m rest.ListenerMessage) (rest.ListenerMessage, string) {
	answer := rest.ListenerMessage{Type: "answer", DeliveryID: m.DeliveryID}
	if forwardTo == "" {
		answer.StatusCode = http.StatusOK
		return answer, fmt.Sprintf("%s  %-36s %s  → printed, 200\n%s", time.Now().Format("15:04:05"), m.Event, m.EventID, m.Body)
	}
	start := time.Now()
	status, err := forward(ctx, client, forwardTo, m)
	answer.StatusCode = status
	if err != nil {
		answer.Error = err.Error()
		return answer, fmt.Sprintf("%s  %-36s %s  → no answer: %v", time.Now().Format("15:04:05"), m.Event, m.EventID, err)
	}
	return answer, fmt.Sprintf("%s  %-36s %s  → %d %s (%d ms)", time.Now().Format("15:04:05"), m.Event, m.EventID,
		status, http.StatusText(status), time.Since(start).Milliseconds())
}

// forward POSTs one delivery to the local receiver exactly as the server
// would have.
func forward(ctx context.Context, client *http.Client, to string, m rest.ListenerMessage) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader([]byte(m.Body)))
	if err != nil {
		return 0, err
	}
	for k, v := range m.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // the status is the answer; draining only reuses the connection
	return resp.StatusCode, nil
}

// refusal turns the server's error body, when it sent one, into the error.
func refusal(resp *http.Response, err error) error {
	if resp == nil || resp.Body == nil {
		return err
	}
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.NewDecoder(resp.Body).Decode(&body) == nil && body.Error.Message != "" {
		return errors.New(body.Error.Message + " (" + body.Error.Code + ")")
	}
	return err
}
