package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/pool"
	"parapet/app/scan"
)

// sarifMediaType is the registered media type of a SARIF log.
const sarifMediaType = "application/sarif+json"

// maxArtifactLength bounds the ?artifact= path named in SARIF locations.
const maxArtifactLength = 1024

// Scan answers POST /scan/v1/scan: it checks a document (our resource
// list, a Terraform plan or state, a CloudFormation template in JSON or
// YAML, or an envelope with suppressions and a baseline; the engine tells
// them apart by content) with the scanner engine, the same one the page
// uses, and returns {"data": result} or, with ?format=sarif, a SARIF 2.1.0
// log for code scanning (?artifact= names the scanned file in its
// locations; plan.json, template.yaml, ... by default).
//
// ?fail_on= gates CI: none (the default), any (any unsuppressed finding)
// or new (any unsuppressed finding whose baseline_state is new; without a
// baseline every finding is new). A failed gate answers 422 with the same
// body as a pass (the result, or the SARIF log) and X-Parapet-Gate:
// failed, so `curl --fail-with-body -o results.sarif` both saves the log
// and fails the job. The JSON body then also has
// "gate": {"fail_on", "failed", "findings"}.
//
// Input problems are the spec's error shape: a body that is not JSON or
// YAML is 400 with the line and column, an invalid document is 400 with
// every problem and its path in details, and input over a limit (5 MiB,
// 50,000 resources, nesting depth, YAML aliases and nodes) is 413.
// Nothing of the input is stored or logged.
func (a *API) Scan(c echo.Context) error {
	boundary, err := requireScanMediaType(c)
	if err != nil {
		return err
	}
	format := c.QueryParam("format")
	switch format {
	case "", "json", "sarif":
	default:
		return apierr.InvalidRequest("unknown format %s: use json (the default) or sarif", quote(format))
	}
	failOn := c.QueryParam("fail_on")
	switch failOn {
	case "", "none", "any", "new":
	default:
		return apierr.InvalidRequest("unknown fail_on %s: use none (the default), any or new", quote(failOn))
	}
	artifact, err := artifactURI(c.QueryParam("artifact"))
	if err != nil {
		return err
	}
	// The result, and an error quoting the input, describe the caller's
	// infrastructure: keep them out of caches.
	c.Response().Header().Set("Cache-Control", "no-store")
	var res *scan.Result
	if boundary != nil { // Terraform source, one part per file
		files, err := readScanFiles(c, *boundary)
		if err != nil {
			return err
		}
		// Parsing HCL takes far more memory per byte than the body's estimate.
		if err := pool.Charge(c, scan.SourceCost(files)); err != nil {
			return err
		}
		if res, err = scan.ScanFiles(files, scan.Options{}); err != nil {
			return scanError(err)
		}
	} else {
		body, err := httpx.ReadBody(c, scan.MaxInputBytes)
		if err != nil {
			return err
		}
		if scan.IsSource(body) {
			if err := pool.Charge(c, scan.SourceCost([]scan.File{{Data: body}})); err != nil {
				return err
			}
		}
		if res, err = scan.Scan(body); err != nil {
			return scanError(err)
		}
	}
	// Its findings may cost far more to encode than the body's estimate.
	if err := pool.Charge(c, scan.ReportCost(res)); err != nil {
		return err
	}
	g := gateOf(res, failOn)
	status := http.StatusOK
	if g != nil {
		c.Response().Header().Set("X-Parapet-Gate", "passed")
		if g.Failed {
			status = http.StatusUnprocessableEntity
			c.Response().Header().Set("X-Parapet-Gate", "failed")
		}
	}
	if format == "sarif" {
		log, err := scan.SARIF(res, scan.SARIFOptions{ArtifactURI: artifact, InformationURI: a.origin(c) + "/scan/app"})
		if err != nil {
			return apierr.Internal(err)
		}
		return c.Blob(status, sarifMediaType, log)
	}
	b, err := json.Marshal(scanBody{Data: res, Gate: g})
	if err != nil {
		return apierr.Internal(err)
	}
	return c.JSONBlob(status, b)
}

