package toolsai

import (
	"context"
	"strings"
	"testing"
)

// A secret whose key the analysis takes for the line's header ("Password:
// …") is in the template without its key: it is masked there as in the
// lines, and never reaches the prompt.
func TestExplainMasksSecretsInTemplates(t *testing.T) {
	secrets := map[string]string{
		"Password":      "CorrectHorseBatteryStaple",
		"Token":         "abcdefGHIJKLmnop",
		"X-Auth-Token":  "AbCdEfGhIjKlMn",
		"Client-Secret": "CsValueAB12",
	}
	for key, value := range secrets {
		text := "2024-03-18T09:14:11Z ERROR " + key + ": " + value + " denied\n2024-03-18T09:14:12Z INFO request served\n"
		ex, err := Explain(context.Background(), []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(ex.Prompt.User, value) {
			t.Errorf("%s: the prompt holds the secret:\n%s", key, ex.Prompt.User)
		}
		for _, tm := range ex.Templates {
			if strings.Contains(tm.Template, value) {
				t.Errorf("%s: template %q holds the secret", key, tm.Template)
			}
		}
		if len(ex.Prompt.Masked) == 0 {
			t.Errorf("%s: nothing listed as masked", key)
		}
	}
}
