package views

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"parapet/models"
	"parapet/views/paths"
)

// CallQuery is the request log's filters and page, as query parameters.
type CallQuery struct {
	Key, Model, Status string
	Page               int
}

// KeyOption is an active key a settings form can name.
type KeyOption struct{ ID, Name string }

// chartBar is one day's bar of a chart: its place and height in the
// SVG's 100-high view box, and its label.
type chartBar struct {
	X, Y, H int
	Label   string
}

// chartBarWidth is each day's share of the view box's width (the bar
// leaves a gap of 2).
const chartBarWidth = 10

// chart lays out one bar a day of value, scaled to the largest.
func (d UsageData) chart(value func(models.SpendTotal) int64, show func(int64) string) []chartBar {
	var top int64
	for _, s := range d.Daily {
		top = max(top, value(s))
	}
	bars := make([]chartBar, len(d.Daily))
	for i, s := range d.Daily {
		h := 0
		if v := value(s); top > 0 && v > 0 {
			h = max(1, int(v*100/top))
		}
		bars[i] = chartBar{X: i*chartBarWidth + 1, Y: 100 - h, H: h, Label: s.Name + ": " + show(value(s))}
	}
	return bars
}

func costOf(s models.SpendTotal) int64   { return s.CostMicros }
func tokensOf(s models.SpendTotal) int64 { return s.Tokens }
func tokensText(n int64) string          { return Thousands(n) + " tokens" }

// chartWidth is the view box's width: one slot a day.
func (d UsageData) chartWidth() string { return itoa(len(d.Daily) * chartBarWidth) }

// sum adds up spend totals.
func sum(rows []models.SpendTotal) models.SpendTotal {
	var t models.SpendTotal
	for _, r := range rows {
		t.Requests += r.Requests
		t.Tokens += r.Tokens
		t.CostMicros += r.CostMicros
	}
	return t
}

// peak names the day with the most of value, for the chart's label.
func (d UsageData) peak(value func(models.SpendTotal) int64, show func(int64) string) string {
	var p models.SpendTotal
	for _, s := range d.Daily {
		if value(s) > value(p) {
			p = s
		}
	}
	if p.Name == "" {
		return "none yet"
	}
	return "highest " + show(value(p)) + " on " + p.Name
}

// monthURL is the usage page of another month.
func monthURL(period string) string { return paths.Usage + "?month=" + url.QueryEscape(period) }

// csvURL is the month's export.
func (d UsageData) csvURL() string { return paths.UsageCSV + "?month=" + url.QueryEscape(d.Period) }

// pageURL is the request log's page n with the current filters.
func (d UsageData) pageURL(n int) string {
	v := url.Values{"month": {d.Period}}
	for k, s := range map[string]string{"key": d.Filter.Key, "model": d.Filter.Model, "status": d.Filter.Status} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if n > 1 {
		v.Set("page", strconv.Itoa(n))
	}
	return paths.Usage + "?" + v.Encode() + "#calls"
}

// logStatuses are the status filter's choices besides "any" and "error".
var logStatuses = []string{"200", "400", "401", "403", "404", "408", "413", "429", "499", "500", "502", "503", "504", "529"}

// statusChoices adds a filtered status that is not one of logStatuses.
func (d UsageData) statusChoices() []string {
	if s := d.Filter.Status; s != "" && s != "error" && !slices.Contains(logStatuses, s) {
		return append(slices.Clone(logStatuses), s)
	}
	return logStatuses
}

// keyChoices are the keys of the month's calls, for the log's key filter.
func (d UsageData) keyChoices() []models.SpendTotal {
	var out []models.SpendTotal
	for _, a := range d.ByActor {
		if strings.HasPrefix(a.Actor, "key_") {
			out = append(out, a)
		}
	}
	return out
}

// orNone names a group without a name (calls refused before a model or
// provider was known).
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// callActor names a call's key or playground user.
func callActor(r models.CallRow) string {
	switch {
	case r.ActorKeyName != nil:
		return *r.ActorKeyName
	case r.ActorEmail != nil:
		return *r.ActorEmail
	}
	return "unidentified"
}

func strOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func callStatus(r models.CallRow) string {
	if r.Status == nil {
		return "—"
	}
	s := itoa(*r.Status)
	if r.ErrorCode != nil {
		s += " " + *r.ErrorCode
	}
	return s
}

func callFailed(r models.CallRow) bool { return r.Status == nil || *r.Status >= 400 }

func callTokens(r models.CallRow) int64 {
	var n int64
	for _, p := range []*int64{r.InputTokens, r.CacheWriteTokens, r.CacheReadTokens, r.OutputTokens} {
		if p != nil {
			n += *p
		}
	}
	return n
}

func callCost(r models.CallRow) string {
	if r.CostMicros == nil {
		return "unknown"
	}
	return usd(*r.CostMicros)
}

func callLatency(r models.CallRow) string {
	if r.TotalMs == nil {
		return "—"
	}
	return Thousands(*r.TotalMs) + " ms"
}

// callAttempt is one attempt as the log lists it.
type callAttempt struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Status   int    `json:"status"`
	Ms       int64  `json:"ms"`
}

func (a callAttempt) String() string {
	st := "no answer"
	if a.Status != 0 {
		st = itoa(a.Status)
	}
	return a.Provider + "/" + a.Model + " " + st + " · " + Thousands(a.Ms) + " ms"
}

// callAttempts lists a call's attempts, nil when it has none recorded.
func callAttempts(r models.CallRow) []callAttempt {
	var as []callAttempt
	if r.Attempts != nil {
		_ = json.Unmarshal([]byte(*r.Attempts), &as) // a malformed list shows as none
	}
	return as
}

// orgBudget is the organization's own budget, nil when it has none.
func (d UsageData) orgBudget() *models.Budget {
	for i := range d.Budgets {
		if d.Budgets[i].KeyID == "" {
			return &d.Budgets[i]
		}
	}
	return nil
}

// keyBudgets are the budgets of the organization's keys.
func (d UsageData) keyBudgets() []models.Budget {
	var out []models.Budget
	for _, b := range d.Budgets {
		if b.KeyID != "" {
			out = append(out, b)
		}
	}
	return out
}

// orgModels is the organization's model list, nil for every model.
func (d UsageData) orgModels() []string {
	for _, p := range d.Policies {
		if p.KeyID == "" {
			return p.Models
		}
	}
	return nil
}

// keyPolicies are the model lists of the organization's keys.
func (d UsageData) keyPolicies() []models.ModelPolicy {
	var out []models.ModelPolicy
	for _, p := range d.Policies {
		if p.KeyID != "" {
			out = append(out, p)
		}
	}
	return out
}

// keyName names a key id with the key's name, when it is active.
func (d UsageData) keyName(id string) string {
	for _, k := range d.Keys {
		if k.ID == id {
			return k.Name + " (" + id + ")"
		}
	}
	return id + " (revoked)"
}
