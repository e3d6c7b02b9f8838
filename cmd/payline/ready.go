package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// ready runs `payline ready`: it asks a server for GET /readyz and exits
// 0 only on 200, printing the answer otherwise. It is the container's
// health check: the image is built from scratch, with no shell or curl to
// ask for the page, so the binary asks itself.
func (e environment) ready(ctx context.Context, args []string) error {
	fs := e.flagSet("ready")
	url := fs.String("url", "", "the page to ask; default http:// and PAYLINE_ADDR (as serve reads it) with /readyz, "+
		"an unspecified host (0.0.0.0, [::]) asked on 127.0.0.1")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "payline ready: unexpected %q; the page to ask is --url\n", fs.Arg(0))
		return errUsage
	}
	if *url == "" {
		*url = "http://" + localAddr(e.envOr("PAYLINE_ADDR", "127.0.0.1:8080")) + "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return fmt.Errorf("ready: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("ready: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("ready: %s answered %d: %s", *url, res.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}

// localAddr is a listen address as this machine reaches it: a server
// listening on every interface (0.0.0.0:8080, [::]:8080, :8080) answers on
// the loopback address.
func localAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
