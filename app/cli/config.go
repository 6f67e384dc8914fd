package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"parapet/app"
)

// runConfig prints the effective configuration: every setting, its value
// (secrets masked, URL passwords hidden) and where it came from. With
// --markdown it prints the docs' configuration table instead.
func runConfig(_ context.Context, r *runner, c *cmdline) error {
	switch {
	case len(c.args) == 1 && c.args[0] == "--markdown":
		fmt.Fprint(r.stdout, app.ConfigTable())
		return nil
	case len(c.args) > 0:
		return usageError{"unknown argument " + fmt.Sprintf("%q", c.args[0])}
	}
	cfg, err := r.config()
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(r.stdout, 0, 4, 2, ' ', 0)
	for _, e := range cfg.Effective() {
		v := e.Shown()
		if v == "" {
			v = "(unset)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", e.Name, v, e.Source)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if rt := cfg.Gateway.Routing; rt != nil {
		// Checked by r.config(): print it as the gateway reads it.
		fmt.Fprintf(r.stdout, "\nGATEWAY_CONFIG (checked; keys masked):\n%s", rt.Masked())
	}
	return nil
}
