package scan

import _ "embed"

//go:embed sample.json
var sample string

// Sample returns a realistic resource list for the page's "use sample data"
// button: every rule fires at least once, some resources are clean, one
// finding is suppressed with a reason and one resource type is skipped.
func Sample() string { return sample }
