package logs

import (
	"reflect"
	"testing"
)

// Progress bars drawn line by line (docker pull, tqdm) are one template
// whatever their length, the bar a value; a table's rule and an ellipsis
// in brackets are no bar.
func TestProgressBars(t *testing.T) {
	in := `Downloading layer 1
[=====>                                             ]  5.2MB/50MB
[=====================>                             ]  21.4MB/50MB
[==================================================>]  50MB/50MB
Pull complete
train:  45%|████▌     | 45/100 [00:10<00:12,  4.50it/s]
train:  30%|███       | 30/100 [00:07<00:15,  4.50it/s]
train: 100%|██████████| 100/100 [00:22<00:00,  4.51it/s]
|----------| totals |----------|
[...] skipped lines
`
	res := analyze(t, in, Options{})
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	want := map[string]int{
		"Downloading layer <*>":            1,
		"[<*>] <*>/50MB":                   3,
		"Pull complete":                    1,
		"train: <*>| <*>/100 [<*> <*>/s]":  3,
		"|----------| totals |----------|": 1,
		"[...] skipped lines":              1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("templates %v, want %v", got, want)
	}
}

// GoogleTest's banner "[==========]" is a word of its lines, not a
// progress bar: its two lines keep it, and their counts are the values.
func TestGoogleTestBanner(t *testing.T) {
	in := `[==========] Running 12 tests from 3 test suites.
[----------] Global test environment set-up.
[ RUN      ] ParserTest.Nested
parser_test.cc:42: Failure
[  FAILED  ] ParserTest.Nested (2 ms)
[----------] Global test environment tear-down
[==========] 12 tests from 3 test suites ran. (1027 ms total)
[  PASSED  ] 10 tests.
[==========] Running 4 tests from 1 test suite.
[==========] 4 tests from 1 test suite ran. (3 ms total)
`
	res := analyze(t, in, Options{})
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	for tmpl, n := range map[string]int{
		"[==========] Running <*> tests from <*> test suites.":            1,
		"[==========] <*> tests from <*> test suites ran. (<*> ms total)": 1,
		"[==========] Running <*> tests from <*> test suite.":             1,
		"[----------] Global test environment <*>":                        2,
	} {
		if got[tmpl] != n {
			t.Errorf("template %q: %d lines, want %d (templates %v)", tmpl, got[tmpl], n, got)
		}
	}
}
