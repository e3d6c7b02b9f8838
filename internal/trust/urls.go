package trust

import (
	"fmt"
	"net"
	"net/url"
)

// BaseURL parses the base URL of a far side whose requests carry a
// credential (an end user's password, the upstream secret): https, or
// http to a loopback address only, so the credential never crosses a
// network in the clear. flag names the setting in errors, such as
// --upstream-url; carried is the clause saying what travels, such as
// "credentials travel to the connector".
func BaseURL(raw, flag, carried string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("%s %q: must be an https URL (or http on a loopback address)", flag, raw)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return nil, fmt.Errorf("%s %q: %s, so it must be https unless it is on this machine (127.0.0.1, ::1, localhost)", flag, raw, carried)
	}
	return u, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
