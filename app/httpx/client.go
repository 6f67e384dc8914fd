package httpx

import (
	"net/netip"

	"github.com/labstack/echo/v4"
)

// ClientNetwork is the client that a per-address limit counts (sign-in and
// sign-up throttles, calls without a valid key, leak reports): Network of
// the request's client address. Logs and the audit keep the full address
// (c.RealIP()).
func ClientNetwork(c echo.Context) string { return Network(c.RealIP()) }

// Network is the client an address belongs to: an IPv4 address, or the
// /64 network of an IPv6 address. Every IPv6 subscriber, a home line or a
// cloud server alike, is given a /64 at least and may send from any of its
// 2^64 addresses, so counting single addresses would give it a fresh
// budget on every request.
func Network(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip // not an address (a misconfigured proxy): counted as sent
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is4() {
		return addr.String()
	}
	return netip.PrefixFrom(addr, 64).Masked().String()
}
