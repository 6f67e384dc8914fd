package app

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Config is everything the application reads from the environment. Each
// variable is documented in README.md with its default; nothing else
// configures the app.
type Config struct {
	Env             string // "development" or "production"
	Port            string
	DatabaseURL     string
	RedisURL        string
	RedisPrefix     string // before every key we keep in Redis
	PublicURL       string
	SessionSecret   []byte
	TrustProxy      bool
	ShutdownTimeout time.Duration
	RequestTimeout  time.Duration
	DBMaxOpenConns  int
	SMTPURL         string // notices of credential changes; the log when empty

	RateLimitPerMinute        int
	GatewayRateLimitPerMinute int
	ToolsRateLimitPerMinute   int // runs of the tools' pages per user

	// The analysis pool (logs and scan, pages and APIs).
	AnalysisConcurrency  int
	AnalysisMemoryBudget int64 // bytes
	AnalysisWait         time.Duration

	Gateway GatewayConfig
}

// GatewayConfig configures the LLM gateway's upstream provider.
type GatewayConfig struct {
	UpstreamURL       string
	UpstreamKey       string
	UpstreamStyle     string // "messages" or "openai"
	Model             string
	MaxTokens         int
	MaxTokensCap      int
	MonthlyTokens     int64
	LogContent        bool
	ConnectTimeout    time.Duration
	Timeout           time.Duration
	StreamIdleTimeout time.Duration
	DemoWordDelay     time.Duration
}

// Production reports whether the app runs in production mode, where missing
// secrets stop start-up instead of being generated.
func (c Config) Production() bool { return c.Env == "production" }

// DemoUpstream reports whether the gateway answers from the built-in demo
// provider (development only, when no upstream URL is configured).
func (c Config) DemoUpstream() bool { return c.Gateway.UpstreamURL == "" }

// DefaultDatabaseURL is where `go run .` keeps its data on a fresh machine.
const DefaultDatabaseURL = "sqlite:./data/parapet.db"

