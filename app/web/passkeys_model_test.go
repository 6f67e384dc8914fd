package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

// The passkeys table on both databases: the per-account bound holds
// against concurrent registrations and the count on the user row follows;
// a credential is registered once; another account's passkey cannot be
// renamed or removed; a ceremony is taken once, by one of 40 concurrent
// requests, and not after it expired.
func TestPasskeyModel(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		db := env.DB.DB
		a, b := env.Seed(t, "a@example.com"), env.Seed(t, "b@example.com")

		var wg sync.WaitGroup
		errs := make(chan error, models.MaxPasskeysPerUser+10)
		for i := range models.MaxPasskeysPerUser + 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- models.AddPasskey(ctx, db, &models.Passkey{UserID: a.UserID, CredentialID: fmt.Sprintf("cred-%d", i), PublicKey: "pk", Name: "key"})
			}()
		}
		wg.Wait()
		close(errs)
		added, refused := 0, 0
		for err := range errs {
			switch {
			case err == nil:
				added++
			case errors.Is(err, models.ErrTooManyPasskeys):
				refused++
			default:
				t.Fatalf("add passkey: %v", err)
			}
		}
		if added != models.MaxPasskeysPerUser || refused != 10 {
			t.Errorf("added %d, refused %d of %d concurrent registrations", added, refused, models.MaxPasskeysPerUser+10)
		}
		u, _ := models.UserByID(ctx, db, a.UserID)
		if u.PasskeyCount != models.MaxPasskeysPerUser || !u.HasSecondFactor() {
			t.Errorf("count %d on the user row", u.PasskeyCount)
		}

		held, _ := models.PasskeysOfUser(ctx, db, a.UserID)
		err := models.AddPasskey(ctx, db, &models.Passkey{UserID: b.UserID, CredentialID: held[0].CredentialID, PublicKey: "pk", Name: "copy"})
		if !errors.Is(err, models.ErrPasskeyTaken) {
			t.Errorf("a credential registered twice: %v", err)
		}
		if u, _ := models.UserByID(ctx, db, b.UserID); u.PasskeyCount != 0 || u.HasSecondFactor() {
			t.Errorf("a refused registration counted: %d", u.PasskeyCount)
		}

		pk := &held[0]
		if err := models.RenamePasskey(ctx, db, b.UserID, pk.ID, "mine now"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("rename another's passkey: %v", err)
		}
		if _, err := models.DeletePasskey(ctx, db, b.UserID, pk.ID); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("remove another's passkey: %v", err)
		}
		if _, err := models.DeletePasskey(ctx, db, a.UserID, pk.ID); err != nil {
			t.Fatal(err)
		}
		if u, _ := models.UserByID(ctx, db, a.UserID); u.PasskeyCount != models.MaxPasskeysPerUser-1 {
			t.Errorf("count after removal %d", u.PasskeyCount)
		}

		// Sign counts: forward only; an authenticator that always sends 0
		// keeps working.
		pk = &held[1]
		for _, step := range []struct {
			count uint32
			ok    bool
		}{{0, true}, {0, true}, {5, true}, {5, false}, {4, false}, {4294967295, true}} {
			if ok, err := models.UsePasskey(ctx, db, pk.ID, step.count); err != nil || ok != step.ok {
				t.Errorf("use with count %d: %v %v, want %v", step.count, ok, err, step.ok)
			}
		}

		live := &models.Ceremony{ID: "live", Purpose: "signin", Data: "{}", ExpiresAt: models.Now().Add(time.Minute)}
		if err := models.SaveCeremony(ctx, db, live); err != nil {
			t.Fatal(err)
		}
		var won sync.WaitGroup
		wins := make(chan bool, 40)
		for range 40 {
			won.Add(1)
			go func() {
				defer won.Done()
				c, err := models.TakeCeremony(ctx, db, "live", "signin")
				if err != nil && !errors.Is(err, models.ErrNotFound) {
					t.Errorf("take: %v", err)
				}
				wins <- c != nil
			}()
		}
		won.Wait()
		close(wins)
		n := 0
		for w := range wins {
			if w {
				n++
			}
		}
		if n != 1 {
			t.Errorf("a ceremony was taken %d times by 40 concurrent requests", n)
		}
		old := &models.Ceremony{ID: "old", Purpose: "signin", Data: "{}", ExpiresAt: models.Now().Add(-time.Second)}
		if err := db.Create(old).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := models.TakeCeremony(ctx, db, "old", "signin"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("an expired ceremony: %v", err)
		}
	})
}

