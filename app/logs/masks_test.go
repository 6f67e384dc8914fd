package logs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestCustomMasks(t *testing.T) {
	in := strings.Join([]string{
		"2024-03-18 09:14:07 INFO order ORD-12345 shipped to tenant=acme-prod, by alice",
		"2024-03-18 09:14:08 INFO order ORD-77 shipped to tenant=globex-dev, by bob",
		"2024-03-18 09:14:09 INFO order ORD-9 shipped to tenant=acme-prod, by carol",
	}, "\n")
	masks := []Mask{
		{Name: "order_id", Regex: `ORD-[0-9]+`},
		{Name: "tenant", Regex: `[a-z]+-(prod|dev)`},
		{Name: "user", Regex: `\b(alice|bob|carol)\b`},
	}
	named := analyze(t, in, Options{Masks: masks, NamedPlaceholders: true})
	if len(named.Templates) != 1 || named.Templates[0].Template != "order <order_id> shipped to tenant=<tenant>, by <user>" {
		t.Errorf("named templates %+v", named.Templates)
	}
	plain := analyze(t, in, Options{Masks: masks})
	if len(plain.Templates) != 1 || plain.Templates[0].Template != "order <*> shipped to tenant=<*>, by <*>" {
		t.Errorf("templates %+v", plain.Templates)
	}
	// Before the built-in masks: a word they leave alone is masked, and
	// the mask's name wins over the built-in class.
	res := analyze(t, "disk sda1 full\ndisk sdb3 full\n", Options{Masks: []Mask{{Name: "device", Regex: `sd[a-z][0-9]`}}, NamedPlaceholders: true})
	if res.Templates[0].Template != "disk <device> full" {
		t.Errorf("device template %+v", res.Templates)
	}
}

func TestCustomMaskErrors(t *testing.T) {
	many := make([]Mask, MaxMasks+1)
	for i := range many {
		many[i] = Mask{Name: "m" + strings.Repeat("x", i), Regex: "x"}
	}
	for _, tt := range []struct {
		name  string
		masks []Mask
		want  string
	}{
		{"bad regex", []Mask{{Name: "ok", Regex: "a"}, {Name: "broken", Regex: "(unclosed"}}, `mask "broken": bad regex`},
		{"too many", many, "at most 20"},
		{"long regex", []Mask{{Name: "long", Regex: strings.Repeat("a", MaxMaskRegexLen+1)}}, `mask "long": the regex must be 1 to 512 bytes`},
		{"empty regex", []Mask{{Name: "empty"}}, `mask "empty"`},
		{"bad name", []Mask{{Name: "has space", Regex: "a"}}, "name"},
		{"duplicate name", []Mask{{Name: "a", Regex: "a"}, {Name: "a", Regex: "b"}}, "used twice"},
	} {
		_, err := Analyze(context.Background(), []byte("line 1\n"), Options{Masks: tt.masks})
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want ErrBadOption saying %q", tt.name, err, tt.want)
		}
	}
	exact := make([]Mask, MaxMasks)
	for i := range exact {
		exact[i] = Mask{Name: "m" + strings.Repeat("x", i), Regex: strings.Repeat("y", MaxMaskRegexLen)}
	}
	if _, err := Analyze(context.Background(), []byte("line 1\n"), Options{Masks: exact}); err != nil {
		t.Errorf("exactly at the limits: %v", err)
	}
}