// scanBody is the JSON answer: the result, and the gate when fail_on was
// given.
type scanBody struct {
	Data *scan.Result `json:"data"`
	Gate *scanGate    `json:"gate,omitempty"`
}

// scanGate is the outcome of ?fail_on=.
type scanGate struct {
	FailOn   string `json:"fail_on"`
	Failed   bool   `json:"failed"`
	Findings int    `json:"findings"` // the findings that count for fail_on
}

func gateOf(res *scan.Result, failOn string) *scanGate {
	if failOn == "" {
		return nil
	}
	g := &scanGate{FailOn: failOn}
	switch failOn {
	case "any":
		g.Findings = len(res.Findings)
	case "new":
		for _, f := range res.Findings {
			if f.BaselineState != "unchanged" {
				g.Findings++
			}
		}
	}
	g.Failed = g.Findings > 0
	return g
}

// scanMediaTypes are the Content-Types the scanner reads; the engine tells
// the formats apart by content, so any of them may carry any format.
var scanMediaTypes = map[string]bool{
	"application/json": true, "application/yaml": true, "application/x-yaml": true, "text/yaml": true, "text/x-yaml": true,
}

// requireScanMediaType refuses another media type, or a charset other than
// UTF-8, with 415. Files saved as UTF-16 with a byte-order mark are sent as
// they are, without a charset parameter: the engine reads the mark. For
// multipart/form-data (Terraform source, a file per part) it returns the
// boundary.
func requireScanMediaType(c echo.Context) (boundary *string, err error) {
	mt, params, err := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err == nil && mt == "multipart/form-data" {
		b := params["boundary"]
		return &b, nil
	}
	if err != nil || !scanMediaTypes[mt] {
		return nil, apierr.UnsupportedMediaType("send Content-Type: application/json, application/yaml for a YAML template, or multipart/form-data with a part per Terraform file")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return nil, apierr.UnsupportedMediaType(fmt.Sprintf("charset %s is not supported: send UTF-8 (a UTF-16 file with a byte-order mark may be sent without a charset parameter)", quote(cs)))
	}
	return nil, nil
}

// scanError turns the engine's input errors into the API's: malformed JSON
// and an invalid document are 400 invalid_request, input over a limit is
// 413 payload_too_large.
func scanError(err error) *apierr.Error {
	if ae := (*apierr.Error)(nil); errors.As(err, &ae) {
		return ae // the analysis pool's 503 busy, as is
	}
	var syn *scan.SyntaxError
	var lim *scan.LimitError
	var val *scan.ValidationError
	switch {
	case errors.As(err, &syn):
		what := "malformed JSON"
		switch {
		case syn.File != "":
			what = "malformed Terraform source in " + syn.File
		case strings.HasPrefix(syn.Msg, "invalid YAML"):
			what = "malformed YAML"
		}
		return apierr.InvalidRequest("%s at line %d, column %d: %s", what, syn.Line, syn.Column, strings.TrimPrefix(syn.Msg, "invalid YAML: "))
	case errors.As(err, &lim):
		return apierr.PayloadTooLarge(lim.Message)
	case errors.As(err, &val):
		// The message names the first problem and how many more there
		// are; details lists every one kept (at most scan.MaxProblems).
		e := apierr.InvalidRequest("%s", val.Error())
		e.Details = make([]apierr.Detail, len(val.Problems))
		for i, p := range val.Problems {
			e.Details[i] = apierr.Detail{Path: p.Path, Message: p.Message}
		}
		return e
	}
	return apierr.Internal(err)
}

// artifactURI checks the ?artifact= path and makes it a URI reference for
// SARIF (spaces and the like percent-encoded); "" means the default.
func artifactURI(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	if len(p) > maxArtifactLength || !utf8.ValidString(p) {
		return "", apierr.InvalidRequest("artifact must be a file path of at most %d bytes", maxArtifactLength)
	}
	for _, r := range p {
		if unicode.IsControl(r) {
			return "", apierr.InvalidRequest("artifact must not contain control characters")
		}
	}
	return (&url.URL{Path: p}).String(), nil
}
