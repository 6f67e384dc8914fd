package keys

import (
	"fmt"
	"strings"
	"time"
)

// ExpiryChoices are the lifetimes offered for a new key, in days.
var ExpiryChoices = []int{7, 30, 90}

// MaxExpiryYears bounds a key's expiry date: a date within it is a plan,
// one past it is a typo or a probe, and every database reads it back
// (9999-12-31 ended in year 10000, which SQLite cannot read).
const MaxExpiryYears = 10

// LatestExpiry is the last day a key created at now may expire on.
func LatestExpiry(now time.Time) time.Time {
	y, m, d := now.UTC().AddDate(MaxExpiryYears, 0, 0).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ParseExpiry turns an expiry choice into the time the key stops working:
// "" or "never" (nil, no expiry), a number of days ("30" or "30d", one of
// ExpiryChoices), or a date YYYY-MM-DD, after which the key stops (it
// works through that day, UTC). A date must be in the future and at most
// MaxExpiryYears ahead.
func ParseExpiry(choice string, now time.Time) (*time.Time, error) {
	choice = strings.TrimSpace(choice)
	if choice == "" || choice == "never" {
		return nil, nil
	}
	for _, d := range ExpiryChoices {
		if choice == fmt.Sprint(d) || choice == fmt.Sprintf("%dd", d) {
			t := now.UTC().Add(time.Duration(d) * 24 * time.Hour)
			return &t, nil
		}
	}
	day, err := time.Parse(time.DateOnly, choice)
	if err != nil {
		return nil, fmt.Errorf("expiry %q: choose 7, 30 or 90 days, never, or a date as YYYY-MM-DD", choice)
	}
	end := day.Add(24 * time.Hour)
	if !end.After(now) {
		return nil, fmt.Errorf("expiry %s is in the past: choose a later date", choice)
	}
	if last := LatestExpiry(now); day.After(last) {
		return nil, fmt.Errorf("expiry %s is more than %d years ahead: choose a date up to %s, or never",
			choice, MaxExpiryYears, last.Format(time.DateOnly))
	}
	return &end, nil
}

// DefaultGrace is how long a rolled key keeps working unless told.
const DefaultGrace = 24 * time.Hour

// MaxGrace bounds a roll's grace period: the old key is meant to go.
const MaxGrace = 7 * 24 * time.Hour

// ParseGrace reads a roll's grace period as a Go duration ("24h", "90m",
// "0" for none); "" is DefaultGrace. It is at most MaxGrace.
func ParseGrace(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultGrace, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > MaxGrace {
		return 0, fmt.Errorf("grace period %q: give a duration from 0 to %s, such as 24h", s, MaxGrace)
	}
	return d, nil
}
