package scan

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// linkPlan is a plan of n buckets made with count and n ACLs, every third
// public, whose configuration's bucket expression repeats its reference
// repeat times (a generated configuration can). With keyed, the ACLs are
// made with for_each (keys "k0", "k1"...) and name their bucket by value,
// so no instance matches the reference's index: the linker then tried
// every reference against every bucket for every ACL before it was
// indexed (cubic), and falls back to the bucket names.
func linkPlan(n, repeat int, keyed bool) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","planned_values":{"root_module":{"resources":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"address":"aws_s3_bucket.b[` + itoa(i) + `]","mode":"managed","type":"aws_s3_bucket","index":` + itoa(i) +
			`,"values":{"bucket":"bucket-` + itoa(i) + `"}}`)
	}
	for i := 0; i < n; i++ {
		acl := "private"
		if i%3 == 0 {
			acl = "public-read"
		}
		index := itoa(i)
		if keyed {
			index = `\"k` + itoa(i) + `\"`
		}
		b.WriteString(`,{"address":"aws_s3_bucket_acl.p[` + index + `]","mode":"managed","type":"aws_s3_bucket_acl",` +
			`"values":{"bucket":"bucket-` + itoa(i) + `","acl":"` + acl + `"}}`)
	}
	b.WriteString(`]}},"configuration":{"root_module":{"resources":[{"address":"aws_s3_bucket_acl.p","mode":"managed","type":"aws_s3_bucket_acl",` +
		`"expressions":{"bucket":{"references":[` + strings.Repeat(`"aws_s3_bucket.b",`, repeat) + `"count.index"]}}}]}}}`)
	return []byte(b.String())
}

// TestLinkingAtScale: each ACL lands on its own bucket, through count.index
// or by name, however often the configuration repeats the reference.
// Before the linker indexed instances, the keyed plan compared every ACL
// with every bucket for every reference, 7 x 10^8 comparisons here (6 s; the
// probe's 1.9 MB plan took 79 s); BenchmarkTerraformLinking measures it.
func TestLinkingAtScale(t *testing.T) {
	for _, c := range []struct {
		n, repeat int
		keyed     bool
	}{{3000, 200, false}, {1500, 300, true}} {
		res := scanBounded(t, "linking", linkPlan(c.n, c.repeat, c.keyed), 64)
		if len(res.Findings) != (c.n+2)/3 {
			t.Fatalf("keyed %v: %d findings, want %d", c.keyed, len(res.Findings), (c.n+2)/3)
		}
		for k, f := range res.Findings {
			want := "aws_s3_bucket.b[" + itoa(3*k) + "]"
			if f.Rule != "S3_PUBLIC_READ" || f.Resource.Name != want || f.Source.Linked == nil {
				t.Fatalf("keyed %v: finding %d: %s on %s via %+v, want S3_PUBLIC_READ on %s", c.keyed, k, f.Rule, f.Resource.Name, f.Source.Linked, want)
			}
		}
	}
}

// TestParseRefs: references are parsed once, data sources and variables
// dropped, a resource named twice (with and without its attribute) kept
// once, and without its index key only when no reference gives one.
func TestParseRefs(t *testing.T) {
	got := parseRefs([]string{"aws_s3_bucket.a.id", "aws_s3_bucket.a", "var.x", "each.value", "data.aws_s3_bucket.d.id",
		`aws_s3_bucket.b["k.1"].id`, `aws_s3_bucket.b["k.1"]`, "aws_s3_bucket.b", "aws_s3_bucket.a"})
	want := []tfRef{{"aws_s3_bucket.a", ""}, {"aws_s3_bucket.b", `["k.1"]`}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("parseRefs: %+v, want %+v", got, want)
	}
}

