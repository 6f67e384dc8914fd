package web_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"

	"parapet/app/apptest"
	"parapet/app/web"
	"parapet/models"
)

var b64 = base64.RawURLEncoding

// softKey is a passkey held in the test: what an authenticator does, in
// Go (ES256, "none" attestation), so the server's checks can be driven
// with answers a browser would never send.
type softKey struct {
	t      *testing.T
	origin string // what the browser would report
	rpID   string
	key    *ecdsa.PrivateKey
	id     []byte
	user   []byte // the user handle it was registered for
	count  uint32
}

func newSoftKey(t *testing.T, env *apptest.Env) *softKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return &softKey{t: t, origin: env.Config.PublicURL, rpID: mustURL(env.Config.PublicURL).Hostname(), key: k, id: id}
}

// options is what a begin step answers.
type options struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		User      struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func (k *softKey) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.origin, "crossOrigin": false})
	return b
}

func (k *softKey) authData(flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(k.rpID))
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	return append(out, attested...)
}

// create answers a registration's options.
func (k *softKey) create(opts options) string {
	k.t.Helper()
	k.user, _ = b64.DecodeString(opts.PublicKey.User.ID)
	pub, err := k.key.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		k.t.Fatal(err)
	}
	cose, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: pub[1:33], -3: pub[33:65]})
	if err != nil {
		k.t.Fatal(err)
	}
	attested := make([]byte, 16) // AAGUID: none
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(k.id)))
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(0x45, attested)})
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(k.clientData("webauthn.create", opts.PublicKey.Challenge)),
			"attestationObject": b64.EncodeToString(att), "transports": []string{"internal"}}})
	return string(b)
}

// get answers a sign-in's challenge, the counter moved on.
func (k *softKey) get(challenge string) string {
	k.t.Helper()
	k.count++
	ad := k.authData(0x05, nil)
	cd := k.clientData("webauthn.get", challenge)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(ad),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(k.user)}})
	return string(b)
}

// registerPasskey adds k to the signed-in account of c.
func registerPasskey(t *testing.T, c *apptest.Client, k *softKey, name string) {
	t.Helper()
	tok := c.CSRF("/console/account")
	res := c.PostForm("/console/account/passkeys/begin", url.Values{"name": {name}, "proof": {apptest.TestPassword}}, "X-CSRF-Token", tok)
	if res.StatusCode != 200 {
		t.Fatalf("begin registration: %d %s", res.StatusCode, res.Body)
	}
	var opts options
	res.JSON(t, &opts)
	if res = c.PostJSON("/console/account/passkeys/finish", k.create(opts), "X-CSRF-Token", tok); res.StatusCode != 200 {
		t.Fatalf("finish registration: %d %s", res.StatusCode, res.Body)
	}
}

// beginSignIn starts a passkey sign-in and gives its challenge.
func beginSignIn(t *testing.T, c *apptest.Client, path, tok string) string {
	t.Helper()
	res := c.PostForm(path, url.Values{}, "X-CSRF-Token", tok)
	if res.StatusCode != 200 {
		t.Fatalf("begin %s: %d %s", path, res.StatusCode, res.Body)
	}
	var opts options
	res.JSON(t, &opts)
	return opts.PublicKey.Challenge
}

func wantError(t *testing.T, res *apptest.Response, status int, code string) {
	t.Helper()
	var body struct {
		Error struct{ Code, Message, RequestID string } `json:"error"`
	}
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", res.StatusCode, status, res.Body)
	}
	res.JSON(t, &body)
	if body.Error.Code != code || body.Error.Message == "" {
		t.Errorf("error %+v, want code %s", body.Error, code)
	}
}

func signedIn(c *apptest.Client) bool { return c.Get("/console/account").StatusCode == http.StatusOK }

