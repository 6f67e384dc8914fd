// Package cli is the parapet command line: serve, migrate, help and the
// admin commands. Run returns the process exit code so tests can drive it.
package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"parapet/app"
)

// Env is how the command reads its environment (os.Getenv, or a map in tests).
type Env func(string) string

type command struct {
	name, args, help string
	run              func(ctx context.Context, r *runner, c *cmdline) error
}

// runner carries the streams and environment of one invocation.
type runner struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         Env
}

// commands are every command, in the order `parapet help` lists them.
// Each file declares the commands of its noun, beside the code that runs
// them, so that a synopsis stays next to the flags it names.
var commands = slices.Concat(baseCommands, userCommands, orgCommands, keyCommands, memberCommands,
	inviteCommands, productCommands, entitlementCommands, budgetCommands, policyCommands, scanCommands)

// baseCommands are the service's own: help is answered by Run itself.
var baseCommands = []command{
	{"serve", "", "serve HTTP on :$PORT (the default command)", runServe},
	{"migrate", "", "apply pending database migrations and exit (the release step)", runMigrate},
	{"config", "[--markdown]", "print the effective settings, secrets masked (--markdown: the docs' table)", runConfig},
	{"help", "", "list the commands", nil},
}

// lookup finds a command by its full name ("migrate", "key create").
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// subcommands lists the commands of a noun ("key" → "key create", …).
func subcommands(noun string) []command {
	var out []command
	for _, c := range commands {
		if strings.HasPrefix(c.name, noun+" ") {
			out = append(out, c)
		}
	}
	return out
}

// synopsis is how a command is written: its name and its arguments.
func (c command) synopsis() string {
	if c.args == "" {
		return c.name
	}
	return c.name + " " + c.args
}

// usageError is a mistake in the command line: it prints a usage line and
// exits 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Run executes the command named by args and returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv Env) int {
	r := &runner{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	name := "serve"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		printHelp(stdout)
		return 0
	}
	// Admin commands are two words, a noun and a verb ("key create").
	if len(args) > 0 && lookup(name+" "+args[0]) != nil {
		name, args = name+" "+args[0], args[1:]
	}
	c := lookup(name)
	if c == nil {
		if subs := subcommands(name); len(subs) > 0 {
			what := "missing subcommand"
			if len(args) > 0 {
				what = fmt.Sprintf("unknown subcommand %q", args[0])
			}
			fmt.Fprintf(stderr, "parapet %s: %s\n", name, what)
			for i, s := range subs {
				prefix := "usage: "
				if i > 0 {
					prefix = "       "
				}
				fmt.Fprintln(stderr, prefix+"parapet "+s.synopsis())
			}
			return 2
		}
		fmt.Fprintf(stderr, "parapet: unknown command %q\n\n", name)
		printHelp(stderr)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := c.run(ctx, r, newCmdline(args)); err != nil {
		if ue, ok := err.(usageError); ok {
			fmt.Fprintf(stderr, "parapet %s: %s\nusage: parapet %s\n", name, ue.msg, c.synopsis())
			return 2
		}
		if ee, ok := err.(exitError); ok {
			fmt.Fprintf(stderr, "parapet %s: %s\n", name, ee.msg)
			return ee.code
		}
		fmt.Fprintf(stderr, "parapet %s: %v\n", name, err)
		return 1
	}
	return 0
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: parapet [command] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	const width = 58
	for _, c := range commands {
		line := c.synopsis()
		if len(line) > width {
			// A long command line gets a line of its own, its help below.
			fmt.Fprintf(w, "  %s\n  %-*s %s\n", line, width, "", c.help)
			continue
		}
		fmt.Fprintf(w, "  %-*s %s\n", width, line, c.help)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "ORG is an organization's id (org_…) or slug.")
	fmt.Fprintln(w, "Configuration comes from environment variables; see /docs/configuration.")
}

// config loads the configuration, printing its warnings to stderr.
func (r *runner) config() (app.Config, error) {
	cfg, warnings, err := app.LoadConfig(r.getenv)
	if err != nil {
		return cfg, err
	}
	for _, w := range warnings {
		fmt.Fprintln(r.stderr, "warning:", w)
	}
	return cfg, nil
}

func runServe(ctx context.Context, r *runner, c *cmdline) error {
	if len(c.args) > 0 {
		return usageError{"serve takes no arguments"}
	}
	cfg, err := r.config()
	if err != nil {
		return err
	}
	// The collector keeps the process near the analyses' and the gateway's
	// large bodies' budgets instead of letting garbage grow the heap to
	// twice what is live (a soft limit: past it the collector runs more
	// often; GOMEMLIMIT, when set, is the operator's and wins). The
	// server's share beside the budgets is 64 MiB
	// of resident memory; the limit leaves half of it to what the runtime
	// does not count, the program's own pages (on a loaded machine a limit
	// of the whole 64 MiB let the process touch exactly budget + 64 MiB).
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cfg.AnalysisMemoryBudget + cfg.GatewayMediaMemory + 32<<20)
	}
	out := app.NewLogOutput(cfg)
	log := out.Logger()
	db, err := app.OpenDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := app.New(cfg, db, out)
	if err != nil {
		return err
	}
	defer a.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, cfg.Port))
	if err != nil {
		return err
	}
	// A plain line on stdout, whatever the log's format: the first
	// `go run .` compiles for a minute, and this says it is ready.
	url := listenURL(cfg.Host, cfg.Port)
	fmt.Fprintf(r.stdout, "Parapet is listening on %s\n", url)
	log.Info("parapet listening", "addr", url, "env", cfg.Env)
	return a.Serve(ctx, ln)
}

// listenURL is the address to open in a browser: every interface is
// reached as localhost.
func listenURL(host, port string) string {
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func runMigrate(ctx context.Context, r *runner, c *cmdline) error {
	if len(c.args) > 0 {
		return usageError{"migrate takes no arguments"}
	}
	db, _, err := r.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.stdout, "applied %d migration(s); the schema is up to date\n", n)
	return nil
}
