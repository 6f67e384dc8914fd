package httpx

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/textenc"
)

const cleanBodyKey = "httpx.clean_body"

// CleanJSON checks every JSON request body before its handler runs: the
// charset must be UTF-8 (else 415), the body valid UTF-8 (or UTF-16 with a
// byte-order mark, as files are saved on Windows), no string may
// hold a NUL character and no object may repeat a key (else 400
// invalid_request, naming where). Go's decoder would quietly replace bad
// bytes and keep the last of two keys; an attacker could then show one
// value to a check and another to the code that acts. The body read here
// is handed to ReadBody, not read twice. Mount it after LimitBody.
func CleanJSON(next echo.HandlerFunc) echo.HandlerFunc { return cleanJSON(next, true) }

// CleanJSONText is CleanJSON without the check of repeated keys, for a
// handler whose engine refuses them itself and says more: the scanner
// lists every repeated key with its path, line and column, in JSON and
// YAML alike, where this check names only the first.
func CleanJSONText(next echo.HandlerFunc) echo.HandlerFunc { return cleanJSON(next, false) }

func cleanJSON(next echo.HandlerFunc, uniqueKeys bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		mt, params, err := parseMediaType(r.Header.Get(echo.HeaderContentType))
		if Oversized(c) > 0 || err != nil || (mt != echo.MIMEApplicationJSON && !strings.HasSuffix(mt, "+json")) {
			return next(c)
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
			return apierr.UnsupportedMediaType("JSON must be sent as UTF-8 (charset=utf-8), not " + cs)
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return err
			}
			return apierr.InvalidRequest("could not read the request body: %v", err)
		}
		// A file saved with a byte-order mark (UTF-16 from Windows tools)
		// is checked as the text it holds; its handler decodes it the same
		// way (textenc).
		text, err := textenc.Decode(body)
		if err != nil {
			return apierr.InvalidRequest("%v", err)
		}
		if err := checkJSON(text, uniqueKeys); err != nil {
			return err
		}
		c.Set(cleanBodyKey, body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		return next(c)
	}
}

// SetBody makes body the request's body, for what reads it next (ReadBody
// included, which would otherwise take the one CleanJSON read).
func SetBody(c echo.Context, body []byte) {
	c.Set(cleanBodyKey, body)
	c.Request().Body = io.NopCloser(bytes.NewReader(body))
	c.Request().ContentLength = int64(len(body))
}

// CheckFormText refuses a form whose field names or values hold a NUL
// byte or invalid UTF-8, naming the field: such text is never meant, and
// stored it would break whatever reads it later.
func CheckFormText(r *http.Request) error {
	for name, values := range r.PostForm {
		for _, v := range append([]string{name}, values...) {
			if strings.IndexByte(v, 0) >= 0 {
				return echo.NewHTTPError(http.StatusBadRequest, "The form field “"+strings.ToValidUTF8(name, "?")+"” contains a NUL byte. Remove it and send the form again.")
			}
			if !utf8.ValidString(v) {
				return echo.NewHTTPError(http.StatusBadRequest, "The form field “"+strings.ToValidUTF8(name, "?")+"” is not valid UTF-8 text. Send it as UTF-8.")
			}
		}
	}
	return nil
}
