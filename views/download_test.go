package views

import (
	"bytes"
	"context"
	"testing"
)

// A download is the text of a <template>: & and < are escaped, nothing
// else is (a quote escaped would make a large report's page bigger).
func TestDownloadEscapesOnlyWhatATemplateNeeds(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, ``},
		{`{"data":{"name":"a"}}`, `{"data":{"name":"a"}}`},
		{`<script>&amp;</script>`, `&lt;script>&amp;amp;&lt;/script>`},
		{`x<`, `x&lt;`},
		{`&`, `&amp;`},
	} {
		var b bytes.Buffer
		if err := download([]byte(tc.in)).Render(context.Background(), &b); err != nil || b.String() != tc.want {
			t.Errorf("download(%q) = %q, %v; want %q", tc.in, b.String(), err, tc.want)
		}
	}
}