// BenchmarkTerraformLinking: 24,000 counted ACLs (the probe's plan took
// 1.4 s against 0.05 s without references), and 3,000 keyed ones with a
// reference repeated a thousand times.
func BenchmarkTerraformLinking(b *testing.B) {
	for _, c := range []struct {
		name      string
		n, repeat int
		keyed     bool
	}{{"count_24000", 24_000, 1, false}, {"keyed_repeated_refs", 3_000, 1000, true}} {
		plan := linkPlan(c.n, c.repeat, c.keyed)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(plan)))
			for i := 0; i < b.N; i++ {
				if _, err := ScanWith(plan, Options{NoSizeLimit: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// foreachPlan is the probe's plan: buckets a and b, and access blocks made
// with for_each = {a = aws_s3_bucket.a.id, b = aws_s3_bucket.b.id}, whose
// bucket = each.value. The block of "a" blocks aBlocked, that of "b"
// bBlocked; bucketKnown says whether the blocks' bucket names are known.
func foreachPlan(aACL, bACL string, aBlocked, bBlocked, bucketKnown bool) []byte {
	bucket := func(addr, name, acl string) string {
		return `{"address":"` + addr + `","mode":"managed","type":"aws_s3_bucket","values":{"id":"` + name + `","bucket":"` + name + `","acl":"` + acl + `"}}`
	}
	block := func(key, name string, on bool) string {
		v := `{"block_public_acls":` + strconv.FormatBool(on) + `,"ignore_public_acls":` + strconv.FormatBool(on) + `}`
		if bucketKnown {
			v = `{"bucket":"` + name + `",` + v[1:]
		}
		return `{"address":"aws_s3_bucket_public_access_block.all[\"` + key + `\"]","mode":"managed","type":"aws_s3_bucket_public_access_block","values":` + v + `}`
	}
	return []byte(`{"format_version":"1.2","planned_values":{"root_module":{"resources":[` +
		bucket("aws_s3_bucket.a", "acme-a", aACL) + `,` + bucket("aws_s3_bucket.b", "acme-b", bACL) + `,` +
		block("a", "acme-a", aBlocked) + `,` + block("b", "acme-b", bBlocked) + `]}},
		"configuration":{"root_module":{"resources":[{"address":"aws_s3_bucket_public_access_block.all","mode":"managed","type":"aws_s3_bucket_public_access_block",
		"expressions":{"bucket":{"references":["each.value"]}},
		"for_each_expression":{"references":["aws_s3_bucket.a.id","aws_s3_bucket.a","aws_s3_bucket.b.id","aws_s3_bucket.b"]}}]}}}`)
}

// TestForEachOverSeveralBuckets: a for_each that names two buckets does
// not say which bucket each block is for; the block's bucket name does.
// Both blocks were linked to the first bucket named, which hid a's public
// ACL behind b's block, and left b unblocked.
func TestForEachOverSeveralBuckets(t *testing.T) {
	for _, c := range []struct {
		name string
		plan []byte
		want []string
	}{
		{"a public, its block off", foreachPlan("public-read", "private", false, true, true),
			[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.a @ aws_s3_bucket.a.acl"}},
		{"both public, both blocked", foreachPlan("public-read", "public-read", true, true, true), []string{}},
		{"b public, its block off", foreachPlan("private", "public-read", true, false, true),
			[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.acl"}},
		// Names unknown until apply: no guess, so neither block hides a
		// public ACL.
		{"names unknown", foreachPlan("public-read", "public-read", true, true, false), []string{
			"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.a @ aws_s3_bucket.a.acl",
			"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.acl"}},
	} {
		equalStrings(t, c.name, findingLines(scanAt(t, c.plan).Findings), c.want)
	}
}

// TestPlanPolicyFromDeferredRead: a bucket policy (or an IAM policy) from
// an aws_iam_policy_document naming the bucket's ARN is unknown in the
// plan, since the data source is read only during apply; the public bucket
// used to be reported as nothing. The read's statements are in
// resource_changes: the policy is built from them, and the finding names
// the bucket in its module instance.
// A google_storage_bucket_iam_policy from a google_iam_policy whose other
// binding names a service account created in the same plan is the same
// case for Google Cloud.
func TestPlanPolicyFromDeferredRead(t *testing.T) {
	for file, want := range map[string][]string{
		"plan_policy_deferred_read.json": {"S3_PUBLIC_READ module.site[0].aws_s3_bucket.site line 23",
			"IAM_SERVICE_WILDCARD module.site[0].aws_iam_policy.deploy line 9"},
		"plan_gcp_policy_deferred_read.json": {"S3_PUBLIC_READ google_storage_bucket.site line 17"},
	} {
		if got := scanTestdata(t, file); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", file, got, want)
		}
	}
}