// LoadConfig reads the configuration from getenv (os.Getenv in production,
// a map in tests). The returned warnings are for the operator's log.
func LoadConfig(getenv func(string) string) (Config, []string, error) {
	var warnings []string
	c := Config{
		Env:         strings.ToLower(strings.TrimSpace(getenv("PARAPET_ENV"))),
		Port:        strings.TrimSpace(getenv("PORT")),
		DatabaseURL: strings.TrimSpace(getenv("DATABASE_URL")),
		RedisURL:    strings.TrimSpace(getenv("REDIS_URL")),
		PublicURL:   strings.TrimRight(strings.TrimSpace(getenv("PUBLIC_URL")), "/"),
		SMTPURL:     strings.TrimSpace(getenv("SMTP_URL")),
		RedisPrefix: strings.TrimSpace(getenv("REDIS_PREFIX")),
	}
	if c.PublicURL != "" && !strings.HasPrefix(c.PublicURL, "https://") && !strings.HasPrefix(c.PublicURL, "http://") {
		return c, nil, fmt.Errorf("PUBLIC_URL must be an http(s) origin such as https://parapet.example.com, not %q", c.PublicURL)
	}
	if c.Env == "" {
		c.Env = "development"
	}
	if c.Env != "development" && c.Env != "production" {
		return c, nil, fmt.Errorf("PARAPET_ENV must be \"development\" or \"production\", not %q", c.Env)
	}
	if c.Port == "" {
		c.Port = "8080"
	}
	if p, err := strconv.Atoi(c.Port); err != nil || p < 1 || p > 65535 {
		return c, nil, fmt.Errorf("PORT must be a port number (1-65535), not %q", c.Port)
	}
	if c.PublicURL == "" && c.Production() {
		// Origin checks, redirects to HTTPS and links in mail need our
		// real address; in production it is never guessed from a request.
		return c, nil, errors.New("PUBLIC_URL must be set in production: the address users reach Parapet at, such as https://parapet.example.com")
	}
	if c.DatabaseURL == "" {
		if c.Production() {
			return c, nil, errors.New("DATABASE_URL must be set in production (postgres://...)")
		}
		c.DatabaseURL = DefaultDatabaseURL
	}

	secret := getenv("SESSION_SECRET")
	switch {
	case secret == "" && c.Production():
		return c, nil, errors.New("SESSION_SECRET must be set in production (at least 32 random characters, e.g. `openssl rand -base64 48`)")
	case secret == "":
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		secret = base64.RawURLEncoding.EncodeToString(b)
		warnings = append(warnings, "SESSION_SECRET is not set: using a generated one, so sessions end when the process restarts")
	case len(secret) < 32:
		return c, nil, errors.New("SESSION_SECRET must be at least 32 characters long")
	}
	c.SessionSecret = []byte(secret)

	var err error
	parse := func(name string, fn func(string) error) {
		if err != nil {
			return
		}
		if v := strings.TrimSpace(getenv(name)); v != "" {
			if e := fn(v); e != nil {
				err = fmt.Errorf("%s: %w", name, e)
			}
		}
	}
	c.TrustProxy = false
	parse("TRUST_PROXY", boolVar(&c.TrustProxy))
	c.ShutdownTimeout = 25 * time.Second
	parse("SHUTDOWN_TIMEOUT", durationVar(&c.ShutdownTimeout))
	c.RequestTimeout = 30 * time.Second
	parse("REQUEST_TIMEOUT", durationVar(&c.RequestTimeout))
	c.DBMaxOpenConns = 20
	parse("DB_MAX_OPEN_CONNS", intVar(&c.DBMaxOpenConns, 1, 1000))
	c.RateLimitPerMinute = 60
	parse("RATE_LIMIT_PER_MINUTE", intVar(&c.RateLimitPerMinute, 1, 10_000_000))
	c.GatewayRateLimitPerMinute = 60
	parse("GATEWAY_RATE_LIMIT_PER_MINUTE", intVar(&c.GatewayRateLimitPerMinute, 1, 10_000_000))
	c.ToolsRateLimitPerMinute = 30
	parse("TOOLS_RATE_LIMIT_PER_MINUTE", intVar(&c.ToolsRateLimitPerMinute, 1, 10_000_000))
	c.AnalysisConcurrency = runtime.NumCPU()
	parse("ANALYSIS_CONCURRENCY", intVar(&c.AnalysisConcurrency, 1, 1024))
	budgetMiB := 512
	parse("ANALYSIS_MEMORY_MB", intVar(&budgetMiB, 64, 1<<20))
	c.AnalysisMemoryBudget = int64(budgetMiB) << 20
	c.AnalysisWait = 3 * time.Second
	parse("ANALYSIS_WAIT", durationVar(&c.AnalysisWait))

	g := &c.Gateway
	g.UpstreamURL = strings.TrimRight(strings.TrimSpace(getenv("GATEWAY_UPSTREAM_URL")), "/")
	g.UpstreamKey = getenv("GATEWAY_UPSTREAM_KEY")
	g.UpstreamStyle = "messages"
	parse("GATEWAY_UPSTREAM_STYLE", func(v string) error {
		if v != "messages" && v != "openai" {
			return fmt.Errorf("must be \"messages\" or \"openai\", not %q", v)
		}
		g.UpstreamStyle = v
		return nil
	})
	g.Model = ""
	parse("GATEWAY_MODEL", func(v string) error { g.Model = v; return nil })
	g.MaxTokens = 1024
	parse("GATEWAY_MAX_TOKENS", intVar(&g.MaxTokens, 1, 1_000_000))
	g.MaxTokensCap = 8192
	parse("GATEWAY_MAX_TOKENS_CAP", intVar(&g.MaxTokensCap, 1, 1_000_000))
	g.MonthlyTokens = 1_000_000
	parse("GATEWAY_MONTHLY_TOKENS", func(v string) error {
		n, e := strconv.ParseInt(v, 10, 64)
		if e != nil || n < 0 {
			return fmt.Errorf("must be a non-negative integer, not %q", v)
		}
		g.MonthlyTokens = n
		return nil
	})
	parse("GATEWAY_LOG_CONTENT", boolVar(&g.LogContent))
	g.ConnectTimeout = 5 * time.Second
	parse("GATEWAY_CONNECT_TIMEOUT", durationVar(&g.ConnectTimeout))
	g.Timeout = 120 * time.Second
	parse("GATEWAY_TIMEOUT", durationVar(&g.Timeout))
	g.StreamIdleTimeout = 60 * time.Second
	parse("GATEWAY_STREAM_IDLE_TIMEOUT", durationVar(&g.StreamIdleTimeout))
	g.DemoWordDelay = 15 * time.Millisecond
	parse("GATEWAY_DEMO_WORD_DELAY", func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("must be a duration such as 15ms, not %q", v)
		}
		g.DemoWordDelay = d
		return nil
	})
	if err != nil {
		return c, nil, err
	}
	if g.MaxTokens > g.MaxTokensCap {
		return c, nil, fmt.Errorf("GATEWAY_MAX_TOKENS (%d) must not exceed GATEWAY_MAX_TOKENS_CAP (%d)", g.MaxTokens, g.MaxTokensCap)
	}
	if g.UpstreamURL == "" {
		if c.Production() {
			return c, nil, errors.New("GATEWAY_UPSTREAM_URL must be set in production (e.g. https://api.anthropic.com); the demo upstream is for development only")
		}
		warnings = append(warnings, "GATEWAY_UPSTREAM_URL is not set: the gateway answers from the built-in demo upstream")
	} else if g.UpstreamKey == "" && c.Production() {
		return c, nil, errors.New("GATEWAY_UPSTREAM_KEY must be set in production")
	}
	if g.Model == "" {
		g.Model = "parapet-demo"
		if g.UpstreamURL != "" {
			g.Model = "claude-sonnet-4-5"
		}
	}
	return c, warnings, nil
}

func boolVar(dst *bool) func(string) error {
	return func(v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("must be true or false, not %q", v)
		}
		*dst = b
		return nil
	}
}

func durationVar(dst *time.Duration) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration such as 30s, not %q", v)
		}
		*dst = d
		return nil
	}
}

func intVar(dst *int, min, max int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < min || n > max {
			return fmt.Errorf("must be an integer between %d and %d, not %q", min, max, v)
		}
		*dst = n
		return nil
	}
}

// NewLogger makes the process logger: JSON lines in production (for log
// drains), readable text in development.
func NewLogger(c Config) *slog.Logger {
	if c.Production() {
		return slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}
