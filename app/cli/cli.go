// Package cli is the parapet command line: serve, migrate, help and the
// admin commands. Run returns the process exit code so tests can drive it.
package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/signal"
	"syscall"

	"parapet/app"
)

// Env is how the command reads its environment (os.Getenv, or a map in tests).
type Env func(string) string

type command struct {
	name, args, help string
	run              func(ctx context.Context, r *runner, args []string) error
}

// runner carries the streams and environment of one invocation.
type runner struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         Env
}

var commands []command

func init() {
	commands = []command{
		{"serve", "", "serve HTTP on :$PORT (the default command)", runServe},
		{"migrate", "", "apply pending database migrations and exit (the release step)", runMigrate},
		{"help", "", "list the commands", nil},
	}
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
	for _, c := range commands {
		if c.name != name {
			continue
		}
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
		if err := c.run(ctx, r, args); err != nil {
			if ue, ok := err.(usageError); ok {
				fmt.Fprintf(stderr, "parapet %s: %s\nusage: parapet %s %s\n", name, ue.msg, c.name, c.args)
				return 2
			}
			fmt.Fprintf(stderr, "parapet %s: %v\n", name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "parapet: unknown command %q\n\n", name)
	printHelp(stderr)
	return 2
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: parapet [command] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		line := c.name
		if c.args != "" {
			line += " " + c.args
		}
		fmt.Fprintf(w, "  %-58s %s\n", line, c.help)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Configuration comes from environment variables; see README.md.")
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

func runServe(ctx context.Context, r *runner, args []string) error {
	if len(args) > 0 {
		return usageError{"serve takes no arguments"}
	}
	cfg, err := r.config()
	if err != nil {
		return err
	}
	log := app.NewLogger(cfg)
	db, err := app.OpenDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := app.New(cfg, db, log)
	if err != nil {
		return err
	}
	defer a.Close()
	ln, err := net.Listen("tcp", ":"+cfg.Port)
	if err != nil {
		return err
	}
	log.Info("parapet listening", "addr", "http://localhost:"+cfg.Port, "env", cfg.Env)
	return a.Serve(ctx, ln)
}

func runMigrate(ctx context.Context, r *runner, args []string) error {
	if len(args) > 0 {
		return usageError{"migrate takes no arguments"}
	}
	cfg, err := r.config()
	if err != nil {
		return err
	}
	db, err := openDB(cfg)
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
