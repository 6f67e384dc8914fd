package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/pool"
	"parapet/app/scan"
	"parapet/app/textenc"
	"parapet/views"
	"parapet/views/paths"
)

// MaxScanFormBytes bounds the scanner form's body: the 5 MiB the engine
// accepts counted twice for the textarea, because a browser sends every
// newline of a textarea as CRLF, once more for a chosen file (the page's
// script also copies it into the textarea, so both arrive), plus room for
// the multipart framing and the CSRF field. The form is multipart so the
// document is not percent-encoded on the way (which could triple it).
const MaxScanFormBytes = 3*scan.MaxInputBytes + 64<<10

// scanContext is how many characters of a malformed line the page shows
// on each side of the error.
const scanContext = 60

// ScanPage is the config scanner (SPEC 1, "Configuration scanner"): paste
// or upload a document (our resource list, a Terraform plan or state, a
// CloudFormation template in JSON or YAML), or use the sample, and scan it.
func (p *Pages) ScanPage(c echo.Context) error {
	return p.renderScan(c, http.StatusOK, views.ScanData{})
}

// ScanRun scans the posted document with the engine the JSON API uses:
// the pasted text (form field "resources"), or the chosen file (form field
// "file", see readScanInput). The file is sent as its bytes, so a UTF-16
// file with a byte-order mark is read as the API reads it. htmx swaps in the report fragment; without
// JavaScript the whole page comes back with the report under the form.
// Input problems (not JSON, not a valid resource list, over a limit) are a
// report too, listing each problem where it is: htmx gets them with 200,
// since it does not swap 4xx answers; the full page with 422 or 413.
// Nothing of the input is stored or logged.
func (p *Pages) ScanRun(c echo.Context) error {
	in, report, err := readScanInput(c)
	if err != nil {
		return err
	}
	status := http.StatusRequestEntityTooLarge
	if report == nil {
		if report, status, err = p.runScan(c, in.data, in.source); err != nil {
			return err
		}
		report.FileName = in.fileName
	}
	if httpx.IsHTMX(c) {
		return httpx.Stream(c, http.StatusOK, views.ScanResult(*report))
	}
	d := views.ScanData{Report: report}
	if report.Limit == "" {
		d.Input = in.pasted // shown again so the user can fix it
	}
	return p.renderScan(c, status, d)
}

func (p *Pages) renderScan(c echo.Context, status int, d views.ScanData) error {
	d.AI = p.aiHelp(c, paths.ConfigScanner+"/fix")
	return streamPage(c, status, "Config Scanner", "scan", views.Scan, d)
}

// scanInput is what the form brought: the document to scan, the file's
// name when it came from a file, and the pasted text.
type scanInput struct {
	data     []byte
	fileName string
	pasted   string
	source   []scan.File // Terraform files or a folder, scanned instead of data
}

// readScanInput reads the form's document. Over the size limit it returns
// a report saying so instead of the input.
func readScanInput(c echo.Context) (scanInput, *views.ScanReport, error) {
	tooLarge := &views.ScanReport{Limit: fmt.Sprintf(
		"The input is larger than the scanner's limit of %s. Split the document and scan the parts one by one, or use the API from a script.",
		httpx.FormatBytes(scan.MaxInputBytes))}
	raw, over, err := httpx.FormField(c, "resources", MaxScanFormBytes)
	if err != nil {
		return scanInput{}, nil, err
	}
	if over {
		return scanInput{}, tooLarge, nil
	}
	// JSON and YAML allow CR only as line-break whitespace, so undoing the
	// browser's CRLF changes nothing but the size, and keeps line numbers.
	in := scanInput{data: bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))}
	in.pasted = string(in.data)
	if files, report, err := uploadedSource(c); err != nil || report != nil {
		return scanInput{}, report, err
	} else if len(files) > 0 {
		in.source = files
		return in, nil, nil
	}
	if data, name, err := uploadedFile(c); err != nil {
		return scanInput{}, nil, err
	} else if name != "" && fileWins(in.data, data) {
		in.data, in.fileName = data, name
	}
	if len(in.data) > scan.MaxInputBytes {
		tooLarge.Limit = fmt.Sprintf("The input is %s, over the scanner's limit of %s. Split the document and scan the parts one by one.",
			sizeText(len(in.data)), httpx.FormatBytes(scan.MaxInputBytes))
		return scanInput{}, tooLarge, nil
	}
	return in, nil, nil
}

