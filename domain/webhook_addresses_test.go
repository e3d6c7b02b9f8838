package domain

import (
	"net"
	"testing"
)

// TestBlockedIP: every range a webhook could reach the server's own
// network through is refused, IPv6 forms that embed an IPv4 address
// included; public addresses pass.
func TestBlockedIP(t *testing.T) {
	blocked := []string{
		"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1",
		"192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1",
		"240.0.0.1", "255.255.255.255",
		"::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1", "fd00:ec2::254",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", // IPv4-mapped
		"::127.0.0.1", "::10.0.0.1", "::8.8.8.8", // IPv4-compatible (deprecated; reaches IPv4 through some stacks)
		"64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::1", // NAT64
		"2002:7f00:1::", "2002:a00:1::1", // 6to4
		"2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
		"2001:db8::1", "100::1",
	}
	for _, s := range blocked {
		if !BlockedIP(net.ParseIP(s)) {
			t.Errorf("%s is not blocked", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8"} {
		if BlockedIP(net.ParseIP(s)) {
			t.Errorf("%s is blocked", s)
		}
	}
	if !BlockedIP(nil) {
		t.Error("no address is not blocked")
	}
}
