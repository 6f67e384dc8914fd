package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"parapet/models"
)

// list is a command that lists rows: as a table for people, or with
// --json as an array for scripts.
type list[T any] struct {
	org    bool // the rows are an organization's, which --org names
	load   func(ctx context.Context, w *work) ([]T, error)
	header []string                            // the table's first line; none when nil
	cells  func(row T, now time.Time) []string // a row of the table
	json   func(row T, now time.Time) any      // a row as --json prints it; no --json when nil
}

// run is the command: it parses the command line, loads the rows and
// prints them.
func (l list[T]) run(ctx context.Context, r *runner, c *cmdline) error {
	if l.org {
		c.needOrg()
	}
	asJSON := false
	if l.json != nil {
		c.BoolVar(&asJSON, "json", false, "print a JSON array")
	}
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		rows, err := l.load(ctx, w)
		if err != nil {
			return err
		}
		now := models.Now()
		if asJSON {
			out := make([]any, 0, len(rows)) // [] rather than null when there are none
			for _, row := range rows {
				out = append(out, l.json(row, now))
			}
			return printJSON(r.stdout, out)
		}
		tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
		if l.header != nil {
			fmt.Fprintln(tw, strings.Join(l.header, "\t"))
		}
		for _, row := range rows {
			fmt.Fprintln(tw, strings.Join(l.cells(row, now), "\t"))
		}
		return tw.Flush()
	})
}
