package app

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// setting is one row of the configuration table: an environment variable,
// its default, what it means, how it is parsed into its Config field, and
// whether production needs it. LoadConfig, the docs' table (a test compares
// them) and `parapet config` all come from these rows.
type setting struct {
	Name string
	// Default is parsed when the variable is unset or blank ("" = none);
	// Shown is how the docs show the default when that is not Default.
	Default, Shown string
	Doc            string
	// Required, when set, says what production needs: unset there stops
	// start-up with "NAME must be set in production (Required)".
	Required string
	// Secret values are neither trimmed nor printed.
	Secret bool
	// Unless names the setting that, when set, makes this one not Required.
	Unless string
	Parse  func(v string) error
}

// settings is the configuration table, in the docs' order, each row parsing
// into its field of c. Adding a setting is one row here (and the Config
// field it fills).
func settings(c *Config) []setting {
	return []setting{
		{Name: "PORT", Default: "8080", Doc: "HTTP port", Parse: c.port},
		{Name: "HOST", Shown: "unset: every interface", Doc: "the address to listen on: unset for every interface, as a platform's router expects; `127.0.0.1` keeps a laptop's server off the network", Parse: c.host},
		{Name: "PARAPET_ENV", Default: "development", Doc: "`development` or `production`", Parse: c.env},
		{Name: "DATABASE_URL", Default: DefaultDatabaseURL, Required: "postgres://...",
			Doc:   "`postgres://…`/`postgresql://…` for Postgres, `sqlite:PATH` for the embedded SQLite (directory created)",
			Parse: text(&c.DatabaseURL)},
		{Name: "SESSION_SECRET", Shown: "generated, with a warning (development)", Secret: true,
			Required: "at least 32 random characters, e.g. `openssl rand -base64 48`",
			Doc:      "at least 32 characters; signs session cookies and CSRF tokens", Parse: c.sessionSecret},
		{Name: "REDIS_URL", Shown: "unset: in-memory rate limiter", Doc: "`redis://…`: the rate limiter shared by every instance", Parse: text(&c.RedisURL)},
		{Name: "TRUST_PROXY", Default: "false", Doc: "honour `X-Forwarded-For` / `X-Forwarded-Proto` from the router in front (Heroku) for the client IP and HTTPS", Parse: boolean(&c.TrustProxy)},
		{Name: "SHUTDOWN_TIMEOUT", Default: "25s", Doc: "how long SIGTERM waits for in-flight requests", Parse: duration(&c.ShutdownTimeout)},
		{Name: "REQUEST_TIMEOUT", Default: "30s", Doc: "the deadline of a request's work (database calls); past it the answer is 503", Parse: duration(&c.RequestTimeout)},
		{Name: "DB_MAX_OPEN_CONNS", Default: "20", Doc: "connection pool size per instance", Parse: integer(1, 1000, &c.DBMaxOpenConns)},
		{Name: "RATE_LIMIT_PER_MINUTE", Default: "60", Doc: "public and tool APIs: requests per rolling minute per key (and per IP without a valid key)",
			Parse: integer(1, 10_000_000, &c.RateLimitPerMinute)},
		{Name: "GATEWAY_RATE_LIMIT_PER_MINUTE", Default: "60", Doc: "the gateway's own per-key budget", Parse: integer(1, 10_000_000, &c.GatewayRateLimitPerMinute)},
		{Name: "GATEWAY_UPSTREAM_URL", Unless: "GATEWAY_CONFIG", Shown: "unset: built-in demo upstream (development only)",
			Required: "e.g. https://api.anthropic.com; the demo upstream is for development only",
			Doc:      "the LLM provider's base URL, e.g. `https://api.anthropic.com`", Parse: c.upstreamURL},
		{Name: "GATEWAY_UPSTREAM_KEY", Unless: "GATEWAY_CONFIG", Secret: true, Required: "the provider's API key", Doc: "the provider's API key. Never logged or echoed", Parse: text(&c.Gateway.UpstreamKey)},
		{Name: "GATEWAY_UPSTREAM_STYLE", Default: "messages", Doc: "`messages` (Anthropic Messages API) or `openai` (Chat Completions)",
			Parse: oneOf([]string{"messages", "openai"}, &c.Gateway.UpstreamStyle)},
		{Name: "GATEWAY_MODEL", Shown: "`parapet-demo` (demo), `claude-sonnet-4-5` (real upstream)", Doc: "default model when a request names none", Parse: text(&c.Gateway.Model)},
		{Name: "GATEWAY_EMBEDDING_MODEL", Shown: "`parapet-demo-embedding` (demo), none (real upstream)", Doc: "default embeddings model (listed in `/gateway/v1/models`; an `openai`-style upstream serves embeddings)", Parse: text(&c.Gateway.EmbeddingModel)},
		{Name: "GATEWAY_MAX_TOKENS", Default: "1024", Doc: "default `max_tokens`", Parse: integer(1, 1_000_000, &c.Gateway.MaxTokens)},
		{Name: "GATEWAY_MAX_TOKENS_CAP", Default: "8192", Doc: "the largest `max_tokens` a call gets: more is lowered to it", Parse: integer(1, 1_000_000, &c.Gateway.MaxTokensCap)},
		{Name: "GATEWAY_MONTHLY_TOKENS", Default: "1000000", Doc: "monthly token quota new organizations get", Parse: c.monthlyTokens},
		{Name: "GATEWAY_LOG_CONTENT", Default: "false", Doc: "store prompts and replies in the audit log", Parse: boolean(&c.Gateway.LogContent)},
		{Name: "GATEWAY_CONNECT_TIMEOUT", Default: "5s", Doc: "connecting to the upstream", Parse: duration(&c.Gateway.ConnectTimeout)},
		{Name: "GATEWAY_TIMEOUT", Default: "120s", Doc: "total time of a non-streamed upstream call", Parse: duration(&c.Gateway.Timeout)},
		{Name: "GATEWAY_FIRST_BYTE_TIMEOUT", Default: "60s", Doc: "a stream's wait for the upstream's first byte", Parse: duration(&c.Gateway.FirstByteTimeout)},
		{Name: "GATEWAY_STREAM_IDLE_TIMEOUT", Default: "60s", Doc: "longest silence between a stream's bytes (not a total limit)", Parse: duration(&c.Gateway.StreamIdleTimeout)},
		{Name: "GATEWAY_STREAM_MAX_DURATION", Default: "10m", Doc: "the longest a stream may run in all", Parse: duration(&c.Gateway.StreamMaxDuration)},
		{Name: "GATEWAY_DRAIN_TIMEOUT", Default: "10s", Doc: "how long the upstream of a call whose client left is read on, so its own usage is metered", Parse: duration(&c.Gateway.DrainTimeout)},
		{Name: "GATEWAY_CONFIG", Shown: "unset: one provider (`GATEWAY_UPSTREAM_*`) behind every model name",
			Doc:   "providers and model routes (see Providers and routing): the path of a YAML file, or the YAML itself when the value holds a newline; keys only as `${ENV_NAME}`. Replaces `GATEWAY_UPSTREAM_*` and `GATEWAY_MODEL`",
			Parse: text(&c.Gateway.ConfigSource)},
		{Name: "GATEWAY_DEMO_WORD_DELAY", Default: "15ms", Doc: "pace of the demo upstream's words (development)", Parse: c.demoWordDelay},
		{Name: "PUBLIC_URL", Shown: "unset: the request's own origin (development)",
			Required: "the address users reach Parapet at, such as https://parapet.example.com",
			Doc: "our origin, e.g. `https://parapet.example.com`: product URLs in the API and links in mail are made absolute with it, " +
				"the CSRF origin check compares with it, and when it is `https://` plain HTTP is redirected to it", Parse: c.publicURL},
		{Name: "SMTP_URL", Shown: "unset: mail goes to the server log (in production, without its body)", Secret: true,
			Doc:   "`smtp://user:password@host:587?from=noreply@example.com` (STARTTLS when offered): where notices of credential changes, invitations and the gateway budgets' 50/80/100% alerts are sent",
			Parse: text(&c.SMTPURL)},
		{Name: "REDIS_PREFIX", Shown: "empty", Doc: "put before every key Parapet keeps in Redis (rate limits, throttles, quotas), so several deployments can share one Redis",
			Parse: text(&c.RedisPrefix)},
		{Name: "TOOLS_AI_MODEL", Shown: "the gateway's default model (`GATEWAY_MODEL`)", Doc: "model of the tools' AI help (a log's Explain, a finding's Suggest a fix), called through the gateway as the organization",
			Parse: text(&c.ToolsAIModel)},
		{Name: "TOOLS_RATE_LIMIT_PER_MINUTE", Default: "30", Doc: "runs of the log analyzer's and scanner's pages per user per rolling minute",
			Parse: integer(1, 10_000_000, &c.ToolsRateLimitPerMinute)},
		{Name: "ANALYSIS_CONCURRENCY", Shown: "number of CPUs", Doc: "analyses (logs and scan, page and API) running at once per instance", Parse: integer(1, 1024, &c.AnalysisConcurrency)},
		{Name: "ANALYSIS_MEMORY_MB", Default: "512", Doc: "memory budget of the running analyses, each estimated at 20 × its body + 4 MiB, and a scan 3 KiB more per finding once its findings are known (one larger than the budget runs alone); `parapet serve` also asks Go's collector to keep the process within it + 64 MiB unless GOMEMLIMIT is set",
			Parse: mebibytes(&c.AnalysisMemoryBudget)},
		{Name: "ANALYSIS_WAIT", Default: "3s", Doc: "how long an analysis waits for room before 503 `busy`", Parse: duration(&c.AnalysisWait)},
		{Name: "GATEWAY_MEDIA_MEMORY_MB", Default: "256", Doc: "memory budget of the gateway calls whose body is above 1 MiB (images, documents; up to 32 MiB) and of the AI help's requests above it (a log or a document), each estimated at 3 × its body and held while the call runs; a call that does not fit waits `ANALYSIS_WAIT`, then 503 `busy` (one larger than the budget runs alone). `parapet serve` adds it to Go's memory limit",
			Parse: mebibytes(&c.GatewayMediaMemory)},
		{Name: "METRICS_TOKEN", Shown: "unset: `/metrics` is off", Secret: true, Doc: "the bearer token Prometheus sends to scrape `/metrics` (see Operations)", Parse: text(&c.MetricsToken)},
	}
}

