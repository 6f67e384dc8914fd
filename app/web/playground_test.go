package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/models"
)

// playgroundSignedIn is a client signed in as a seeded user, whose
// organization holds the gateway entitlement.
func playgroundSignedIn(t *testing.T, env *apptest.Env, email string) (*apptest.Client, apptest.Seeded) {
	t.Helper()
	s := env.Seed(t, email)
	c := env.Client()
	if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatalf("sign in: %d", res.StatusCode)
	}
	return c, s
}

// gatewayCalls returns the organization's gateway.call audit events. A
// call's record is queued before its response ends and written behind
// it: FlushAudit waits for the write.
func gatewayCalls(t *testing.T, env *apptest.Env, orgID string) []models.AuditEvent {
	t.Helper()
	env.App.FlushAudit()
	var events []models.AuditEvent
	if err := env.DB.Where("org_id = ? AND action = ?", orgID, models.ActionGatewayCall).Find(&events).Error; err != nil {
		t.Fatal(err)
	}
	return events
}

// waitNotEntitled waits until the gateway refuses key's organization, as
// it does within meter.AllowanceTTL of an operator's revocation: it asks
// GET /gateway/v1/models, which checks the entitlement and is no call.
func waitNotEntitled(t *testing.T, c *apptest.Client, key string) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(3 * meter.AllowanceTTL); c.Get("/gateway/v1/models", "X-Api-Key", key).StatusCode != 403; <-tick.C {
		if time.Now().After(deadline) {
			t.Fatal("the gateway still admits an organization whose entitlement was revoked")
		}
	}
}

const playgroundBody = `{"messages":[{"role":"user","content":"Is the night watch awake?"}],"max_tokens":200}`

func TestPlaygroundPageNeedsSignIn(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		res := env.Client().Get("/gateway/app")
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin?next=%2Fgateway%2Fapp" {
			t.Fatalf("signed out: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
		}
		// A visitor's valid token (from the sign-in page) passes the CSRF
		// check; the chat then asks for a session, in JSON.
		visitor := env.Client()
		res = visitor.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", visitor.CSRF("/console/signin"))
		var e struct{ Error struct{ Code string } }
		res.JSON(t, &e)
		if res.StatusCode != 401 || e.Error.Code != "unauthenticated" {
			t.Errorf("signed-out chat: %d %q", res.StatusCode, e.Error.Code)
		}
	})
}

func TestPlaygroundPage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c, _ := playgroundSignedIn(t, env, "pilot@example.com")
		res := c.Get("/gateway/app")
		if res.StatusCode != 200 {
			t.Fatalf("status %d", res.StatusCode)
		}
		doc := res.Doc(t)
		if got := doc.Find("[data-testid=demo-banner]").Text(); !strings.Contains(got, "The built-in demo upstream answers here: no real model is called.") {
			t.Errorf("demo banner %q", got)
		}
		form := doc.Find("form[data-playground][data-testid=playground-form]")
		if form.Length() != 1 {
			t.Fatal("no playground form")
		}
		if tok, _ := form.Attr("data-csrf"); tok == "" || tok != c.CSRF("/gateway/app") {
			t.Errorf("form data-csrf %q", tok)
		}
		if ep, _ := form.Attr("data-endpoint"); ep != "/gateway/app/chat" {
			t.Errorf("endpoint %q", ep)
		}
		if doc.Find("[data-testid=chat-thread]").Length() != 1 || doc.Find("label[for=pg-message]").Text() != "Message" ||
			doc.Find("textarea#pg-message").Length() != 1 || doc.Find("[data-testid=send]").Text() != "Send" || doc.Find("[data-testid=clear]").Text() != "Clear" {
			t.Error("the thread, the labelled message box, Send or Clear is missing")
		}
		// The models are GET /gateway/v1/models' chat models, the default chosen.
		if opts := doc.Find("select#pg-model option"); opts.Length() != 1 || opts.Text() != "parapet-demo" || opts.AttrOr("selected", "no") == "no" {
			t.Errorf("model options %d %q", opts.Length(), opts.Text())
		}
		if doc.Find("label[for=pg-temperature]").Length() != 1 || doc.Find("input#pg-image[type=file]").Length() != 1 ||
			doc.Find("[data-testid=stop][hidden]").Length() != 1 || doc.Find("[data-testid=view-code]").Length() != 1 {
			t.Error("temperature, image, a hidden Stop or View code is missing")
		}
		mt := doc.Find("#pg-max-tokens")
		if v, _ := mt.Attr("value"); v != "1024" {
			t.Errorf("max tokens %q", v)
		}
		if lo, _ := mt.Attr("min"); lo != "1" {
			t.Errorf("max tokens min %q", lo)
		}
		if hi, _ := mt.Attr("max"); hi != "8192" {
			t.Errorf("max tokens max %q", hi)
		}
		if doc.Find("textarea#pg-system").Length() != 1 {
			t.Error("no system prompt")
		}
		if got := doc.Find("[data-testid=tokens-left]").Text(); got != "1,000,000" {
			t.Errorf("tokens left %q", got)
		}
		// No inline script or style: the behaviour is in app.js.
		if doc.Find("script:not([src]), [style]").Length() != 0 {
			t.Error("inline script or style on the page")
		}
	})
}

