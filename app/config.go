package app

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"time"

	"parapet/app/gateway"
)

// Config is everything the application reads from the environment. Each
// variable is one row of the settings table (settings.go), which also
// makes the docs' configuration table and `parapet config`; nothing else
// configures the app.
type Config struct {
	Env             string // "development" or "production"
	Port            string
	Host            string // listen address; "" is every interface
	DatabaseURL     string
	RedisURL        string
	RedisPrefix     string // before every key we keep in Redis
	PublicURL       string
	SessionSecret   []byte
	TrustProxy      bool
	ShutdownTimeout time.Duration
	RequestTimeout  time.Duration
	DBMaxOpenConns  int
	MetricsToken    string
	SMTPURL         string // notices of credential changes; the log when empty

	RateLimitPerMinute        int
	GatewayRateLimitPerMinute int
	ToolsRateLimitPerMinute   int // runs of the tools' pages per user

	// ToolsAIModel is the model of the tools' AI help; "" for the
	// gateway's default.
	ToolsAIModel string

	// The analysis pool (logs and scan, pages and APIs).
	AnalysisConcurrency  int
	AnalysisMemoryBudget int64 // bytes
	AnalysisWait         time.Duration

	// GatewayMediaMemory bounds the gateway's large bodies (images and
	// documents), held read and parsed while their calls run.
	GatewayMediaMemory int64 // bytes

	Gateway GatewayConfig

	// effective is each setting's value as the app uses it, in table order.
	effective []Effective
}

// GatewayConfig configures the LLM gateway's upstream provider.
type GatewayConfig struct {
	// ConfigSource is GATEWAY_CONFIG as given; Routing is what it says.
	ConfigSource      string
	Routing           *gateway.Routing
	UpstreamURL       string
	UpstreamKey       string
	UpstreamStyle     string // "messages" or "openai"
	Model             string
	EmbeddingModel    string
	MaxTokens         int
	MaxTokensCap      int
	MonthlyTokens     int64
	LogContent        bool
	ConnectTimeout    time.Duration
	Timeout           time.Duration
	FirstByteTimeout  time.Duration
	StreamIdleTimeout time.Duration
	StreamMaxDuration time.Duration
	DrainTimeout      time.Duration
	DemoWordDelay     time.Duration
}

// Production reports whether the app runs in production mode, where missing
// secrets stop start-up instead of being generated.
func (c Config) Production() bool { return c.Env == "production" }

// DemoUpstream reports whether the gateway answers from the built-in demo
// provider (development only, when no upstream URL is configured).
func (c Config) DemoUpstream() bool { return c.Gateway.UpstreamURL == "" && c.Gateway.Routing == nil }

// DefaultDatabaseURL is where `go run .` keeps its data on a fresh machine.
const DefaultDatabaseURL = "sqlite:./data/parapet.db"

// Effective is one setting as the app uses it, for `parapet config`.
type Effective struct {
	Name, Value string
	Source      string // "environment", "default" or "generated"
	Secret      bool
}

// Shown is the value as `parapet config` prints it: a secret masked, the
// password of a URL hidden.
func (e Effective) Shown() string {
	switch {
	case e.Value == "":
		return ""
	case e.Secret:
		return "(set, hidden)"
	}
	if u, err := url.Parse(e.Value); err == nil && u.User != nil {
		return u.Redacted()
	}
	return e.Value
}

// Effective lists every setting with the value the app uses, in the
// order of the settings table.
func (c Config) Effective() []Effective { return c.effective }

// LoadConfig reads the configuration from getenv (os.Getenv in production,
// a map in tests), one row of the settings table at a time. The returned
// warnings are for the operator's log.
func LoadConfig(getenv func(string) string) (Config, []string, error) {
	var c Config
	unset := map[string]bool{}
	table := settings(&c)
	for _, s := range table {
		v, source := getenv(s.Name), "environment"
		if !s.Secret {
			v = strings.TrimSpace(v)
		}
		if v == "" {
			unset[s.Name] = true
			v, source = s.Default, "default"
		}
		if v != "" {
			if err := s.Parse(v); err != nil {
				return c, nil, fmt.Errorf("%s: %w", s.Name, err)
			}
		}
		c.effective = append(c.effective, Effective{Name: s.Name, Value: v, Source: source, Secret: s.Secret})
	}
	if c.Production() {
		for _, s := range table {
			if s.Required != "" && unset[s.Name] && (s.Unless == "" || unset[s.Unless]) {
				return c, nil, fmt.Errorf("%s must be set in production (%s)", s.Name, s.Required)
			}
		}
	}
	if src := c.Gateway.ConfigSource; src != "" {
		r, err := gateway.LoadRouting(src, getenv)
		if err != nil {
			return c, nil, fmt.Errorf("GATEWAY_CONFIG: %w", err)
		}
		c.Gateway.Routing = r
		if strings.Contains(src, "\n") {
			c.setEffective("GATEWAY_CONFIG", fmt.Sprintf("(YAML, %d lines: below)", strings.Count(strings.TrimSpace(src), "\n")+1), "environment")
		}
	}
	warnings, err := c.derive()
	return c, warnings, err
}

// derive checks what concerns several settings and fills in the defaults
// that depend on others.
func (c *Config) derive() ([]string, error) {
	if c.AnalysisConcurrency == 0 {
		c.AnalysisConcurrency = runtime.NumCPU()
	}
	var warnings []string
	g := &c.Gateway
	if g.MaxTokens > g.MaxTokensCap {
		return nil, fmt.Errorf("GATEWAY_MAX_TOKENS (%d) must not exceed GATEWAY_MAX_TOKENS_CAP (%d)", g.MaxTokens, g.MaxTokensCap)
	}
	if len(c.SessionSecret) == 0 {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		c.SessionSecret = []byte(base64.RawURLEncoding.EncodeToString(b))
		c.setEffective("SESSION_SECRET", string(c.SessionSecret), "generated")
		warnings = append(warnings, "SESSION_SECRET is not set: using a generated one, so sessions end when the process restarts")
	}
	if g.UpstreamURL == "" && g.Routing == nil {
		warnings = append(warnings, "GATEWAY_UPSTREAM_URL is not set: the gateway answers from the built-in demo upstream")
	}
	if g.Model == "" {
		g.Model = "parapet-demo"
		if g.UpstreamURL != "" {
			g.Model = "claude-sonnet-4-5"
		}
		c.setEffective("GATEWAY_MODEL", g.Model, "default")
	}
	if c.MetricsToken == "" {
		warnings = append(warnings, "METRICS_TOKEN is not set: /metrics is off")
	}
	return warnings, nil
}

func (c *Config) setEffective(name, value, source string) {
	for i := range c.effective {
		if c.effective[i].Name == name {
			c.effective[i].Value, c.effective[i].Source = value, source
		}
	}
}