// The parsers. Each gets a non-empty value and sets its field; its error
// is one line, prefixed with the variable's name by LoadConfig.

// mebibytes reads a memory budget in MiB (64 to 1 TiB) as bytes.
func mebibytes(field *int64) func(string) error {
	return func(v string) error {
		var mib int
		if err := integer(64, 1<<20, &mib)(v); err != nil {
			return err
		}
		*field = int64(mib) << 20
		return nil
	}
}

func text(field *string) func(string) error {
	return func(v string) error { *field = v; return nil }
}

func oneOf(allowed []string, field *string) func(string) error {
	return func(v string) error {
		for _, a := range allowed {
			if v == a {
				*field = v
				return nil
			}
		}
		return fmt.Errorf("must be %s, not %q", quotedList(allowed), v)
	}
}

func quotedList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, " or ")
}

func boolean(field *bool) func(string) error {
	return func(v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("must be true or false, not %q", v)
		}
		*field = b
		return nil
	}
}

func duration(field *time.Duration) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration such as 30s, not %q", v)
		}
		*field = d
		return nil
	}
}

func integer(min, max int, field *int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < min || n > max {
			return fmt.Errorf("must be an integer between %d and %d, not %q", min, max, v)
		}
		*field = n
		return nil
	}
}

func (c *Config) port(v string) error {
	if p, err := strconv.Atoi(v); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("must be a port number (1-65535), not %q", v)
	}
	c.Port = v
	return nil
}

