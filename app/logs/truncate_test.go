package logs

import (
	"context"
	"strings"
	"testing"
)

// uniqueLines is n lines of width bytes or more, each its own template:
// their words differ from the first on, and have no digits to mask.
func uniqueLines(n, width int) string {
	var b strings.Builder
	for i := range n {
		w := word(i)
		line := w + " " + strings.Repeat(w+"x ", max(1, width/(len(w)+2)))
		b.WriteString(strings.TrimSpace(line) + "\n")
	}
	return b.String()
}

// word is a word of letters for i: a, b, …, z, ba, bb, …
func word(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		if i /= 26; i == 0 {
			return s
		}
	}
}

func TestResultTruncated(t *testing.T) {
	tests := []struct {
		name                 string
		input                string
		templates, outliers  int // listed
		leftT, leftO         int // left out; both 0 for no Truncated
		summaryT, summaryOut int
	}{
		{"within the caps", uniqueLines(50, 10), 50, 50, 0, 0, 50, 50},
		{"over the counts", uniqueLines(MaxResultTemplates+300, 10), MaxResultTemplates, MaxResultOutliers, 300, 300, MaxResultTemplates + 300, MaxResultTemplates + 300},
		// 16 KiB lines: 64 templates fill 1 MiB, outliers (text and
		// template) half as many.
		{"over the bytes", uniqueLines(100, 16000), 65, 32, 35, 68, 100, 100},
	}
	for _, tt := range tests {
		res, err := Analyze(context.Background(), []byte(tt.input), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(res.Templates) != tt.templates || len(res.Outliers) != tt.outliers {
			t.Errorf("%s: %d templates and %d outliers listed, want %d and %d", tt.name, len(res.Templates), len(res.Outliers), tt.templates, tt.outliers)
		}
		if res.Summary.Templates != tt.summaryT || res.Summary.Outliers != tt.summaryOut {
			t.Errorf("%s: summary counts %d templates, %d outliers; want %d and %d", tt.name, res.Summary.Templates, res.Summary.Outliers, tt.summaryT, tt.summaryOut)
		}
		switch tr := res.Truncated; {
		case tt.leftT == 0 && tt.leftO == 0 && tr != nil:
			t.Errorf("%s: truncated %+v", tt.name, *tr)
		case (tt.leftT > 0 || tt.leftO > 0) && (tr == nil || tr.Templates != tt.leftT || tr.Outliers != tt.leftO):
			t.Errorf("%s: truncated %+v, want %d templates and %d outliers left out", tt.name, tr, tt.leftT, tt.leftO)
		}
		if n := len(res.Templates); n > 0 && res.Templates[n-1].ID != n {
			t.Errorf("%s: the last template listed has id %d, want %d", tt.name, res.Templates[n-1].ID, n)
		}
	}
}

func TestCompareTruncated(t *testing.T) {
	many := uniqueLines(MaxCompareListed+7, 10)
	long := uniqueLines(100, 16000) // a template and its example: 32 KB, 32 of them in 1 MiB
	tests := []struct {
		name              string
		baseline, current string
		newListed, newOut int
		goneListed, gone  int
	}{
		{"within the caps", "INFO hello\n", uniqueLines(20, 10), 20, 0, 1, 0},
		{"new over the count", "INFO hello\n", many, MaxCompareListed, 7, 1, 0},
		{"gone over the count", many, "INFO hello\n", 1, 0, MaxCompareListed, 7},
		{"new over the bytes", "INFO hello\n", long, 32, 68, 1, 0},
	}
	for _, tt := range tests {
		c, err := Compare(context.Background(), []byte(tt.baseline), []byte(tt.current), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(c.New) != tt.newListed || len(c.Gone) != tt.goneListed {
			t.Errorf("%s: %d new and %d gone listed, want %d and %d", tt.name, len(c.New), len(c.Gone), tt.newListed, tt.goneListed)
		}
		if c.Summary.New != tt.newListed+tt.newOut || c.Summary.Gone != tt.goneListed+tt.gone {
			t.Errorf("%s: summary counts %d new and %d gone, want %d and %d", tt.name, c.Summary.New, c.Summary.Gone, tt.newListed+tt.newOut, tt.goneListed+tt.gone)
		}
		switch tr := c.Truncated; {
		case tt.newOut == 0 && tt.gone == 0 && tr != nil:
			t.Errorf("%s: truncated %+v", tt.name, *tr)
		case (tt.newOut > 0 || tt.gone > 0) && (tr == nil || tr.New != tt.newOut || tr.Gone != tt.gone || tr.Changed != 0):
			t.Errorf("%s: truncated %+v, want %d new and %d gone left out", tt.name, tr, tt.newOut, tt.gone)
		}
	}
}
