package views

import (
	"bytes"
	"context"
	"io"

	"github.com/a-h/templ"
)

// download writes a report's download (its JSON or SARIF, tens of MB for
// a large report) as the text of a <template>, where only & and < need
// escaping: encoding/json already writes them as \u0026 and \u003c, so in
// practice the bytes go out as they are, never copied. Escaping every
// quote instead, as text interpolation does, would make a large report's
// page a quarter bigger.
func download(body []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		rest := body
		for {
			i := bytes.IndexAny(rest, "&<")
			if i < 0 {
				_, err := w.Write(rest)
				return err
			}
			if _, err := w.Write(rest[:i]); err != nil {
				return err
			}
			esc := "&amp;"
			if rest[i] == '<' {
				esc = "&lt;"
			}
			if _, err := io.WriteString(w, esc); err != nil {
				return err
			}
			rest = rest[i+1:]
		}
	})
}
