package views

import (
	"bufio"
	"io"
	"strings"
)

// CSVCell keeps a text cell from being read as a formula by a spreadsheet:
// one that starts with =, +, -, @, a tab or a carriage return gets a
// leading apostrophe (OWASP's advice for CSV injection).
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVWriter writes rows as encoding/csv's Writer does (RFC 4180, comma
// separated, CRLF-free \n lines), and also quotes a field that holds a
// semicolon: the list separator of spreadsheets in many locales, which
// would split an unquoted ;=1+1 into a cell that starts a formula.
type CSVWriter struct {
	w   *bufio.Writer
	err error
}

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: bufio.NewWriter(w)} }

// Write writes one row; the first error is kept (Error).
func (c *CSVWriter) Write(fields []string) error {
	for i, f := range fields {
		if i > 0 {
			c.w.WriteByte(',')
		}
		if f == "" || !strings.ContainsAny(f, ",;\"\r\n") && f[0] != ' ' && f[0] != '\t' {
			c.w.WriteString(f)
			continue
		}
		c.w.WriteByte('"')
		c.w.WriteString(strings.ReplaceAll(f, `"`, `""`))
		c.w.WriteByte('"')
	}
	_, err := c.w.WriteString("\n")
	if c.err == nil {
		c.err = err
	}
	return c.err
}

// Flush writes what is buffered.
func (c *CSVWriter) Flush() {
	if err := c.w.Flush(); c.err == nil {
		c.err = err
	}
}

// Error is the first error of a Write or Flush.
func (c *CSVWriter) Error() error { return c.err }