// Renaming and removing on the account page: a name is checked, removal
// takes the password again (a wrong one is refused and nothing removed),
// another account's passkey is not found, and both are audited.
func TestPasskeyRenameRemove(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		alice := env.Client()
		alice.SignUp("alice@example.com")
		registerPasskey(t, alice, newSoftKey(t, env), "Old name")
		u, _ := models.UserByEmail(ctx, env.DB.DB, "alice@example.com")
		keys, _ := models.PasskeysOfUser(ctx, env.DB.DB, u.ID)
		if len(keys) != 1 || keys[0].Name != "Old name" || keys[0].Transports != "internal" {
			t.Fatalf("registered: %+v", keys)
		}
		id := keys[0].ID
		for _, bad := range []string{"", "   ", strings.Repeat("x", models.MaxPasskeyName+1), "tab\there"} {
			res := alice.Submit("/console/account", "/console/account/passkeys/"+id+"/rename", url.Values{"name": {bad}})
			msg := res.Doc(t).Find(`[data-testid=passkeys] [data-testid=form-error]`).Text()
			if res.StatusCode != 422 || !strings.Contains(msg, "name") {
				t.Errorf("name %q: %d %q", bad, res.StatusCode, msg)
			}
		}
		if res := alice.Submit("/console/account", "/console/account/passkeys/"+id+"/rename", url.Values{"name": {"New name"}}); res.StatusCode != 303 {
			t.Fatalf("rename: %d", res.StatusCode)
		}
		if !strings.Contains(alice.Get("/console/account").Body, "New name") {
			t.Error("the new name is not listed")
		}

		mallory := env.Client()
		mallory.SignUp("mallory@example.com")
		if res := mallory.Submit("/console/account", "/console/account/passkeys/"+id+"/remove", url.Values{"proof": {apptest.TestPassword}}); res.StatusCode != 404 {
			t.Errorf("removing another account's passkey: %d", res.StatusCode)
		}
		if res := alice.Submit("/console/account", "/console/account/passkeys/"+id+"/remove", url.Values{"proof": {"not the password!"}}); res.StatusCode != 401 {
			t.Errorf("removal with a wrong password: %d", res.StatusCode)
		}
		if keys, _ := models.PasskeysOfUser(ctx, env.DB.DB, u.ID); len(keys) != 1 {
			t.Fatal("a refused removal removed the passkey")
		}
		if res := alice.Submit("/console/account", "/console/account/passkeys/"+id+"/remove", url.Values{"proof": {apptest.TestPassword}}); res.StatusCode != 303 {
			t.Fatalf("removal: %d %s", res.StatusCode, res.Body)
		}
		if u, _ := models.UserByID(ctx, env.DB.DB, u.ID); u.PasskeyCount != 0 {
			t.Errorf("count after removal: %d", u.PasskeyCount)
		}
		for _, action := range []string{models.ActionPasskeyAdd, models.ActionPasskeyRename, models.ActionPasskeyRemove} {
			var n int64
			env.DB.Model(&models.AuditEvent{}).Where("action = ? AND actor_user_id = ?", action, u.ID).Count(&n)
			if n != 1 {
				t.Errorf("%s audited %d times", action, n)
			}
		}
	}, apptest.WithEnv("PUBLIC_URL", "http://localhost"))
}
