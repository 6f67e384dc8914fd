package httpx

import "encoding/json"

// Envelope is the JSON API's body for a success, {"data": v} (SPEC
// section 2.2). The tool pages offer the same bytes as their JSON
// download.
func Envelope[T any](v T) ([]byte, error) {
	return json.Marshal(struct {
		Data T `json:"data"`
	}{v})
}
