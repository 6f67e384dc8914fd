package logs

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"plain line\n":                               "plain line\n",
		"\x1b[31mERROR\x1b[0m boom\n":                "ERROR boom\n",
		"\x1b[1;38;5;196mbold\x1b[m\n":               "bold\n",
		"\x1b]8;;https://x.io\x07link\x1b]8;;\x07\n": "link\n",
		"\x1b]0;title\x1b\\text\n":                   "text\n",
		"cut \x1b[3":                                 "cut ",
		"cut \x1b[31\nnext\n":                        "cut \nnext\n",
		"\x1b(Bcharset\n":                            "charset\n",
		"\xef\xbb\xbffirst\n\xef\xbb\xbfsecond\n":    "first\nsecond\n",
		"mid \xef\xbb\xbf stays\n":                   "mid \xef\xbb\xbf stays\n",
	} {
		if got := string(plainText([]byte(in))); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A coloured line is read as its text: its header, level and timestamp
// are found, and the result shows it without the codes; a line that opens
// with a byte-order mark likewise. Line numbers do not move.
func TestColouredAndBOMLinesAreRead(t *testing.T) {
	in := "\xef\xbb\xbf" + strings.Repeat("2024-03-05T10:00:00Z INFO req ok\n", 30) +
		"\x1b[90m2024-03-05T10:00:31Z\x1b[0m \x1b[31mERROR\x1b[0m something broke\n" + // 31
		"\xef\xbb\xbf2024-03-05T10:00:32Z ERROR line after a BOM\n" + // 32
		"2024-03-05T10:00:33Z INFO req ok\n"
	res := analyze(t, in, Options{})
	if res.Summary.Entries != 33 {
		t.Errorf("summary %+v, want 33 entries", res.Summary)
	}
	for line, text := range map[int]string{31: "2024-03-05T10:00:31Z ERROR something broke", 32: "2024-03-05T10:00:32Z ERROR line after a BOM"} {
		m, ok := matchAt(res, line)
		if !ok || m.Category != CategoryError || m.Text != text || m.Level == "" {
			t.Errorf("line %d: %+v, want an error match of %q with its level", line, m, text)
		}
	}
	if res.Timeline == nil || res.Timeline.Start == "" {
		t.Errorf("no timeline from the coloured and BOM lines: %+v", res.Timeline)
	}
}

// A log saved as UTF-16, with a byte-order mark (as Windows PowerShell
// writes files) or without one, is read as its text.
func TestUTF16LogIsRead(t *testing.T) {
	text := strings.Repeat("2024-03-05 10:00:00 INFO ok, café\r\n", 20) + "2024-03-05 10:00:01 ERROR disk full\r\n"
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		for _, withBOM := range []bool{true, false} {
			var in []byte
			if withBOM {
				in = order.AppendUint16(in, 0xFEFF)
			}
			for _, u := range utf16.Encode([]rune(text)) {
				in = order.AppendUint16(in, u)
			}
			res := analyze(t, string(in), Options{})
			if m, ok := matchAt(res, 21); res.Summary.Lines != 21 || !ok || m.Text != "2024-03-05 10:00:01 ERROR disk full" {
				t.Errorf("%v, BOM %v: %+v, match %+v", order, withBOM, res.Summary, m)
			}
		}
	}
}

// Input that only looks a little like UTF-16 is read as it is: NULs a
// writer left here and there, a binary file, text of an odd length.
func TestBOMlessUTF16NeedsItsPattern(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("2024-03-05 10:00:00 ERROR x\x00y\x00z\n", 20),
		strings.Repeat("\x00", 64),
		strings.Repeat("\x00\x01\x02\x03", 64),
		"E\x00R\x00R\x00O\x00R\x00\n",
		"ab",
	} {
		if big, ok := bomlessUTF16([]byte(in)); ok {
			t.Errorf("bomlessUTF16(%q) = UTF-16, big endian %v", in[:min(len(in), 24)], big)
		}
	}
}

// Lines ended by '\r' alone are lines: without that the whole input
// would be one line, analysed on its first 16 KiB. Where lines end with
// '\n', a '\r' inside one (a progress bar's updates) ends no line.
func TestCROnlyLineEnds(t *testing.T) {
	lines := strings.Repeat("2024-03-05 10:00:00 INFO request served in 12 ms\r", 1000) + "2024-03-05 10:00:01 ERROR disk full"
	for _, end := range []string{"", "\r", "\r\n"} {
		res := analyze(t, lines+end, Options{})
		if m, ok := matchAt(res, 1001); res.Summary.Lines != 1001 || !ok || m.Text != "2024-03-05 10:00:01 ERROR disk full" {
			t.Errorf("end %q: %+v, match %+v", end, res.Summary, m)
		}
	}
	res := analyze(t, "Pulling 10%\rPulling 50%\rPulling done\n2024-03-05 10:00:01 ERROR disk full\n", Options{})
	if m, ok := matchAt(res, 2); res.Summary.Lines != 2 || !ok {
		t.Errorf("a progress bar's '\\r': %+v, match %+v", res.Summary, m)
	}
}
