package gateway

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Routing is GATEWAY_CONFIG: the providers the gateway calls and the model
// names clients send, each routed to one or more (provider, model) targets.
type Routing struct {
	Providers    []ProviderConfig `yaml:"providers"`
	Models       []ModelConfig    `yaml:"models"`
	DefaultModel string           `yaml:"default_model"`
}

// ProviderConfig is one provider: where it is, how it speaks, its key.
type ProviderConfig struct {
	Name  string `yaml:"name"`
	Style string `yaml:"style"`
	URL   string `yaml:"url"`
	// KeyRef is the key as written, ${ENV_NAME}; Key is its value.
	KeyRef string `yaml:"key"`
	Key    string `yaml:"-"`
	lines  lines
}

// ModelConfig is one model name clients may send and where it goes.
type ModelConfig struct {
	Name     string         `yaml:"name"`
	Strategy string         `yaml:"strategy"` // fallback (default) | weighted
	Targets  []TargetConfig `yaml:"targets"`
	Price    *Price         `yaml:"price"`
	lines    lines
}

// TargetConfig is one (provider, model) a model name is routed to.
type TargetConfig struct {
	Provider string `yaml:"provider"`
	Model    string `yaml:"model"`
	Weight   int    `yaml:"weight"` // weighted strategy only; default 1
	lines    lines
}

// lines is where a mapping and its fields are in the file, so an error
// names the line of the field it is about.
type lines struct {
	start  int
	fields map[string]int
}

func linesOf(n *yaml.Node) lines {
	l := lines{start: n.Line, fields: map[string]int{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		l.fields[n.Content[i].Value] = n.Content[i].Line
	}
	return l
}

// at is field's line, or the mapping's when the field is absent.
func (l lines) at(field string) int {
	if n, ok := l.fields[field]; ok {
		return n
	}
	return l.start
}

// Routing strategies.
const (
	StrategyFallback = "fallback" // targets in order
	StrategyWeighted = "weighted" // one target by weight, then the others in order
)

// Limits on a routing file, so a typo cannot make start-up slow or the
// breakers' state unbounded.
const (
	maxProviders       = 32
	maxModels          = 256
	maxTargets         = 8
	maxRoutingFileSize = 1 << 20
)

var (
	providerName = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	envRef       = regexp.MustCompile(`^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$`)
)

// LoadRouting reads GATEWAY_CONFIG's value: the YAML itself when it holds
// a newline, else the path of a YAML file. Keys are read from the
// environment through getenv. Every error names the line it is about.
func LoadRouting(value string, getenv func(string) string) (*Routing, error) {
	src := []byte(value)
	if !strings.Contains(value, "\n") {
		f, err := os.Open(strings.TrimSpace(value))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		src = make([]byte, maxRoutingFileSize+1)
		n, err := f.Read(src)
		if err != nil && n == 0 {
			return nil, fmt.Errorf("%s: %w", value, err)
		}
		if n > maxRoutingFileSize {
			return nil, fmt.Errorf("%s: larger than %d bytes", value, maxRoutingFileSize)
		}
		src = src[:n]
	}
	return ParseRouting(src, getenv)
}

// ParseRouting parses and checks a routing document.
func ParseRouting(src []byte, getenv func(string) string) (*Routing, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err // yaml's errors say "line N: …"
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("line 1: the document is empty: it needs providers and models")
	}
	root := doc.Content[0]
	if err := knownKeys(root, "providers", "models", "default_model"); err != nil {
		return nil, err
	}
	var r Routing
	if err := root.Decode(&r); err != nil {
		return nil, err
	}
	if err := r.check(root, getenv); err != nil {
		return nil, err
	}
	return &r, nil
}

