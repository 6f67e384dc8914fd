package views

import (
	"slices"
	"testing"
)

func TestNamePartsBreakAtSeamsOnly(t *testing.T) {
	for name, want := range map[string][]string{
		"ReportsBucket":                     {"Reports", "Bucket"},
		"module.net.aws_s3_bucket.b[\"x\"]": {"module.", "net.", "aws_", "s3_", "bucket.", "b[\"x\"]"},
		"logs":                              {"logs"},
		"":                                  {""},
		"S3Bucket":                          {"S3Bucket"},
		"a/b:c-d":                           {"a/", "b:", "c-", "d"},
	} {
		if got := nameParts(name); !slices.Equal(got, want) {
			t.Errorf("nameParts(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestBreakableHTMLEscapes(t *testing.T) {
	if got := breakableHTML(`aws_s3_bucket.b["<x>"]`); got != `aws_<wbr>s3_<wbr>bucket.<wbr>b[&#34;&lt;x&gt;&#34;]` {
		t.Errorf("breakableHTML: %s", got)
	}
}
