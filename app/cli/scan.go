package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"parapet/app/scan"
)

// scanCommands: the scanner for CI, with no server or database.
var scanCommands = []command{
	{"scan", "PATH... [--format text|json|sarif] [--fail-on SEVERITY] [--baseline FILE] [--suppressions FILE]",
		"scan Terraform source (a directory or .tf files), a plan, state or template; exit 1 on a finding at or above --fail-on, 2 on bad input", runScan},
}

// exitError ends the command with its code and message (Run prints it).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// badInput is exit code 2: the input could not be scanned.
func badInput(format string, a ...any) error { return exitError{2, fmt.Sprintf(format, a...)} }

// scanExtraFiles are the other files a directory scan sends, for file()
// (policies, templates): configuration is always sent.
var scanExtraFiles = []string{".json", ".tpl", ".tftpl", ".yaml", ".yml", ".txt", ".sh"}

// runScan scans PATH...: directories and .tf, .tf.json and .tfvars files
// are one Terraform source set, rooted at the one directory given or at
// the directory of the files given; any other file (a plan, a state, a
// template) is scanned alone. Locations are written relative to the
// current directory when the root is, as GitHub code scanning wants them.
func runScan(_ context.Context, r *runner, c *cmdline) error {
	format := c.String("format", "text", "text, json (the API's data object) or sarif")
	failOn := c.String("fail-on", "low", "the lowest severity that fails: critical, high, medium, low, or none")
	baselineFile := c.String("baseline", "", "an earlier SARIF log or JSON result: only new findings fail")
	suppressionsFile := c.String("suppressions", "", "a JSON array of suppressions (rule, resource, reason, expires)")
	var paths []string
	args := c.args
	for {
		if err := c.Parse(args); err != nil {
			return c.parseError(err)
		}
		if c.NArg() == 0 {
			break
		}
		paths, args = append(paths, c.Arg(0)), c.Args()[1:]
	}
	switch {
	case len(paths) == 0:
		return usageError{"missing PATH: a directory of Terraform source, .tf files, or a plan, state or template"}
	case *format != "text" && *format != "json" && *format != "sarif":
		return usageError{fmt.Sprintf("unknown --format %q: use text, json or sarif", *format)}
	}
	threshold, ok := severityRank(*failOn)
	if !ok {
		return usageError{fmt.Sprintf("unknown --fail-on %q: use critical, high, medium, low or none", *failOn)}
	}
	opts := scan.Options{NoSizeLimit: true}
	var err error
	if opts.Baseline, err = readOptional(*baselineFile); err != nil {
		return err
	}
	if opts.Suppressions, err = readOptional(*suppressionsFile); err != nil {
		return err
	}
	res, artifact, err := scanPaths(paths, opts)
	if err != nil {
		return err
	}
	if err := writeScan(r, res, *format, artifact); err != nil {
		return err
	}
	if n := failing(res, threshold, len(opts.Baseline) > 0); n > 0 {
		return exitError{1, fmt.Sprintf("%d finding(s) at or above %s", n, *failOn)}
	}
	return nil
}

func readOptional(name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return b, nil
}

// severityRank orders severities from critical (0) to low (3); none is
// past them all.
func severityRank(s string) (int, bool) {
	for i, name := range []string{"critical", "high", "medium", "low", "none"} {
		if s == name {
			return i, true
		}
	}
	return 0, false
}

// failing counts the unsuppressed findings at or above threshold; with a
// baseline, only the new ones.
func failing(res *scan.Result, threshold int, baseline bool) int {
	n := 0
	for _, f := range res.Findings {
		rank, _ := severityRank(string(f.Severity))
		if threshold < 4 && rank <= threshold && (!baseline || f.BaselineState != "unchanged") {
			n++
		}
	}
	return n
}

// scanPaths scans the paths, returning the result and the artifact name
// of a single document.
func scanPaths(paths []string, opts scan.Options) (*scan.Result, string, error) {
	if len(paths) == 1 && !isSourceFile(paths[0]) {
		if st, err := os.Stat(paths[0]); err == nil && !st.IsDir() {
			data, err := os.ReadFile(paths[0])
			if err != nil {
				return nil, "", badInput("%v", err)
			}
			res, err := scan.ScanWith(data, opts)
			if err != nil {
				return nil, "", badInput("%s: %v", paths[0], err)
			}
			return res, filepath.ToSlash(paths[0]), nil
		}
	}
	root, files, err := sourceFiles(paths)
	if err != nil {
		return nil, "", err
	}
	res, err := scan.ScanFiles(files, opts)
	if err != nil {
		var syn *scan.SyntaxError
		if errors.As(err, &syn) && syn.File != "" {
			syn.File = filepath.Join(root, syn.File)
		}
		return nil, "", badInput("%v", err)
	}
	for i := range res.Findings {
		if l := res.Findings[i].Location; l != nil {
			l.File = joinRoot(root, l.File)
		}
	}
	for i := range res.Suppressed {
		if l := res.Suppressed[i].Location; l != nil {
			l.File = joinRoot(root, l.File)
		}
	}
	return res, "", nil
}

