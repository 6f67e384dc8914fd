package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/scan"
)

// sarifMediaType is the registered media type of a SARIF log.
const sarifMediaType = "application/sarif+json"

// maxArtifactLength bounds the ?artifact= path named in SARIF locations.
const maxArtifactLength = 1024

// Scan answers POST /scan/v1/scan: it checks a resource list (SPEC 2.6)
// with the scanner engine, the same one the page uses, and returns
// {"data": result} or, with ?format=sarif, a SARIF 2.1.0 log for code
// scanning (?artifact= names the scanned file in its locations, for
// instance infra/resources.json; "resources.json" by default).
//
// Input problems are the spec's error shape: malformed JSON is 400 with
// the line and column, an invalid resource list is 400 with every problem
// and its JSON path in details, and input over a limit (5 MiB, 50,000
// resources, nesting depth) is 413. Nothing of the input is stored or
// logged.
func (a *API) Scan(c echo.Context) error {
	if err := httpx.RequireJSON(c); err != nil {
		return err
	}
	format := c.QueryParam("format")
	switch format {
	case "", "json", "sarif":
	default:
		return apierr.InvalidRequest("unknown format %s: use json (the default) or sarif", quote(format))
	}
	artifact, err := artifactURI(c.QueryParam("artifact"))
	if err != nil {
		return err
	}
	body, err := httpx.ReadBody(c, scan.MaxInputBytes)
	if err != nil {
		return err
	}
	// The result, and an error quoting the input, describe the caller's
	// infrastructure: keep them out of caches.
	c.Response().Header().Set("Cache-Control", "no-store")
	res, err := scan.Scan(body)
	if err != nil {
		return scanError(err)
	}
	if format == "sarif" {
		log, err := scan.SARIF(res, scan.SARIFOptions{ArtifactURI: artifact, InformationURI: a.origin(c) + "/scan/app"})
		if err != nil {
			return apierr.Internal(err)
		}
		return c.Blob(http.StatusOK, sarifMediaType, log)
	}
	b, err := scanEnvelope(res)
	if err != nil {
		return apierr.Internal(err)
	}
	return c.JSONBlob(http.StatusOK, b)
}

// scanEnvelope is the body of a successful JSON scan, {"data": result}.
// The page's JSON download is made the same way (app/web/scan.go).
func scanEnvelope(res *scan.Result) ([]byte, error) {
	return json.Marshal(map[string]*scan.Result{"data": res})
}

// scanError turns the engine's input errors into the API's: malformed JSON
// and an invalid document are 400 invalid_request, input over a limit is
// 413 payload_too_large.
func scanError(err error) *apierr.Error {
	var syn *scan.SyntaxError
	var lim *scan.LimitError
	var val *scan.ValidationError
	switch {
	case errors.As(err, &syn):
		return apierr.InvalidRequest("malformed JSON at line %d, column %d: %s", syn.Line, syn.Column, syn.Msg)
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
