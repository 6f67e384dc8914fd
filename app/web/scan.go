package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/scan"
	"parapet/views"
	"parapet/views/paths"
)

// maxScanFormBytes bounds the scanner form's body: the 5 MiB the engine
// accepts counted twice, because a browser sends every newline of a
// textarea as CRLF, plus room for the multipart framing and the CSRF
// field. The form is multipart so the JSON is not percent-encoded on the
// way (which could triple it).
const maxScanFormBytes = 2*scan.MaxInputBytes + 64<<10

// scanContext is how many characters of a malformed line the page shows
// on each side of the error.
const scanContext = 60

// ScanPage is the config scanner (SPEC 1, "Configuration scanner"): paste
// or drop a JSON resource list, or use the sample, and scan it.
func (p *Pages) ScanPage(c echo.Context) error {
	return p.renderScan(c, http.StatusOK, views.ScanData{})
}

// ScanRun scans the posted resource list (form field "resources") with the
// engine the JSON API uses. htmx swaps in the report fragment; without
// JavaScript the whole page comes back with the report under the form.
// Input problems (not JSON, not a valid resource list, over a limit) are a
// report too, listing each problem where it is: htmx gets them with 200,
// since it does not swap 4xx answers; the full page with 422 or 413.
// Nothing of the input is stored or logged.
func (p *Pages) ScanRun(c echo.Context) error {
	// The report describes the user's infrastructure: never cache it.
	c.Response().Header().Set("Cache-Control", "no-store")
	input, report, err := readScanInput(c)
	if err != nil {
		return err
	}
	status := http.StatusRequestEntityTooLarge
	if report == nil {
		report, status = runScan(input, p.scanPageURL(c))
	}
	if httpx.IsHTMX(c) {
		return httpx.Render(c, http.StatusOK, views.ScanResult(*report))
	}
	d := views.ScanData{Report: report}
	if report.Limit == "" {
		d.Input = string(input) // shown again so the user can fix it
	}
	return p.renderScan(c, status, d)
}

func (p *Pages) renderScan(c echo.Context, status int, d views.ScanData) error {
	ch := httpx.Chrome(c, "Config Scanner")
	ch.Nav = "scan"
	return httpx.Render(c, status, views.Scan(ch, d))
}

// readScanInput reads the form's resource list. Over the size limit it
// returns a report saying so instead of the input.
func readScanInput(c echo.Context) ([]byte, *views.ScanReport, error) {
	tooLarge := &views.ScanReport{Limit: fmt.Sprintf(
		"The input is larger than the scanner's limit of %s. Split the resource list and scan the parts one by one, or use the API from a script.",
		httpx.FormatBytes(scan.MaxInputBytes))}
	raw, over, err := httpx.FormField(c, "resources", maxScanFormBytes)
	if err != nil {
		return nil, nil, err
	}
	if over {
		return nil, tooLarge, nil
	}
	// JSON allows CR only as whitespace, so undoing the browser's CRLF
	// changes nothing but the size, and keeps line numbers.
	input := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	if len(input) > scan.MaxInputBytes {
		tooLarge.Limit = fmt.Sprintf("The input is %s, over the scanner's limit of %s. Split the resource list and scan the parts one by one.",
			sizeText(len(input)), httpx.FormatBytes(scan.MaxInputBytes))
		return nil, tooLarge, nil
	}
	return input, nil, nil
}

// scanPageURL is the scanner page's absolute URL, as the request reached
// it.
func (p *Pages) scanPageURL(c echo.Context) string {
	scheme := "http://"
	if p.IsHTTPS(c.Request()) {
		scheme = "https://"
	}
	return scheme + c.Request().Host + paths.ConfigScanner
}

// runScan scans input and makes the report, with the status a full page
// answers with. pageURL is the scanner's address, for the SARIF log.
func runScan(input []byte, pageURL string) (*views.ScanReport, int) {
	if len(bytes.TrimSpace(input)) == 0 {
		return &views.ScanReport{Empty: true}, http.StatusUnprocessableEntity
	}
	res, err := scan.Scan(input)
	if err != nil {
		var syn *scan.SyntaxError
		var lim *scan.LimitError
		var val *scan.ValidationError
		switch {
		case errors.As(err, &syn):
			rep := &views.ScanReport{Syntax: syn}
			rep.SyntaxLine, rep.SyntaxCaret = excerpt(input, syn)
			return rep, http.StatusUnprocessableEntity
		case errors.As(err, &lim):
			return &views.ScanReport{Limit: upperFirst(lim.Message) + "."}, http.StatusRequestEntityTooLarge
		case errors.As(err, &val):
			return &views.ScanReport{Invalid: val}, http.StatusUnprocessableEntity
		}
		return &views.ScanReport{Limit: "The scanner could not read this input."}, http.StatusUnprocessableEntity
	}
	rep := &views.ScanReport{Result: res}
	// The JSON download is the API's body, byte for byte (app/api/scan.go).
	if b, err := json.Marshal(map[string]*scan.Result{"data": res}); err == nil {
		rep.JSON = string(b)
	}
	if b, err := scan.SARIF(res, scan.SARIFOptions{InformationURI: pageURL}); err == nil {
		rep.SARIF = string(b)
	}
	return rep, http.StatusOK
}

// excerpt returns the malformed line around the error's column and a
// caret line pointing at it, for a monospace block.
func excerpt(input []byte, e *scan.SyntaxError) (line, caret string) {
	lines := bytes.Split(input, []byte("\n"))
	if e.Line < 1 || e.Line > len(lines) {
		return "", ""
	}
	text := []rune(strings.ReplaceAll(strings.TrimRight(string(lines[e.Line-1]), "\r"), "\t", " "))
	col := min(max(e.Column-1, 0), len(text))
	from, to := max(col-scanContext, 0), min(col+scanContext, len(text))
	prefix, suffix := "", ""
	if from > 0 {
		prefix = "…"
	}
	if to < len(text) {
		suffix = "…"
	}
	line = prefix + string(text[from:to]) + suffix
	caret = strings.Repeat(" ", utf8.RuneCountInString(prefix)+col-from) + "^"
	return line, caret
}

// sizeText writes a byte count for people: 5.2 MiB, 812 KiB.
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