// fileWins decides between the pasted text and a chosen file. The page's
// script copies a chosen file into the textarea, decoded as textenc
// decodes it, so both usually arrive: the file is scanned when the text is
// empty or is the file's text; otherwise the text was edited after the
// file was chosen, and the text is scanned.
func fileWins(text, file []byte) bool {
	if len(bytes.TrimSpace(text)) == 0 {
		return true
	}
	decoded, err := textenc.Decode(file)
	if err != nil {
		return true // the scanner explains the file's problem
	}
	return bytes.Equal(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n")), bytes.ReplaceAll(decoded, []byte("\r\n"), []byte("\n")))
}

// uploadedFile returns the bytes and name of a non-empty file posted as
// "file"; the multipart form has been parsed (and its size bounded) by
// FormField. A file over the limit is read only up to one byte past it.
func uploadedFile(c echo.Context) ([]byte, string, error) {
	form := c.Request().MultipartForm
	if form == nil || len(form.File["file"]) == 0 || form.File["file"][0].Size == 0 {
		return nil, "", nil
	}
	h := form.File["file"][0]
	f, err := h.Open()
	if err != nil {
		return nil, "", echo.NewHTTPError(http.StatusBadRequest, "The uploaded file could not be read: "+err.Error())
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, scan.MaxInputBytes+1))
	if err != nil {
		return nil, "", echo.NewHTTPError(http.StatusBadRequest, "The uploaded file could not be read: "+err.Error())
	}
	return data, h.Filename, nil
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
// answers with. Before it encodes the downloads, it charges the analysis
// pool for them: past the pool's wait the answer is 503 busy.
func (p *Pages) runScan(c echo.Context, input []byte, source []scan.File) (*views.ScanReport, int, error) {
	// Parsing HCL takes far more memory per byte than the body's estimate.
	cost := scan.SourceCost(source)
	if len(source) == 0 && scan.IsSource(input) {
		cost = scan.SourceCost([]scan.File{{Data: input}})
	}
	if err := pool.Charge(c, cost); err != nil {
		return nil, 0, err
	}
	rep, status := scanReport(input, source)
	if rep.Result == nil {
		return rep, status, nil
	}
	if err := pool.Charge(c, scan.ReportCost(rep.Result)); err != nil {
		return nil, 0, err
	}
	// The JSON download is the API's body, byte for byte (app/api/scan.go).
	if body, err := httpx.Envelope(rep.Result); err == nil { // the API's body without fail_on
		rep.JSON = body
	}
	if b, err := scan.SARIF(rep.Result, scan.SARIFOptions{InformationURI: p.scanPageURL(c)}); err == nil {
		rep.SARIF = b
	}
	return rep, status, nil
}

// scanReport scans input: the report without its downloads, and the
// status a full page answers with.
func scanReport(input []byte, source []scan.File) (*views.ScanReport, int) {
	if len(source) > 0 {
		res, err := scan.ScanFiles(source, scan.Options{})
		rep, status := reportOf(res, err, nil)
		if res != nil {
			rep.Sources = sourceLines(res, source)
		}
		return rep, status
	}
	if len(bytes.TrimSpace(input)) == 0 {
		return &views.ScanReport{Empty: true}, http.StatusUnprocessableEntity
	}
	res, err := scan.Scan(input)
	rep, status := reportOf(res, err, input)
	if res != nil && res.Format == scan.FormatTerraformHCL { // a .tf pasted alone
		rep.Sources = sourceLines(res, []scan.File{{Path: "main.tf", Data: input}})
	}
	return rep, status
}

// reportOf is the report of a scan's outcome; input, when given, is the
// document, for the excerpt of a syntax error.
func reportOf(res *scan.Result, err error, input []byte) (*views.ScanReport, int) {
	if err != nil {
		var syn *scan.SyntaxError
		var lim *scan.LimitError
		var val *scan.ValidationError
		switch {
		case errors.As(err, &syn):
			rep := &views.ScanReport{Syntax: syn}
			if input != nil && utf8.Valid(input) { // a UTF-16 file's lines are not the bytes' lines
				rep.SyntaxLine, rep.SyntaxCaret = excerpt(input, syn)
			}
			return rep, http.StatusUnprocessableEntity
		case errors.As(err, &lim):
			return &views.ScanReport{Limit: upperFirst(lim.Message) + "."}, http.StatusRequestEntityTooLarge
		case errors.As(err, &val):
			return &views.ScanReport{Invalid: val}, http.StatusUnprocessableEntity
		}
		return &views.ScanReport{Limit: "The scanner could not read this input."}, http.StatusUnprocessableEntity
	}
	return &views.ScanReport{Result: res}, http.StatusOK
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