func (c *Config) host(v string) error {
	if v != "" && net.ParseIP(v) == nil && !hostName.MatchString(v) {
		return fmt.Errorf("must be an IP address or a host name, not %q", v)
	}
	c.Host = v
	return nil
}

var hostName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$`)

func (c *Config) env(v string) error {
	return oneOf([]string{"development", "production"}, &c.Env)(strings.ToLower(v))
}

func (c *Config) sessionSecret(v string) error {
	if len(v) < 32 {
		return errors.New("must be at least 32 characters long")
	}
	c.SessionSecret = []byte(v)
	return nil
}

// publicURL keeps an origin: scheme and host (links are made on it, and
// the CSRF check compares a browser's Origin with it), refusing a path,
// query or credentials, which no link or check could honour.
func (c *Config) publicURL(v string) error {
	u, err := url.Parse(strings.TrimRight(v, "/"))
	if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || u.Path != "" || u.RawQuery != "" ||
		u.Fragment != "" || u.User != nil || u.Opaque != "" {
		return fmt.Errorf("must be an http(s) origin such as https://parapet.example.com, without a path, not %q", v)
	}
	c.PublicURL = u.Scheme + "://" + strings.ToLower(u.Host)
	return nil
}

func (c *Config) upstreamURL(v string) error {
	c.Gateway.UpstreamURL = strings.TrimRight(v, "/")
	return nil
}

func (c *Config) monthlyTokens(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("must be a non-negative integer, not %q", v)
	}
	c.Gateway.MonthlyTokens = n
	return nil
}

// demoWordDelay may be zero (tests run the demo upstream at full speed).
func (c *Config) demoWordDelay(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("must be a duration such as 15ms, not %q", v)
	}
	c.Gateway.DemoWordDelay = d
	return nil
}

// ConfigTable is the configuration table of views/docs/configuration.md, made from the settings.
func ConfigTable() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | Meaning |\n|---|---|---|\n")
	for _, s := range settings(&Config{}) {
		def := s.Shown
		switch {
		case def != "":
		case s.Default != "":
			def = "`" + s.Default + "`"
		default:
			def = "—"
		}
		doc := s.Doc
		switch {
		case s.Required != "" && s.Unless != "":
			doc += ". Required in production without `" + s.Unless + "`."
		case s.Required != "":
			doc += ". Required in production."
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, def, doc)
	}
	return b.String()
}
