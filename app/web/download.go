package web

import "encoding/json"

// apiBody is the JSON API's body for a tool's result, {"data": result},
// which the tool pages offer as their JSON download, byte for byte.
func apiBody[T any](result T) (string, error) {
	b, err := json.Marshal(map[string]T{"data": result})
	return string(b), err
}
