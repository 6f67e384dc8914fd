package web

import (
	"testing"
	"time"
)

// The codec puts the cookie's name in the MAC: a value signed for one of
// our cookies does not pass for another, even when it decodes into the
// other's shape (here a second-step value sent as the device cookie, and
// the reverse).
func TestCookieCodecSignsTheName(t *testing.T) {
	p := &Pages{Deps: Deps{Secret: []byte("0123456789abcdef0123456789abcdef")}}
	c := p.codec(time.Hour)
	v, err := c.Encode(deviceCookieN, pendingSecondStep{UserID: "usr_1", Next: "/console"})
	if err != nil {
		t.Fatal(err)
	}
	var ps pendingSecondStep
	if err := c.Decode(deviceCookieN, v, &ps); err != nil || ps.UserID != "usr_1" {
		t.Fatalf("the value does not decode under its own name: %v %+v", err, ps)
	}
	if err := c.Decode(secondStepCookie, v, &ps); err == nil {
		t.Error("a value signed as the device cookie passed as the second-step cookie")
	}
	d, err := c.Encode(secondStepCookie, device{Email: "a@example.com", ID: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	var got device
	if err := c.Decode(deviceCookieN, d, &got); err == nil {
		t.Error("a value signed as the second-step cookie passed as the device cookie")
	}
}
