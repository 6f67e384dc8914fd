package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
)

// ReadBody reads the whole request body, refusing more than limit bytes
// with 413 payload_too_large, naming the limit.
func ReadBody(c echo.Context, limit int64) ([]byte, error) {
	r := c.Request()
	if body, ok := c.Get(cleanBodyKey).([]byte); ok {
		// CleanJSON has read and checked it already.
		if int64(len(body)) > limit {
			return nil, tooLarge(limit)
		}
		return body, nil
	}
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, limit))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge(limit)
		}
		return nil, apierr.InvalidRequest("could not read the request body: %v", err)
	}
	return body, nil
}

// MediaType returns the request's media type, lowercased, without
// parameters ("" when absent or unparsable).
func MediaType(c echo.Context) string {
	mt, _, err := parseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err != nil {
		return ""
	}
	return mt
}

// RequireJSON refuses a request whose Content-Type is not application/json
// with 415 unsupported_media_type.
func RequireJSON(c echo.Context) error {
	if MediaType(c) != echo.MIMEApplicationJSON {
		return apierr.UnsupportedMediaType("the request body must be JSON: send Content-Type: application/json")
	}
	return nil
}

// DecodeJSON decodes body into v and turns every failure into a 400
// invalid_request that says what is wrong and where (line and column for
// syntax errors, the field for type errors, the name of an unknown field).
// Unknown fields are refused, and so is anything after the value.
func DecodeJSON(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return JSONError(body, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return apierr.InvalidRequest("the request body must hold a single JSON value")
	}
	return nil
}

// JSONError explains a decoding error of body in the spec's error shape.
func JSONError(body []byte, err error) *apierr.Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return apierr.InvalidRequest("the request body is empty: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apierr.InvalidRequest("malformed JSON: the body ends before the JSON value does")
	case errors.As(err, &syn):
		line, col := LineCol(body, syn.Offset-1) // Offset is just past the bad byte
		return apierr.InvalidRequest("malformed JSON at line %d, column %d: %s", line, col, syn.Error())
	case errors.As(err, &typ):
		if typ.Field == "" {
			return apierr.InvalidRequest("the request body must be %s in JSON, not %s", jsonKind(typ.Type.Kind().String()), typ.Value)
		}
		return apierr.InvalidRequest("%s must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return apierr.InvalidRequest("unknown field %s", rest)
	}
	return apierr.InvalidRequest("malformed JSON: %s", msg)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	case "float32", "float64":
		return "a number"
	default:
		return "an integer"
	}
}

// LineCol converts a byte offset into a 1-based line and column.
func LineCol(body []byte, offset int64) (int, int) {
	if offset > int64(len(body)) {
		offset = int64(len(body))
	}
	line, col := 1, 1
	for _, b := range body[:offset] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// FormField reads one field of a large browser form (urlencoded or
// multipart), with the body held to maxBody bytes. tooLarge reports a body
// over the limit, so the page can say so in its own words; other read
// errors are a 400.
func FormField(c echo.Context, name string, maxBody int64) (value []byte, tooLarge bool, err error) {
	r := c.Request()
	if r.ContentLength > maxBody {
		return nil, true, nil
	}
	// The CSRF check may have parsed the form already (a form posted
	// without htmx carries its token as a field); then this is a no-op.
	r.Body = http.MaxBytesReader(c.Response(), r.Body, maxBody)
	if MediaType(c) == echo.MIMEMultipartForm {
		err = r.ParseMultipartForm(maxBody)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, true, nil
		}
		return nil, false, echo.NewHTTPError(http.StatusBadRequest, "The form could not be read: "+err.Error())
	}
	return []byte(r.FormValue(name)), false, nil
}

// parseMediaType is mime.ParseMediaType, without its allocations for the
// header nearly every API call sends, exactly "application/json".
func parseMediaType(header string) (string, map[string]string, error) {
	if header == echo.MIMEApplicationJSON {
		return header, nil, nil
	}
	return mime.ParseMediaType(header)
}
