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