func TestPlaygroundPageWithoutOrganizationOrEntitlement(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("drifter@example.com")
		doc := c.Get("/gateway/app").Doc(t)
		if a := doc.Find("[data-testid=no-org] a[href='/console/orgs']"); a.Length() != 1 {
			t.Error("no link to the organizations page for a user without one")
		}
		if doc.Find("[data-playground]").Length() != 0 {
			t.Error("the chat is shown without an organization")
		}

		c2, s := playgroundSignedIn(t, env, "grounded@example.com")
		if _, err := models.RevokeEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
			t.Fatal(err)
		}
		doc = c2.Get("/gateway/app").Doc(t)
		if got := doc.Find("[data-testid=not-entitled]").Text(); !strings.Contains(got, "not entitled") {
			t.Errorf("not-entitled message %q", got)
		}
		if doc.Find("[data-playground]").Length() != 0 {
			t.Error("the chat is shown to an organization that is not entitled")
		}
	})
}

func TestPlaygroundChatStreamsAndIsAudited(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c, s := playgroundSignedIn(t, env, "streamer@example.com")
		tok := c.CSRF("/gateway/app")
		res := c.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", tok, "Accept", "text/event-stream")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("status %d %q\n%s", res.StatusCode, res.Header.Get("Content-Type"), res.Body)
		}
		for _, want := range []string{"event: message_start", "event: content_block_delta", `"type":"text_delta"`, "event: message_delta", "event: message_stop"} {
			if !strings.Contains(res.Body, want) {
				t.Errorf("the stream has no %q:\n%s", want, res.Body)
			}
		}
		var text strings.Builder
		for _, frame := range strings.Split(res.Body, "\n\n") {
			if !strings.HasPrefix(frame, "event: content_block_delta\n") {
				continue
			}
			var ev struct{ Delta struct{ Text string } }
			if err := json.Unmarshal([]byte(strings.TrimPrefix(frame, "event: content_block_delta\ndata: ")), &ev); err != nil {
				t.Fatal(err)
			}
			text.WriteString(ev.Delta.Text)
		}
		if !strings.Contains(text.String(), `"Is the night watch awake?"`) {
			t.Errorf("streamed text %q", text.String())
		}

		events := gatewayCalls(t, env, s.OrgID)
		if len(events) != 1 {
			t.Fatalf("%d gateway.call events, want exactly 1", len(events))
		}
		e := events[0]
		if e.ActorUserID == nil || *e.ActorUserID != s.UserID || e.ActorKeyID != nil {
			t.Errorf("actor user %v key %v, want the user %s", e.ActorUserID, e.ActorKeyID, s.UserID)
		}
		if e.Status == nil || *e.Status != 200 || e.InputTokens == nil || *e.InputTokens != 5 || e.OutputTokens == nil || *e.OutputTokens == 0 {
			t.Errorf("recorded status %v, tokens %v/%v", e.Status, e.InputTokens, e.OutputTokens)
		}
	})
}

