// Package logs is the log analyzer engine behind the log analyzer page and
// its JSON API. It is pure computation: no HTTP, no database, no I/O, and
// nothing of the input is logged.
//
// Analyze reads a log sample, one entry per line, and reports
//   - matches: the lines that carry a fatal, error or reliability keyword
//     (Keywords lists them; a line reports its most severe one);
//   - templates: the shapes of the lines, mined from the sample itself;
//     every analysed line belongs to exactly one template;
//   - outliers: the lines whose template is rare.
//
// The Result marshals with encoding/json to
//
//	{"summary":   {"lines", "matched", "outliers", "templates", "by_category": {"fatal", "error", "reliability"},
//	               "blank_lines", "cut_lines", "rare_cutoff", "duration_ms"},
//	 "matches":   [{"line", "text", "category", "keyword", "start", "end", "template_id", "cut"}],
//	 "outliers":  [{"line", "text", "template", "template_id", "count", "cut"}],
//	 "templates": [{"id", "template", "count"}],
//	 "assignments": [template id of each analysed line]}
//
// where "cut" appears only on lines longer than MaxLineBytes and
// "assignments" only with Options.IncludeAssignments. Line numbers are the
// input's own, 1-based, blank lines counted; start and end are byte offsets
// of the keyword in text. Template ids are ranks: 1 is the most frequent.
//
// How a line is read (each step in its own file):
//   - header.go cuts the header (timestamp, level, host, process, thread,
//     logger) found generically, without per-format rules;
//   - msgcache.go remembers recent messages: a message seen shortly before
//     (as in about half the lines of real logs) skips the next three steps;
//   - tokenize.go splits the message into tokens and masks values by token
//     class: numbers, hex, IPs, UUIDs, times, durations, sizes, paths, URLs,
//     e-mail and host names, quoted strings, key=value values, JSON values;
//   - shapes.go reduces the line to its shape, the masked token sequence,
//     with one map look-up;
//   - match.go finds the keyword, scanning each part of the line only as
//     often as it can change.
//
// drain.go then mines templates from the distinct shapes (a Drain-style
// clustering with splits and merges driven by the values seen), and
// templates.go renders them and builds the result.
//
// Accuracy is measured by TestGroupingAccuracy on the labelled Loghub
// samples; speed by BenchmarkAnalyze.
package logs
