package app_test

import (
	"bytes"
	"context"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/cli"
	"parapet/migrations"
)

// cluster starts n instances of the app on one Postgres database and one
// Redis, as Heroku-style dynos behind a load balancer would run.
func cluster(t *testing.T, n int, opts ...apptest.Option) []*apptest.Env {
	t.Helper()
	pg, rd := needServices(t)
	dbURL := apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg})
	cfg := apptest.Config(t, dbURL, append([]apptest.Option{apptest.WithEnv("REDIS_URL", rd), apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s")}, opts...)...)
	envs := make([]*apptest.Env, n)
	for i := range envs {
		envs[i] = apptest.Start(t, cfg)
	}
	return envs
}

// One key's requests spread over three instances: exactly 60 succeed in
// the rolling minute, on the public API and on the gateway.
func TestInstancesShareTheRateLimit(t *testing.T) {
	envs := cluster(t, 3)
	s := envs[0].Seed(t, "spread@example.com")
	for _, tc := range []struct {
		name string
		do   func(env *apptest.Env) int
	}{
		{"public API", func(env *apptest.Env) int {
			return env.Client().Get("/v1/products", "Authorization", "Bearer "+s.Key).StatusCode
		}},
		{"gateway", func(env *apptest.Env) int {
			return env.Client().PostJSON("/gateway/v1/chat", `{"messages":[{"role":"user","content":"hi"}],"max_tokens":5}`, "Authorization", "Bearer "+s.Key).StatusCode
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			counts := map[int]int{}
			var wg sync.WaitGroup
			for i := 0; i < 90; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					st := tc.do(envs[i%len(envs)])
					mu.Lock()
					counts[st]++
					mu.Unlock()
				}(i)
			}
			wg.Wait()
			if counts[200] != 60 || counts[429] != 30 {
				t.Errorf("three instances answered %v, want exactly 60 x 200 and 30 x 429", counts)
			}
		})
	}
}

// Wrong passwords on one account, 40 at once, spread over two instances:
// the throttle (Redis) is one for both, so at most 10 are checked and the
// rest are refused before any hashing.
func TestInstancesShareTheSignInThrottle(t *testing.T) {
	envs := cluster(t, 2)
	envs[0].Seed(t, "stuffed@example.com")
	clients := make([]*apptest.Client, len(envs))
	tokens := make([]string, len(envs))
	for i, env := range envs {
		clients[i] = env.Client()
		tokens[i] = clients[i].CSRF("/console/signin")
	}
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			n := i % len(envs)
			res := clients[n].PostForm("/console/signin", url.Values{"_csrf": {tokens[n]}, "email": {"stuffed@example.com"},
				"password": {"wrong password " + strconv.Itoa(i)}})
			mu.Lock()
			counts[res.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	// 503: no hashing slot was free in time (a loaded machine), never checked.
	if counts[401] > 10 || counts[429] < 30-counts[503] || counts[401]+counts[429]+counts[503] != 40 {
		t.Errorf("two instances answered %v: want at most 10 checked (401), the rest 429 (or 503 busy)", counts)
	}
}

// A key revoked through one instance is refused by the others within one
// second.
func TestRevocationReachesEveryInstance(t *testing.T) {
	envs := cluster(t, 2)
	s := envs[0].Seed(t, "revoke@example.com")
	for _, env := range envs {
		if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
			t.Fatalf("before revocation: %d", res.StatusCode) // both instances have the key cached now
		}
	}
	owner := envs[0].Client()
	if res := owner.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatal(res.StatusCode)
	}
	if res := owner.Submit("/console/keys", "/console/keys/"+s.KeyID+"/revoke", nil); res.StatusCode != 303 {
		t.Fatalf("revoke: %d", res.StatusCode)
	}
	revoked := time.Now()
	if res := envs[0].Client().Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 401 {
		t.Errorf("the revoking instance still accepts the key: %d", res.StatusCode)
	}
	refused := apptest.Eventually(time.Second, func() bool {
		return envs[1].Client().Get("/v1/products", "Authorization", "Bearer "+s.Key).StatusCode == 401
	})
	if !refused {
		t.Fatalf("the other instance still accepts the key %s after revocation", time.Since(revoked))
	}
}

// A session made on one instance works on another; signing out on one
// ends it everywhere.
func TestSessionsAcrossInstances(t *testing.T) {
	envs := cluster(t, 2)
	a := envs[0].Client()
	a.SignUp("roam@example.com")
	cookies := a.Jar.Cookies(mustParse(envs[0].URL("/")))
	b := envs[1].Client()
	b.Jar.SetCookies(mustParse(envs[1].URL("/")), cookies)
	if res := b.Get("/console"); res.StatusCode != 200 {
		t.Fatalf("the session from instance A on instance B: %d", res.StatusCode)
	}
	if res := a.Submit("/console", "/console/signout", nil); res.StatusCode != 303 {
		t.Fatalf("sign out: %d", res.StatusCode)
	}
	if res := b.Get("/console"); res.StatusCode != 303 {
		t.Errorf("instance B still honours a session signed out on A: %d", res.StatusCode)
	}
}

// `parapet migrate` (the release step) applies a migration while instances
// serve, without disturbing them, and is a no-op when run again. The newest
// migration is undone first, as it would be pending before its release.
func TestMigrateWhileServing(t *testing.T) {
	// The traffic is not the subject: no rate limit (its Redis buckets are
	// shared with the tests that ran in the last minute).
	envs := cluster(t, 2, apptest.WithEnv("RATE_LIMIT_PER_MINUTE", "1000000"))
	s := envs[0].Seed(t, "release@example.com")
	if err := migrations.DownOne(context.Background(), envs[0].DB.SQL(), envs[0].DB.Dialect); err != nil {
		t.Fatalf("undo the newest migration: %v", err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	var served atomic.Int64
	for _, env := range envs {
		wg.Add(1)
		go func(env *apptest.Env) {
			defer wg.Done()
			c := env.Client()
			pace := time.NewTicker(5 * time.Millisecond) // a steady load, not a flood
			defer pace.Stop()
			for {
				select {
				case <-stop:
					return
				case <-pace.C:
				}
				if res := c.Get("/v1/health"); res.StatusCode != 200 {
					mu.Lock()
					failures++
					mu.Unlock()
				}
				served.Add(1)
			}
		}(env)
	}
	env := map[string]string{"DATABASE_URL": envs[0].Config.DatabaseURL, "SESSION_SECRET": string(envs[0].Config.SessionSecret), "PARAPET_ENV": "development"}
	migrate := func() string {
		var out, errOut bytes.Buffer
		if code := cli.Run([]string{"migrate"}, nil, &out, &errOut, func(k string) string { return env[k] }); code != 0 {
			t.Fatalf("parapet migrate exited %d: %s", code, errOut.String())
		}
		return out.String()
	}
	apptest.WaitFor(t, 5*time.Second, "traffic before the release step", func() bool { return served.Load() >= 10 })
	first := migrate()
	second := migrate()
	close(stop)
	wg.Wait()
	if !strings.HasPrefix(first, "applied 1 migration(s)") || !strings.HasPrefix(second, "applied 0 migration(s)") {
		t.Errorf("release step said %q, then %q; want 1 migration applied, then none", first, second)
	}
	if failures > 0 {
		t.Errorf("%d requests failed while migrating", failures)
	}
	if n, err := envs[0].DB.Pending(context.Background()); err != nil || n != 0 {
		t.Errorf("after the release step %d migrations are pending (%v)", n, err)
	}
	if res := envs[1].Client().Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
		t.Errorf("after the release step: %d", res.StatusCode)
	}
}

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
