package scan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestHCLSetWork: go-cty sorts a set each time it is read, so toset of
// 100,000 strings took seconds a read (8 s for a local read by one call)
// for 2 MB of values; it is refused, before that read, with a limit that
// says why. A set of 300 names read in each of a hundred instances is
// within it and gives its findings.
func TestHCLSetWork(t *testing.T) {
	names := make([]string, 100_000)
	for i := range names {
		names[i] = fmt.Sprint("n", i)
	}
	_, err := ScanFiles([]File{{Path: "names.txt", Data: []byte(strings.Join(names, "\n"))}, {Path: "main.tf", Data: []byte(`locals {
  names = toset(split("\n", file("${path.module}/names.txt")))
}
resource "aws_s3_bucket" "b" {
  bucket = "b-${length(local.names)}"
}
`)}}, Options{})
	var lim *LimitError
	if !errors.As(err, &lim) || lim.Limit != "terraform_sets" || lim.Message != "the Terraform source reads large sets (toset, set(...) values) too often: "+
		"more than 50000000 element comparisons (a set of n elements costs about n·log²n each time it is read); the limit is 50000000" {
		t.Fatalf("got %v, want the sets' limit", err)
	}

	users := make([]string, 300)
	for i := range users {
		users[i] = fmt.Sprintf("%q", fmt.Sprint("user", i))
	}
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`variable "users" {
  type    = set(string)
  default = [` + strings.Join(users, ", ") + `]
}
resource "aws_iam_user_policy" "p" {
  for_each = toset(slice(tolist(var.users), 0, 100))
  user     = each.key
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = contains(tolist(var.users), each.key) && each.key == "user1" ? "*" : "s3:GetObject", Resource = "*" }]
  })
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		if f.Rule != "IAM_WILDCARD_RESOURCE" {
			got = append(got, f.Rule+" "+f.Resource.Name)
		}
	}
	equalStrings(t, "findings", got, []string{`IAM_FULL_ADMIN aws_iam_user_policy.p["user1"]`})
}
