package web_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
)

// TestScanPageRowsCapped: the suppressed, skipped and not-checked tables
// show their first 500 rows and say how many more the downloads hold, as
// the findings table does; they drew every row (76 MB of page for 59,000
// suppressed findings).
func TestScanPageRowsCapped(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := scanSignedIn(t, env)
	token := c.CSRF("/scan/app")
	rows := func(n int, row func(i int) string) string {
		out := make([]string, n)
		for i := range out {
			out[i] = row(i)
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		name, input, row string
		want             int
		capped           []string
	}{{
		"500 of each is every row",
		`{"resources":[` + rows(500, func(i int) string {
			return `{"type":"s3_bucket","name":"b` + strconv.Itoa(i) + `","public_read":true,"suppress":[{"rule":"S3_PUBLIC_READ","reason":"site"}]},` +
				`{"type":"lambda_function","name":"f` + strconv.Itoa(i) + `"}`
		}) + `]}`,
		"[data-testid=suppressed-row], [data-testid=skipped-row]", 1000, nil,
	}, {
		"501 suppressed and 502 skipped",
		`{"resources":[` + rows(501, func(i int) string {
			return `{"type":"s3_bucket","name":"b` + strconv.Itoa(i) + `","public_read":true,"suppress":[{"rule":"S3_PUBLIC_READ","reason":"site"}]}`
		}) + `,` + rows(502, func(i int) string { return `{"type":"lambda_function","name":"f` + strconv.Itoa(i) + `"}` }) + `]}`,
		"[data-testid=suppressed-row], [data-testid=skipped-row]", 1000,
		[]string{"The table shows the first 500 suppressed findings; 1 more are in the downloads.",
			"The table shows the first 500 skipped resources; 2 more are in the downloads."},
	}, {
		"510 types not checked",
		`{"format_version":"1.0","terraform_version":"1.9.5","values":{"root_module":{"resources":[` + rows(510, func(i int) string {
			return `{"address":"x_t` + strconv.Itoa(i) + `.a","mode":"managed","type":"x_t` + strconv.Itoa(i) + `","name":"a","values":{}}`
		}) + `]}}}`,
		"[data-testid=not-checked-row]", 500,
		[]string{"The table shows the first 500 resource types; 10 more are in the downloads."},
	}}
	for _, tt := range tests {
		res := scanHTMX(t, c, token, tt.input)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %.300s", tt.name, res.StatusCode, res.Body)
		}
		doc := res.Doc(t)
		if got := doc.Find(tt.row).Length(); got != tt.want {
			t.Errorf("%s: %d rows, want %d", tt.name, got, tt.want)
		}
		var capped []string
		doc.Find("[data-testid=rows-capped]").Each(func(_ int, s *goquery.Selection) {
			capped = append(capped, strings.Join(strings.Fields(s.Text()), " "))
		})
		if strings.Join(capped, "\n") != strings.Join(tt.capped, "\n") {
			t.Errorf("%s: notes %q, want %q", tt.name, capped, tt.capped)
		}
	}
}
