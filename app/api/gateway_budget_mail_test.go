package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

// centsProvider answers every Messages call as if it had written its
// max_tokens (stop_reason max_tokens), so a call costs exactly what it
// reserved and a budget can be spent to its last cent.
func centsProvider(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_c","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"…"}],"stop_reason":"max_tokens","usage":{"input_tokens":8,"output_tokens":%d}}`, body.MaxTokens)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// centsOptions route the model "cents" to url at $10,000 per million
// output tokens and nothing for input: each output token costs a cent, so
// a call of max_tokens N costs N cents, reserved and spent.
func centsOptions(url string) []apptest.Option {
	return []apptest.Option{apptest.WithEnv("GATEWAY_CONFIG", fmt.Sprintf(`providers:
  - {name: metered, style: messages, url: %s, key: "${METERED_KEY}"}
models:
  - name: cents
    targets: [{provider: metered, model: claude-sonnet-4-5}]
    price: {input: 0, output: 10000}
default_model: cents
`, url)), apptest.WithEnv("METERED_KEY", "sk-metered"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000")}
}

// spendCents makes a call that costs cents, if the budgets admit it.
func spendCents(env *apptest.Env, key string, cents int) *apptest.Response {
	return env.Client().PostJSON("/gateway/v1/messages",
		fmt.Sprintf(`{"model":"cents","max_tokens":%d,"messages":[{"role":"user","content":"Hi"}]}`, cents), "Authorization", "Bearer "+key)
}

// team is an organization with two owners, an admin and a member, all
// with confirmed addresses, and an owner whose address is not confirmed
// yet; and a key of the first owner's.
type team struct {
	apptest.Seeded
	owners []string // the emails to mail: the owners with a confirmed address
}

func newTeam(t *testing.T, env *apptest.Env, name string) team {
	t.Helper()
	ctx := context.Background()
	s := env.Seed(t, name+"-owner@example.com")
	if err := models.SetEmailVerified(ctx, env.DB.DB, s.UserID); err != nil {
		t.Fatal(err)
	}
	tm := team{Seeded: s, owners: []string{s.Email}}
	for _, m := range []struct {
		role      string
		confirmed bool
	}{{models.RoleOwner, true}, {models.RoleAdmin, true}, {models.RoleMember, true}, {models.RoleOwner, false}} {
		u, err := models.CreateUser(ctx, env.DB.DB, fmt.Sprintf("%s-%s-%t@example.com", name, m.role, m.confirmed), "x")
		if err != nil {
			t.Fatal(err)
		}
		if err := models.AddMember(ctx, env.DB.DB, s.OrgID, u.ID, m.role); err != nil {
			t.Fatal(err)
		}
		if m.confirmed {
			if err := models.SetEmailVerified(ctx, env.DB.DB, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		if m.role == models.RoleOwner && m.confirmed {
			tm.owners = append(tm.owners, u.Email)
		}
	}
	return tm
}

func setBudget(t *testing.T, env *apptest.Env, orgID, keyID string, cents int64) {
	t.Helper()
	if err := models.SetBudget(env.DB.DB, orgID, keyID, cents*10_000); err != nil {
		t.Fatal(err)
	}
}

var (
	mailPercent = regexp.MustCompile(`(\d+)%`)
	mailAmount  = regexp.MustCompile(`\(\$\d+\.\d\d\)`) // the budgets here are whole cents: "($1.00)"
)

// budgetAlerts maps each recipient of a budget mail to the percentages
// they were mailed, in order. A budget mail names its percentage in its
// subject and its body, and the month.
func budgetAlerts(t *testing.T, mails []apptest.Mail) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, m := range mails {
		pct := mailPercent.FindStringSubmatch(m.Subject)
		if !strings.Contains(m.Subject, "budget") || pct == nil {
			continue
		}
		if !strings.Contains(m.Body, pct[0]) || !strings.Contains(m.Body, models.Period(time.Now())) {
			t.Errorf("the mail %q does not name its percentage and month: %q", m.Subject, m.Body)
		}
		if !mailAmount.MatchString(m.Body) {
			t.Errorf("the mail %q does not give the budget in dollars and cents: %q", m.Subject, m.Body)
		}
		n, _ := strconv.Atoi(pct[1])
		out[m.To] = append(out[m.To], n)
	}
	return out
}

// each is every one of emails mailed percentages.
func each(emails []string, percentages ...int) map[string][]int {
	out := map[string][]int{}
	for _, e := range emails {
		if len(percentages) > 0 {
			out[e] = percentages
		}
	}
	return out
}

// step is one call of a scenario and the budget mails it must cause.
type step struct {
	cents  int
	status int
	mailed []int
}

// spend makes the calls of steps in turn on env with key, checking each
// one's answer and the budget mails that follow it (to the owners; none to
// anyone else).
func spend(t *testing.T, env *apptest.Env, key string, owners []string, steps []step) {
	t.Helper()
	seen := len(env.Mails())
	spent := 0
	for _, s := range steps {
		r := spendCents(env, key, s.cents)
		if r.StatusCode != s.status || s.status == 429 && !strings.Contains(r.Body, "budget_exceeded") {
			t.Fatalf("a call of %d¢ after %d¢: %d %s, want %d", s.cents, spent, r.StatusCode, r.Body, s.status)
		}
		if r.StatusCode == 200 {
			spent += s.cents
		}
		env.App.FlushAudit()
		mails := env.Mails()
		if got, want := budgetAlerts(t, mails[seen:]), each(owners, s.mailed...); !reflect.DeepEqual(got, want) {
			t.Errorf("after a call of %d¢ (%d¢ spent): mailed %v, want %v", s.cents, spent, got, want)
		}
		seen = len(mails)
	}
}

// An organization's $1 budget: the owners — and no one else, nor an owner
// whose address is not confirmed — are mailed once as its spend passes
// 50%, 80% and 100% (both of the first two at once when one call jumps
// past them); calls refused for the budget and calls under a threshold
// already passed mail nothing. A key's own budget is mailed the same way,
// naming the key.
func TestGatewayBudgetMailsOwners(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			env := apptest.New(t, d, centsOptions(centsProvider(t).URL)...)
			tm := newTeam(t, env, "alerts")
			setBudget(t, env, tm.OrgID, "", 100)
			spend(t, env, tm.Key, tm.owners, []step{
				{30, 200, nil},
				{10, 200, nil},
				{50, 200, []int{50, 80}}, // 40% to 90%
				{5, 200, nil},
				{10, 429, nil}, // 5¢ left
				{5, 200, []int{100}},
				{1, 429, nil},
			})

			// A key's $0.10 in an organization without a budget.
			kt := newTeam(t, env, "keys")
			setBudget(t, env, kt.OrgID, kt.KeyID, 10)
			before := len(env.Mails())
			spend(t, env, kt.Key, kt.owners, []step{
				{5, 200, []int{50}},
				{3, 200, []int{80}},
				{3, 429, nil},
				{2, 200, []int{100}},
			})
			var name string
			if err := env.DB.Raw(`SELECT name FROM api_keys WHERE id = ?`, kt.KeyID).Scan(&name).Error; err != nil {
				t.Fatal(err)
			}
			for _, m := range env.Mails()[before:] {
				if !strings.Contains(m.Body, name) || !strings.Contains(m.Body, kt.KeyID) {
					t.Errorf("a key's budget mail does not name the key %q (%s): %q", name, kt.KeyID, m.Body)
				}
			}
		})
	}
}

// Last month's spend and mails do not carry over: this month's first
// call past 50% mails the owners again.
func TestGatewayBudgetMailsEachMonth(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			env := apptest.New(t, d, centsOptions(centsProvider(t).URL)...)
			tm := newTeam(t, env, "monthly")
			setBudget(t, env, tm.OrgID, "", 100)
			y, m, _ := time.Now().UTC().Date()
			last := models.Period(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1))
			if err := env.DB.Exec(`INSERT INTO budget_counters (org_id, key_id, period, spent_micros) VALUES (?, '', ?, 1000000)`, tm.OrgID, last).Error; err != nil {
				t.Fatal(err)
			}
			for _, pct := range []int{50, 80, 100} {
				if err := env.DB.Exec(`INSERT INTO budget_alerts (org_id, key_id, period, threshold) VALUES (?, '', ?, ?)`, tm.OrgID, last, pct).Error; err != nil {
					t.Fatal(err)
				}
			}
			spend(t, env, tm.Key, tm.owners, []step{{60, 200, []int{50}}})
		})
	}
}

// Two instances sharing the database (and Redis, when there is one) take
// forty parallel calls of 5¢ against a $1 budget: twenty are admitted, and
// each owner gets each of the three mails once between the instances.
func TestGatewayBudgetMailsOnceAcrossInstances(t *testing.T) {
	pg := os.Getenv("TEST_DATABASE_URL")
	if pg == "" {
		t.Skip("needs TEST_DATABASE_URL")
	}
	shared := []struct{ name, redis string }{{"database", ""}}
	if rd := os.Getenv("TEST_REDIS_URL"); rd != "" {
		shared = append(shared, struct{ name, redis string }{"redis", rd})
	}
	for _, sh := range shared {
		t.Run(sh.name, func(t *testing.T) {
			opts := centsOptions(centsProvider(t).URL)
			if sh.redis != "" {
				opts = append(opts, apptest.WithEnv("REDIS_URL", sh.redis))
			}
			cfg := apptest.Config(t, apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg}), opts...)
			a, b := apptest.Start(t, cfg), apptest.Start(t, cfg)
			tm := newTeam(t, a, "cluster")
			setBudget(t, a, tm.OrgID, "", 100)
			counts := statusesOf(40, []*apptest.Env{a, b}, func(env *apptest.Env) int {
				return spendCents(env, tm.Key, 5).StatusCode
			})
			a.App.FlushAudit()
			b.App.FlushAudit()
			if counts[200] != 20 || counts[429] != 20 {
				t.Errorf("answers %v, want twenty 200 and twenty 429", counts)
			}
			got := budgetAlerts(t, append(a.Mails(), b.Mails()...))
			for _, p := range got {
				slices.Sort(p)
			}
			if want := each(tm.owners, 50, 80, 100); !reflect.DeepEqual(got, want) {
				t.Errorf("mailed %v, want %v", got, want)
			}
		})
	}
}