// The ceremonies' checks: an answer to another challenge, a challenge
// used twice, another account's passkey, a counter that went back; each
// refused with the spec's error shape, nobody signed in.
func TestPasskeyCeremonyErrors(t *testing.T) {
	// The relying party is PUBLIC_URL's host (the test's own address is an
	// IP address, which WebAuthn refuses; the browser test uses localhost).
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		alice, bob := env.Client(), env.Client()
		alice.SignUp("alice@example.com")
		bob.SignUp("bob@example.com")
		ka, kb := newSoftKey(t, env), newSoftKey(t, env)
		registerPasskey(t, alice, ka, "Alice's key")
		registerPasskey(t, bob, kb, "Bob's key")

		const begin, finish = "/console/signin/passkey/begin", "/console/signin/passkey/finish"
		v := env.Client()
		tok := v.CSRF("/console/signin")

		// An answer signed over another challenge.
		beginSignIn(t, v, begin, tok)
		other := b64.EncodeToString([]byte("a challenge the server never made"))
		wantError(t, v.PostJSON(finish, ka.get(other), "X-CSRF-Token", tok), 401, "passkey_refused")
		// The failed try spent the ceremony: the right answer now finds none.
		wantError(t, v.PostJSON(finish, ka.get(other), "X-CSRF-Token", tok), 400, "ceremony_expired")

		// A good sign-in, then the same request replayed with the same cookie.
		ch := beginSignIn(t, v, begin, tok)
		var cookie *http.Cookie
		for _, ck := range v.Cookies() {
			if ck.Name == "parapet_webauthn" {
				cookie = ck
			}
		}
		if cookie == nil {
			t.Fatal("no ceremony cookie")
		}
		answer := ka.get(ch)
		res := v.PostJSON(finish, answer, "X-CSRF-Token", tok)
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"/console"`) || !signedIn(v) {
			t.Fatalf("passkey sign-in: %d %s", res.StatusCode, res.Body)
		}
		replay := env.Client()
		rtok := replay.CSRF("/console/signin")
		replay.Jar.SetCookies(mustURL(env.Server.URL), []*http.Cookie{{Name: cookie.Name, Value: cookie.Value}})
		wantError(t, replay.PostJSON(finish, answer, "X-CSRF-Token", rtok), 400, "ceremony_expired")
		if signedIn(replay) {
			t.Error("a replayed answer signed in")
		}

		// Bob's passkey claiming Alice's account (her user handle).
		m := env.Client()
		mtok := m.CSRF("/console/signin")
		ch = beginSignIn(t, m, begin, mtok)
		kb.user = ka.user
		wantError(t, m.PostJSON(finish, kb.get(ch), "X-CSRF-Token", mtok), 401, "passkey_refused")
		kb.user = nil

		// A counter that did not move (a cloned key, or a replay): refused.
		ch = beginSignIn(t, m, begin, mtok)
		ka.count--
		wantError(t, m.PostJSON(finish, ka.get(ch), "X-CSRF-Token", mtok), 401, "passkey_refused")
		if signedIn(m) {
			t.Error("refused answers signed in")
		}

		// The second factor after Alice's password: Bob's passkey is refused,
		// Alice's works.
		a2 := env.Client()
		if res := a2.SignIn("alice@example.com", apptest.TestPassword); res.Header.Get("Location") != "/console/signin/2fa" {
			t.Fatalf("an account with a passkey is not asked for a second factor: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		page := a2.Get("/console/signin/2fa")
		atok, _ := page.Doc(t).Find(`[data-passkey-signin]`).Attr("data-csrf")
		ch = beginSignIn(t, a2, "/console/signin/2fa/passkey/begin", atok)
		wantError(t, a2.PostJSON("/console/signin/2fa/passkey/finish", kb.get(ch), "X-CSRF-Token", atok), 401, "passkey_refused")
		ch = beginSignIn(t, a2, "/console/signin/2fa/passkey/begin", atok)
		if res := a2.PostJSON("/console/signin/2fa/passkey/finish", ka.get(ch), "X-CSRF-Token", atok); res.StatusCode != 200 || !signedIn(a2) {
			t.Fatalf("second factor by passkey: %d %s", res.StatusCode, res.Body)
		}

		var failures int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionPasskeyFailure).Count(&failures)
		if failures != 4 {
			t.Errorf("%d refused answers audited, want 4", failures)
		}
	}, apptest.WithEnv("PUBLIC_URL", "http://localhost"))
}

// Passkey sign-ins count on the sign-in throttle per client network: of
// 40 concurrent bad answers from one address, at most SignInLimit are
// checked; the rest get 429 with Retry-After, and a good passkey is then
// refused too until the window ends.
func TestPasskeySignInThrottleConcurrent(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("PUBLIC_URL", "http://localhost"))
	alice := env.Client()
	alice.SignUp("alice@example.com")
	k := newSoftKey(t, env)
	registerPasskey(t, alice, k, "key")

	v := env.Client()
	tok := v.CSRF("/console/signin")
	bogus := k.get(b64.EncodeToString([]byte("never issued")))
	var wg sync.WaitGroup
	codes := make(chan int, 40)
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := v.PostJSON("/console/signin/passkey/finish", bogus, "X-CSRF-Token", tok)
			if res.StatusCode == 429 && res.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			codes <- res.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	counts := map[int]int{}
	for c := range codes {
		counts[c]++
	}
	if counts[429] < 40-web.SignInLimit || counts[429]+counts[400] != 40 {
		t.Errorf("answers to 40 concurrent bad sign-ins: %v", counts)
	}
	ch := beginSignIn(t, v, "/console/signin/passkey/begin", tok)
	wantError(t, v.PostJSON("/console/signin/passkey/finish", k.get(ch), "X-CSRF-Token", tok), 429, "rate_limited")
}
