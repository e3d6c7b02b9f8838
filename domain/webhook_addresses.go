package domain

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"time"
)

// blockedPrefixes are address ranges no webhook may reach outside the
// sandbox, beyond loopback, private, link-local (which includes the
// 169.254.169.254 metadata service), multicast and unspecified: "this
// network", shared CGNAT space, IETF protocol assignments, benchmarking
// and documentation ranges, the reserved 240.0.0.0/4 (with the broadcast
// address), and the IPv6 forms that carry an IPv4 address a router
// would reach: IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96 and the
// local-use 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32).
// IPv4-mapped addresses (::ffff:a.b.c.d) are judged as the IPv4 they map.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001::/32"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"),
	netip.MustParsePrefix("fec0::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
}

// BlockedIP reports whether a webhook must not be delivered to ip. Where
// a webhook's host resolves, and where the delivery dials, both ask it.
func BlockedIP(ip net.IP) bool {
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return true
	}
	addr = addr.Unmap()
	if addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsInterfaceLocalMulticast() || addr.IsMulticast() || addr.IsUnspecified() {
		return true
	}
	for _, p := range blockedPrefixes {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

func (s *WebhookService) checkURL(ctx context.Context, p *Problems, raw string) {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		p.Invalid("url", "%q is not an absolute URL", raw)
		return
	case u.Scheme != "https":
		p.Invalid("url", "must use https://, got %s://", u.Scheme)
		return
	case u.User != nil:
		p.Invalid("url", "must not contain credentials; authenticate deliveries with x-service-signature")
		return
	case len(raw) > 2048:
		p.Invalid("url", "must be at most 2048 characters")
		return
	}
	if s.mode == ModeSandbox {
		return // the sandbox may post to local receivers
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil {
		if BlockedIP(ip) {
			p.Invalid("url", "%s is a loopback, private, link-local or metadata address; webhooks must reach a public host", ip)
		}
		return
	}
	lookup, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := s.resolver.LookupIPAddr(lookup, u.Hostname())
	if err != nil || len(addrs) == 0 {
		p.Invalid("url", "the host %q does not resolve; check the URL", u.Hostname())
		return
	}
	for _, a := range addrs {
		if BlockedIP(a.IP) {
			p.Invalid("url", "%s resolves to %s, a loopback, private, link-local or metadata address; webhooks must reach a public host", u.Hostname(), a.IP)
			return
		}
	}
}