// knownKeys refuses a mapping key not in allowed, naming its line: a
// misspelt "stratgey" must not silently fall back to the default.
func knownKeys(n *yaml.Node, allowed ...string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: expected a mapping", n.Line)
	}
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(allowed, k.Value) {
			return fmt.Errorf("line %d: unknown field %q (expected %s)", k.Line, k.Value, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func (p *ProviderConfig) UnmarshalYAML(n *yaml.Node) error {
	if err := knownKeys(n, "name", "style", "url", "key"); err != nil {
		return err
	}
	type plain ProviderConfig
	p.lines = linesOf(n)
	return n.Decode((*plain)(p))
}

func (m *ModelConfig) UnmarshalYAML(n *yaml.Node) error {
	if err := knownKeys(n, "name", "strategy", "targets", "price"); err != nil {
		return err
	}
	type plain ModelConfig
	m.lines = linesOf(n)
	return n.Decode((*plain)(m))
}

func (t *TargetConfig) UnmarshalYAML(n *yaml.Node) error {
	if err := knownKeys(n, "provider", "model", "weight"); err != nil {
		return err
	}
	type plain TargetConfig
	t.lines = linesOf(n)
	return n.Decode((*plain)(t))
}

func (p *Price) UnmarshalYAML(n *yaml.Node) error {
	if err := knownKeys(n, "input", "output", "cache_read", "cache_write"); err != nil {
		return err
	}
	type plain Price
	if err := n.Decode((*plain)(p)); err != nil {
		return err
	}
	if p.Input < 0 || p.Output < 0 || p.CacheRead < 0 || p.CacheWrite < 0 || p.Input > 1e6 || p.Output > 1e6 ||
		p.CacheRead > 1e6 || p.CacheWrite > 1e6 {
		return fmt.Errorf("line %d: prices are USD per million tokens, between 0 and 1,000,000", n.Line)
	}
	return nil
}

func (r *Routing) check(root *yaml.Node, getenv func(string) string) error {
	if len(r.Providers) == 0 || len(r.Providers) > maxProviders {
		return fmt.Errorf("line %d: providers: between 1 and %d are needed", root.Line, maxProviders)
	}
	if len(r.Models) == 0 || len(r.Models) > maxModels {
		return fmt.Errorf("line %d: models: between 1 and %d are needed", root.Line, maxModels)
	}
	providers := map[string]bool{}
	for i := range r.Providers {
		p := &r.Providers[i]
		switch {
		case !providerName.MatchString(p.Name):
			return fmt.Errorf("line %d: provider name %q must be 1-64 of a-z, 0-9 and -", p.lines.at("name"), p.Name)
		case providers[p.Name]:
			return fmt.Errorf("line %d: provider %q is named twice", p.lines.at("name"), p.Name)
		case p.Style != StyleMessages && p.Style != StyleOpenAI:
			return fmt.Errorf("line %d: provider %q: style must be %q or %q, not %q", p.lines.at("style"), p.Name, StyleMessages, StyleOpenAI, p.Style)
		}
		p.URL = strings.TrimRight(strings.TrimSpace(p.URL), "/")
		if u, err := url.Parse(p.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.HasSuffix(u.Path, "/v1") {
			return fmt.Errorf("line %d: provider %q: url must be an absolute http(s) URL without /v1, not %q", p.lines.at("url"), p.Name, p.URL)
		}
		if p.KeyRef != "" {
			m := envRef.FindStringSubmatch(p.KeyRef)
			if m == nil {
				return fmt.Errorf("line %d: provider %q: key must be ${ENV_NAME}, read from the environment: never write a key in the file", p.lines.at("key"), p.Name)
			}
			if p.Key = getenv(m[1]); p.Key == "" {
				return fmt.Errorf("line %d: provider %q: key: the environment variable %s is not set", p.lines.at("key"), p.Name, m[1])
			}
		}
		providers[p.Name] = true
	}
	models := map[string]bool{}
	for i := range r.Models {
		m := &r.Models[i]
		m.Strategy = cmp.Or(m.Strategy, StrategyFallback)
		switch {
		case m.Name == "" || len(m.Name) > maxModelLen || cleanName(m.Name, maxModelLen) != m.Name:
			return fmt.Errorf("line %d: model name %q must be 1-%d printable characters", m.lines.at("name"), m.Name, maxModelLen)
		case models[m.Name]:
			return fmt.Errorf("line %d: model %q is named twice", m.lines.at("name"), m.Name)
		case m.Strategy != StrategyFallback && m.Strategy != StrategyWeighted:
			return fmt.Errorf("line %d: model %q: strategy must be %q or %q, not %q", m.lines.at("strategy"), m.Name, StrategyFallback, StrategyWeighted, m.Strategy)
		case len(m.Targets) == 0 || len(m.Targets) > maxTargets:
			return fmt.Errorf("line %d: model %q: between 1 and %d targets are needed", m.lines.at("targets"), m.Name, maxTargets)
		}
		seen := map[string]bool{}
		for j := range m.Targets {
			t := &m.Targets[j]
			switch {
			case !providers[t.Provider]:
				return fmt.Errorf("line %d: model %q: no provider is named %q", t.lines.at("provider"), m.Name, t.Provider)
			case t.Model == "" || cleanName(t.Model, maxModelLen) != t.Model:
				return fmt.Errorf("line %d: model %q: a target needs the provider's model name", t.lines.at("model"), m.Name)
			case t.Weight < 0 || t.Weight > 1000:
				return fmt.Errorf("line %d: model %q: weight must be between 1 and 1000", t.lines.at("weight"), m.Name)
			case t.Weight != 0 && m.Strategy != StrategyWeighted:
				return fmt.Errorf("line %d: model %q: weight is for the weighted strategy", t.lines.at("weight"), m.Name)
			}
			t.Weight = max(t.Weight, 1)
			key := t.Provider + "/" + t.Model
			if seen[key] {
				return fmt.Errorf("line %d: model %q: target %s/%s is listed twice (each is tried at most once)", t.lines.start, m.Name, t.Provider, t.Model)
			}
			seen[key] = true
		}
		models[m.Name] = true
	}
	if r.DefaultModel == "" {
		r.DefaultModel = r.Models[0].Name
	} else if !models[r.DefaultModel] {
		return fmt.Errorf("line %d: default_model %q is not one of the models", lineOf(root, "default_model"), r.DefaultModel)
	}
	return nil
}

func lineOf(n *yaml.Node, key string) int {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return n.Line
}

// Masked is the routing as `parapet config` prints it: YAML with every
// key replaced by its ${ENV_NAME} reference and whether it is set.
func (r *Routing) Masked() string {
	c := *r
	c.Providers = slices.Clone(r.Providers)
	for i := range c.Providers {
		if c.Providers[i].KeyRef != "" {
			c.Providers[i].KeyRef += " (set, hidden)"
		}
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
