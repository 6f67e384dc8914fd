package scan

import (
	"errors"
	"strings"
	"testing"
)

// Function calls that read much and return little are bounded by what
// they read: a regular expression that finds nothing and a hash, each
// called thousands of times on a 120 KB local from a few hundred bytes of
// source, held an analysis slot for 30 to 60 s. They now stop at
// MaxFunctionInput; a module that hashes and matches its real values
// scans as before.
func TestHCLFunctionInputIsBounded(t *testing.T) {
	const big = `locals {
  a = join("", [for i in range(1024) : "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"])
  x = %s
}
resource "aws_s3_bucket" "b" { bucket = length(local.x) }
`
	for name, expr := range map[string]string{
		"regexall": `[for i in range(1024) : [for j in range(3) : length(regexall("(a|aa)*b", local.a))]]`,
		"sha512":   `[for i in range(1024) : [for j in range(1024) : sha512(local.a)][0]]`,
	} {
		_, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(strings.Replace(big, "%s", expr, 1))}}, Options{})
		var lim *LimitError
		if !errors.As(err, &lim) || lim.Limit != "terraform_functions" || !strings.Contains(lim.Message, "function calls read more than 67108864 bytes (64 MiB)") {
			t.Errorf("%s: got %v, want the function input limit", name, err)
		}
	}

	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`locals {
  names = [for i in range(200) : "bucket-${i}"]
  ids   = [for n in local.names : substr(sha256(n), 0, 8) if can(regex("^bucket-[0-9]+$", n))]
}
resource "aws_s3_bucket" "b" {
  count  = length(local.ids)
  bucket = "logs-${local.ids[count.index]}"
  acl    = "public-read"
}
`)}}, Options{})
	if err != nil || len(res.Findings) != 200 {
		t.Fatalf("a module's own hashing and matching: %v, %d findings", err, len(res.Findings))
	}
}
