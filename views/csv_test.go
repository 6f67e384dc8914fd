package views

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

// A row reads back as written with encoding/csv, and a cell holding a
// semicolon is quoted: a spreadsheet whose list separator is ; would
// otherwise split ;=1+1 into a cell that starts a formula.
func TestCSVWriter(t *testing.T) {
	rows := [][]string{
		{"id", "model", "note"},
		{"1", CSVCell(";=1+1"), `say "hi", then; go`},
		{"2", CSVCell("=HYPERLINK(\"x\")"), " leading blank"},
		{"3", "", "line\nbreak"},
	}
	var b bytes.Buffer
	w := NewCSVWriter(&b)
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if w.Error() != nil {
		t.Fatal(w.Error())
	}
	for _, line := range strings.Split(b.String(), "\n") {
		for _, cell := range strings.Split(line, ",") {
			if strings.Contains(cell, ";") && !strings.HasPrefix(cell, `"`) && !strings.HasSuffix(cell, `"`) {
				t.Errorf("unquoted cell with a semicolon: %q in %q", cell, line)
			}
		}
	}
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, rows, slices.Equal) {
		t.Errorf("read back %q, want %q", got, rows)
	}
}
