package scan

import "testing"

// TestLinkThroughModuleOutputs: a resource that names its bucket by a
// module's output (module.bucket.s3_bucket_id) is linked to the bucket the
// output names in the plan's configuration, through nested modules too.
func TestLinkThroughModuleOutputs(t *testing.T) {
	const (
		publicBucket  = `{"address":"module.bucket.aws_s3_bucket.this[0]","mode":"managed","type":"aws_s3_bucket","name":"this","index":0,"values":{"bucket":"acme-site","acl":"public-read"}}`
		privateBucket = `{"address":"module.bucket.aws_s3_bucket.this[0]","mode":"managed","type":"aws_s3_bucket","name":"this","index":0,"values":{"bucket":"acme-site"}}`
		block         = `{"address":"aws_s3_bucket_public_access_block.site","mode":"managed","type":"aws_s3_bucket_public_access_block","name":"site","values":{"block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}}`
		blockChange   = `{"address":"aws_s3_bucket_public_access_block.site","mode":"managed","change":{"after_unknown":{"id":true,"bucket":true}}}`
		bucketOutput  = `"outputs":{"s3_bucket_id":{"expression":{"references":["aws_s3_bucket.this[0].id","aws_s3_bucket.this[0]","aws_s3_bucket.this"]}}}`
	)
	plan := func(planned, changes, config string) []byte {
		return []byte(`{"format_version":"1.2","planned_values":{"root_module":` + planned + `},"resource_changes":[` + changes +
			`],"configuration":{"root_module":` + config + `}}`)
	}
	blockConfig := func(ref string) string {
		return `"resources":[{"address":"aws_s3_bucket_public_access_block.site","mode":"managed","type":"aws_s3_bucket_public_access_block","name":"site",` +
			`"expressions":{"bucket":{"references":["` + ref + `","module.bucket"]}}}]`
	}
	tests := []struct {
		name  string
		input []byte
		want  []string
	}{{
		// The probe's plan without its account block: the module's public
		// bucket is blocked by the root's access block.
		"an access block of a module's bucket",
		plan(`{"resources":[`+block+`],"child_modules":[{"address":"module.bucket","resources":[`+publicBucket+`]}]}`, blockChange,
			`{`+blockConfig("module.bucket.s3_bucket_id")+`,"module_calls":{"bucket":{"module":{`+bucketOutput+`}}}}`),
		[]string{},
	}, {
		"a public ACL of a module's bucket lands on that bucket",
		plan(`{"resources":[{"address":"aws_s3_bucket_acl.site","mode":"managed","type":"aws_s3_bucket_acl","name":"site","values":{"acl":"public-read"}}],`+
			`"child_modules":[{"address":"module.bucket","resources":[`+privateBucket+`]}]}`,
			`{"address":"aws_s3_bucket_acl.site","mode":"managed","change":{"after_unknown":{"bucket":true}}}`,
			`{"resources":[{"address":"aws_s3_bucket_acl.site","mode":"managed","expressions":{"bucket":{"references":["module.bucket.s3_bucket_id","module.bucket"]}}}],`+
				`"module_calls":{"bucket":{"module":{`+bucketOutput+`}}}}`),
		[]string{"S3_PUBLIC_READ aws_s3_bucket module.bucket.aws_s3_bucket.this[0] @ aws_s3_bucket_acl.site.acl via aws_s3_bucket_acl.site"},
	}, {
		"through an output of a module's module",
		plan(`{"resources":[`+block+`],"child_modules":[{"address":"module.bucket","child_modules":[{"address":"module.bucket.module.inner","resources":[`+
			`{"address":"module.bucket.module.inner.aws_s3_bucket.this","mode":"managed","type":"aws_s3_bucket","name":"this","values":{"bucket":"b","acl":"public-read"}}]}]}]}`,
			blockChange,
			`{`+blockConfig("module.bucket.id")+`,"module_calls":{"bucket":{"module":{"outputs":{"id":{"expression":{"references":["module.inner.bucket.id","module.inner.bucket","module.inner"]}}},`+
				`"module_calls":{"inner":{"module":{"outputs":{"bucket":{"expression":{"references":["aws_s3_bucket.this"]}}}}}}}}}}`),
		[]string{},
	}, {
		"an output that names itself leads nowhere, and the block is checked on its own",
		plan(`{"resources":[`+block+`],"child_modules":[{"address":"module.bucket","resources":[`+publicBucket+`]}]}`, blockChange,
			`{`+blockConfig("module.bucket.id")+`,"module_calls":{"bucket":{"module":{"outputs":{"id":{"expression":{"references":["module.bucket.id"]}}},`+
				`"module_calls":{"bucket":{"module":{"outputs":{"id":{"expression":{"references":["module.bucket.id"]}}}}}}}}}}`),
		[]string{"S3_PUBLIC_READ aws_s3_bucket module.bucket.aws_s3_bucket.this[0] @ module.bucket.aws_s3_bucket.this[0].acl"},
	}}
	for _, tt := range tests {
		equalStrings(t, tt.name, findingLines(scanAt(t, tt.input).Findings), tt.want)
	}
}

func TestOutputRef(t *testing.T) {
	for _, c := range []struct{ ref, module, output string }{
		{"module.bucket.s3_bucket_id", "module.bucket.", "s3_bucket_id"},
		{"module.inner.bucket.id", "module.inner.", "bucket"},
		{`module.b["a.b"].ids[0]`, `module.b["a.b"].`, "ids"},
		{"module.bucket", "", ""},
		{"aws_s3_bucket.b.id", "", ""},
		{"module.", "", ""},
		{`module.b["x`, "", ""},
	} {
		module, output, _ := outputRef(c.ref)
		if module != c.module || output != c.output {
			t.Errorf("outputRef(%q) = %q, %q", c.ref, module, output)
		}
	}
}