func TestPlaygroundChatRefusals(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c, s := playgroundSignedIn(t, env, "refused@example.com")
		tok := c.CSRF("/gateway/app")
		errorOf := func(res *apptest.Response) string {
			var e struct {
				Error struct{ Code, Message, RequestID string }
			}
			if err := json.Unmarshal([]byte(res.Body), &e); err != nil {
				return "not JSON: " + res.Body
			}
			return e.Error.Code
		}

		// Without the CSRF header: refused before the handler, nothing sent.
		res := c.PostJSON("/gateway/app/chat", playgroundBody)
		if res.StatusCode != 403 {
			t.Errorf("without CSRF: %d %s", res.StatusCode, res.Body)
		}
		res = c.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", "forged")
		if res.StatusCode != 403 {
			t.Errorf("with a forged CSRF token: %d %s", res.StatusCode, res.Body)
		}

		// An invalid body is a JSON 400.
		res = c.PostJSON("/gateway/app/chat", `{"messages":[]}`, "X-CSRF-Token", tok)
		if res.StatusCode != 400 || errorOf(res) != "invalid_request" {
			t.Errorf("empty messages: %d %s", res.StatusCode, res.Body)
		}

		// Not entitled: a JSON 403 before any stream.
		if _, err := models.RevokeEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
			t.Fatal(err)
		}
		waitNotEntitled(t, env.Client(), s.Key)
		res = c.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", tok)
		if res.StatusCode != 403 || errorOf(res) != "not_entitled" || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("not entitled: %d %q %s", res.StatusCode, res.Header.Get("Content-Type"), res.Body)
		}
		// Each refused call is audited as well, the CSRF refusals included.
		events := gatewayCalls(t, env, s.OrgID)
		if len(events) != 4 {
			t.Errorf("%d gateway.call events for 4 refused calls", len(events))
		}
		codes := map[string]int{}
		for _, e := range events {
			if e.ErrorCode != nil {
				codes[*e.ErrorCode]++
			}
		}
		if codes["not_entitled"] != 1 || codes["invalid_request"] != 1 || codes["forbidden"] != 2 {
			t.Errorf("audited error codes %v", codes)
		}
		for _, e := range events {
			if e.Status != nil && *e.Status >= 500 {
				t.Errorf("a refusal recorded as status %d", *e.Status)
			}
		}
	})
}

// A playground user who leaves in the middle of a reply is metered like an
// API caller: exactly one record, client_closed_request, with the output
// the page was sent (estimated when the upstream does not finish within
// GATEWAY_DRAIN_TIMEOUT).
func TestPlaygroundCutStreamIsRecordedOnce(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "20ms"),
		apptest.WithEnv("GATEWAY_DRAIN_TIMEOUT", "100ms"))
	c, s := playgroundSignedIn(t, env, "leaver@example.com")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", env.URL("/gateway/app/chat"), strings.NewReader(playgroundBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", c.CSRF("/gateway/app"))
	res, err := c.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(res.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended before a text delta: %v", err)
		}
		if strings.HasPrefix(line, "event: content_block_delta") {
			break
		}
	}
	cancel()
	res.Body.Close()
	var events []models.AuditEvent
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(5 * time.Second); len(events) == 0 && time.Now().Before(deadline); <-tick.C {
		events = gatewayCalls(t, env, s.OrgID)
	}
	if len(events) != 1 {
		t.Fatalf("%d records for one cut stream", len(events))
	}
	e := events[0]
	if *e.Status != 499 || *e.ErrorCode != "client_closed_request" || *e.OutputTokens < 1 || e.UsageFlag == nil || *e.UsageFlag != "estimated" {
		t.Errorf("record %+v", e)
	}
}

