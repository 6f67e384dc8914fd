// Package logs is the log analyzer engine behind the log analyzer page and
// its JSON API. It is pure computation: no HTTP, no database, no I/O, and
// nothing of the input is logged.
//
// Analyze reads a log sample, one entry per line (lines that continue an
// entry, such as stack trace frames, join it: see entries.go), and reports
//   - matches: the entries that carry a fatal, error or reliability keyword
//     (Keywords lists them; an entry reports its most severe one), or whose
//     level says so (a recognised level decides: see level.go), or, for an
//     HTTP access line, whose status is 5xx or 429 (the status decides: see
//     access.go);
//   - templates: the shapes of the messages, mined from the sample itself;
//     every analysed entry belongs to exactly one template;
//   - outliers: the entries whose template is rare.
//
// The Result marshals with encoding/json to
//
//	{"summary":   {"lines", "entries", "matched", "outliers", "templates", "by_category": {"fatal", "error", "reliability"},
//	               "blank_lines", "cut_lines", "rare_cutoff", "duration_ms"},
//	 "matches":   [{"line", "text", "category", "keyword", "start", "end", "template_id", "cut", "header", "level", "fields"}],
//	 "outliers":  [{"line", "text", "template", "template_id", "count", "cut", "header", "level", "fields"}],
//	 "templates": [{"id", "template", "count", "params": [{"position", "values": [{"value", "count"}]}],
//	                "matched", "category", "first", "last", "buckets", "examples": [{"line", "text", …}]}],
//	 "assignments": [template id of each analysed entry],
//	 "truncated": {"templates", "outliers", "matches"}}
//
// where "cut" appears only on lines longer than MaxLineBytes, "header",
// "level" and "fields" only when the line has them, "params" only with
// Options.IncludeParams, "matched" to "examples" only with
// Options.IncludePatterns (patterns.go), "assignments" only with
// Options.IncludeAssignments and "truncated" only when the templates,
// outliers or matches listed are fewer than counted (see
// MaxResultTemplates; "matches" in it only when some are left out). A
// log of more line shapes than its size affords has its further ones
// folded (see shapeBudget), so that an analysis stays within the memory
// the server reserves for it. Line numbers are the input's own, 1-based,
// blank lines counted; an entry's is its first line's. start and end are
// byte offsets of the keyword (or level word) in text. Template ids are
// ranks: 1 is the most frequent.
//
// How an entry is read (each step in its own file):
//   - plaintext.go, containers.go, overwritten.go and compose.go make the
//     input readable first: UTF-16 converted, container runtimes' records
//     unwrapped, terminal escape sequences and byte-order marks removed, a
//     line redrawn with '\r' read as shown last, Docker
//     Compose's prefixes taken off and each service's lines put together
//     (the result's line numbers are the input's all the same);
//   - entries.go joins continuation lines to the entry above, tracelines.go
//     recognising the stack traces of each language;
//   - header.go cuts the header (timestamp, level, host, process, thread,
//     logger) found generically, by token classes, with small readers for
//     the few formats whose level hides inside a token (syslog priorities,
//     Python's and Ruby's loggers; redis.go, cisco.go, django.go,
//     actions.go), and
//     columns.go the bare leading columns an input may have, or its tab
//     columns (tabcolumns.go) or comma-separated ones under a title row
//     (csvcolumns.go);
//   - msgcache.go remembers recent messages: a message seen shortly before
//     (as in about half the lines of real logs) skips the next steps;
//   - tokenize.go splits the message into tokens and masks values by token
//     class: numbers, hex, IPs, UUIDs, times, durations, sizes, paths, URLs,
//     e-mail and host names, quoted strings, key=value values; custom masks
//     (masks.go) first; a JSON or logfmt message by its message field
//     (structured.go), an event without one by its action, target and
//     outcome fields (events.go);
//   - shapes.go reduces the entry to its shape, the masked token sequence,
//     with one map look-up;
//   - match.go finds the keyword, scanning each part of the line only as
//     often as it can change, and only when no quiet level rules it out;
//     access.go reads the status of an HTTP access line instead (w3c.go
//     and squid.go for IIS's and Squid's).
//
// A large input is read in parts at once, one per processor, whose
// findings are joined with the one-pass result (parts.go).
//
// drain.go then mines templates from the distinct shapes (a Drain-style
// clustering with splits and merges driven by the values seen), and
// templates.go renders them and builds the result; params.go counts the
// values behind the placeholders.
//
// Accuracy (GA, PA, FGA, FTA) is measured by TestAccuracy on the labelled
// Loghub samples; speed by BenchmarkAnalyze.
package logs
