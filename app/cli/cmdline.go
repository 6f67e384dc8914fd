package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// cmdline is a command's command line: the words after the command's
// name and, for an admin command, the flags it declares, the ones it
// cannot do without, and whether it names an organization. The flag
// package prints nothing: every mistake becomes one usageError, which Run
// prints with the usage line.
type cmdline struct {
	*flag.FlagSet
	args     []string
	required []string
	orgRef   *string // --org, for a command that works on an organization
}

func newCmdline(args []string) *cmdline {
	fs := flag.NewFlagSet("parapet", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &cmdline{FlagSet: fs, args: args}
}

// need declares a string flag the command cannot do without.
func (c *cmdline) need(name, usage string) *string {
	c.require(name)
	return c.String(name, "", usage)
}

// require marks declared string flags as required, in the order their
// absence is reported.
func (c *cmdline) require(names ...string) { c.required = append(c.required, names...) }

// needOrg declares --org: the command works on the organization it names,
// which withDB finds before the command's work.
func (c *cmdline) needOrg() { c.orgRef = c.need("org", "the organization's id or slug") }

// parse parses the command line, whose flags may come before, between or
// after its positional arguments (the flag package alone stops at the
// first positional), checks that there is exactly one positional for each
// name in want, then that no required flag is unset or blank.
func (c *cmdline) parse(want ...string) ([]string, error) {
	var pos []string
	args := c.args
	for {
		if err := c.Parse(args); err != nil {
			return nil, c.parseError(err)
		}
		if c.NArg() == 0 {
			break
		}
		pos, args = append(pos, c.Arg(0)), c.Args()[1:]
	}
	switch {
	case len(pos) < len(want):
		return nil, usageError{"missing " + want[len(pos)]}
	case len(pos) > len(want):
		return nil, usageError{fmt.Sprintf("unexpected argument %q", pos[len(want)])}
	}
	for _, n := range c.required {
		if strings.TrimSpace(c.Lookup(n).Value.String()) == "" {
			return nil, usageError{"missing --" + n}
		}
	}
	return pos, nil
}

// parseError is the usage error of a flag the flag package refused; -h
// lists the flags.
func (c *cmdline) parseError(err error) error {
	if !errors.Is(err, flag.ErrHelp) {
		return usageError{err.Error()}
	}
	var b strings.Builder
	c.SetOutput(&b)
	c.PrintDefaults()
	if b.Len() == 0 {
		return usageError{"this command has no flags"}
	}
	return usageError{"the flags are:\n" + strings.TrimRight(b.String(), "\n")}
}

// given is the set of flags the command line set, even to their default
// value: what an update changes.
func (c *cmdline) given() map[string]bool {
	given := map[string]bool{}
	c.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// stringList is a flag that may be given more than once.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