// The playground's chat spends the organization's quota: a viewer (who
// only reads) is told so on the page and refused with a JSON 403, and so
// is a member without two-factor sign-in once the organization requires
// it, as every console page would send them to set it up.
func TestPlaygroundChatByRoleAndTwoFactor(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
	tm := newTeam(t, env)
	chat := func(role string) *apptest.Response {
		c := tm.clients[role]
		return c.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", c.CSRF("/console/account"), "Accept", "text/event-stream")
	}
	viewer := tm.clients[models.RoleViewer]
	if doc := viewer.Get("/gateway/app").Doc(t); doc.Find("[data-testid=cannot-chat]").Length() != 1 || doc.Find("[data-testid=playground-form]").Length() != 0 {
		t.Error("the viewer's playground offers a chat it cannot use")
	}
	if res := chat(models.RoleViewer); res.StatusCode != 403 || !strings.Contains(res.Body, "only reads") {
		t.Errorf("a viewer's chat: %d %s", res.StatusCode, res.Body)
	}
	if res := chat(models.RoleMember); res.StatusCode != 200 {
		t.Errorf("a member's chat: %d %s", res.StatusCode, res.Body)
	}
	if res := tm.clients[models.RoleOwner].Submit("/console/settings", "/console/settings/require-2fa", url.Values{"require_2fa": {"on"}}); res.StatusCode != 303 {
		t.Fatalf("requiring two-factor sign-in: %d", res.StatusCode)
	}
	if res := chat(models.RoleMember); res.StatusCode != 403 || !strings.Contains(res.Body, "two-factor") || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("a member without two-factor sign-in: %d %s", res.StatusCode, res.Body)
	}
}

// A playground turn may carry an image (above the 1 MiB body limit of a
// text-only call) and ask for thinking, as the page's attach button and
// Thinking switch send them; a file that is not an image is refused with
// a JSON 400 naming the block, before any stream, and so is thinking
// without room below max_tokens.
func TestPlaygroundChatImageAndThinking(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c, s := playgroundSignedIn(t, env, "painter@example.com")
	tok := c.CSRF("/gateway/app")
	// Noise does not compress: a PNG of about 1.9 MB.
	img := image.NewNRGBA(image.Rect(0, 0, 700, 700))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	var png64 bytes.Buffer
	enc := base64.NewEncoder(base64.StdEncoding, &png64)
	if err := png.Encode(enc, img); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	turn := func(mediaType, data string) string {
		return `{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"` + mediaType + `","data":"` + data +
			`"}},{"type":"text","text":"What is in this picture?"}]}],"max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024}}`
	}
	body := turn("image/png", png64.String())
	if len(body) <= 1<<20 {
		t.Fatalf("the body is %d bytes: not above the text-only limit", len(body))
	}
	res := c.PostJSON("/gateway/app/chat", body, "X-CSRF-Token", tok, "Accept", "text/event-stream")
	if res.StatusCode != 200 || !strings.Contains(res.Body, "event: message_stop") {
		t.Fatalf("an image turn with thinking: %d\n%.500s", res.StatusCode, res.Body)
	}
	res = c.PostJSON("/gateway/app/chat", turn("image/png", base64.StdEncoding.EncodeToString([]byte("not a picture at all"))), "X-CSRF-Token", tok)
	if res.StatusCode != 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(res.Body, "messages[0].content[0]") {
		t.Errorf("a text file sent as a PNG: %d %s", res.StatusCode, res.Body)
	}
	// Thinking's budget (at least 1,024) must stay below max_tokens.
	res = c.PostJSON("/gateway/app/chat", `{"messages":[{"role":"user","content":"Think."}],"max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":1024}}`, "X-CSRF-Token", tok)
	if res.StatusCode != 400 || !strings.Contains(res.Body, "thinking.budget_tokens must be below max_tokens") {
		t.Errorf("thinking without room below max_tokens: %d %s", res.StatusCode, res.Body)
	}
	events := gatewayCalls(t, env, s.OrgID)
	if len(events) != 3 {
		t.Fatalf("%d records for 3 calls", len(events))
	}
}