// joinRoot writes a file of the source set as a path from the current
// directory, when the root is relative.
func joinRoot(root, file string) string {
	if root == "" || filepath.IsAbs(root) {
		return file
	}
	return path.Join(filepath.ToSlash(root), file)
}

func isSourceFile(p string) bool {
	b := filepath.Base(p)
	return strings.HasSuffix(b, ".tf") || strings.HasSuffix(b, ".tf.json") || strings.HasSuffix(b, ".tfvars") || strings.HasSuffix(b, ".tfvars.json")
}

// sourceFiles reads the Terraform files of paths, relative to their root:
// the directory given, or the directory of the files given.
func sourceFiles(paths []string) (root string, files []scan.File, err error) {
	add := func(full, rel string) error {
		if len(files) == scan.MaxFiles {
			return badInput("more than %d files under %s; the limit is %d", scan.MaxFiles, root, scan.MaxFiles)
		}
		data, err := os.ReadFile(full)
		if err != nil {
			return badInput("%v", err)
		}
		files = append(files, scan.File{Path: filepath.ToSlash(rel), Data: data})
		return nil
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return "", nil, badInput("%v", err)
		}
		dir := p
		if !st.IsDir() {
			dir = filepath.Dir(p)
		}
		if root == "" {
			root = filepath.Clean(dir)
		} else if filepath.Clean(dir) != root {
			return "", nil, badInput("%s is not in %s: give one directory, or files of one directory", p, root)
		}
		if !st.IsDir() {
			if !isSourceFile(p) {
				return "", nil, badInput("%s is not Terraform source: scan a plan, state or template alone", p)
			}
			if err := add(p, filepath.Base(p)); err != nil {
				return "", nil, err
			}
			continue
		}
		err = filepath.WalkDir(p, func(full string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if full != p && strings.HasPrefix(d.Name(), ".") { // .git, .terraform
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			extra := false
			for _, ext := range scanExtraFiles {
				extra = extra || strings.HasSuffix(d.Name(), ext)
			}
			if !isSourceFile(full) && !extra {
				return nil
			}
			rel, _ := filepath.Rel(p, full)
			return add(full, rel)
		})
		if err != nil {
			var ee exitError
			if errors.As(err, &ee) {
				return "", nil, err
			}
			return "", nil, badInput("%v", err)
		}
	}
	if root == "." {
		root = ""
	}
	return root, files, nil
}

// writeScan prints the result in format.
func writeScan(r *runner, res *scan.Result, format, artifact string) error {
	switch format {
	case "json":
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.stdout, "%s\n", b)
		return err
	case "sarif":
		b, err := scan.SARIF(res, scan.SARIFOptions{ArtifactURI: artifact})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.stdout, "%s\n", b)
		return err
	}
	for _, f := range res.Findings {
		where := f.Resource.Name
		if l := f.Location; l != nil {
			where = fmt.Sprintf("%s:%d:%d", l.File, l.StartLine, l.StartColumn)
		} else if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", artifact, f.Line)
		}
		fmt.Fprintf(r.stdout, "%s: %s %s: %s: %s\n", where, strings.ToUpper(string(f.Severity)), f.Rule, f.Resource.Name, f.Message)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(r.stdout, "warning: %s: %s\n", w.Message, strings.Join(w.Resources, ", "))
	}
	for _, n := range res.NotChecked {
		fmt.Fprintf(r.stdout, "not checked: %d %s: %s\n", n.Count, n.Type, n.Reason)
	}
	s := res.Summary
	_, err := fmt.Fprintf(r.stdout, "%d resources, %d findings (%d critical, %d high, %d medium, %d low), %d suppressed\n",
		s.Resources, s.Findings, s.BySeverity.Critical, s.BySeverity.High, s.BySeverity.Medium, s.BySeverity.Low, s.Suppressed)
	return err
}
