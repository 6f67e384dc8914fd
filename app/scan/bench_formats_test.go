package scan

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// benchPlan builds a Terraform plan of n managed resources as `terraform
// show -json` writes it: planned_values in ten modules, resource_changes
// with after_unknown, and the configuration with expression references.
// It mixes buckets with linked ACLs and access blocks, groups with linked
// rules, policies, databases and unchecked types, clean and failing.
func benchPlan(n int) []byte {
	type res struct{ addr, typ, values, unknown, exprs string }
	var planned, changes []byte
	config := map[int][]byte{}
	mods := 10
	for i := 0; i < n; i++ {
		k := strconv.Itoa(i / 10)
		var r res
		switch i % 10 {
		case 0:
			r = res{"aws_s3_bucket.b" + k, "aws_s3_bucket", `{"bucket":"bucket-` + k + `","force_destroy":false,"tags":{"team":"t"}}`, `{"arn":true,"id":true}`, `{"bucket":{"constant_value":"bucket-` + k + `"}}`}
		case 1:
			acl := "private"
			if i%20 == 1 {
				acl = "public-read"
			}
			r = res{"aws_s3_bucket_acl.b" + k, "aws_s3_bucket_acl", `{"acl":"` + acl + `"}`, `{"bucket":true,"id":true}`, `{"bucket":{"references":["aws_s3_bucket.b` + k + `.id","aws_s3_bucket.b` + k + `"]}}`}
		case 2:
			r = res{"aws_s3_bucket_public_access_block.b" + k, "aws_s3_bucket_public_access_block", `{"block_public_acls":true,"block_public_policy":true,"ignore_public_acls":true,"restrict_public_buckets":false}`, `{"bucket":true,"id":true}`, `{"bucket":{"references":["aws_s3_bucket.b` + k + `.id","aws_s3_bucket.b` + k + `"]}}`}
		case 3:
			r = res{"aws_security_group.g" + k, "aws_security_group", `{"name":"g` + k + `","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":443,"to_port":443,"protocol":"tcp","ipv6_cidr_blocks":[],"prefix_list_ids":[],"security_groups":[],"self":false,"description":""}]}`, `{"arn":true,"id":true,"vpc_id":true}`, `{"name":{"constant_value":"g` + k + `"}}`}
		case 4:
			r = res{"aws_security_group_rule.g" + k, "aws_security_group_rule", `{"type":"ingress","from_port":22,"to_port":22,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"],"self":false}`, `{"id":true,"security_group_id":true}`, `{"security_group_id":{"references":["aws_security_group.g` + k + `.id","aws_security_group.g` + k + `"]}}`}
		case 5:
			r = res{"aws_iam_policy.p" + k, "aws_iam_policy", `{"name":"p` + k + `","path":"/","policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\",\"s3:*\"],\"Resource\":\"arn:aws:s3:::b/*\"}]}"}`, `{"arn":true,"id":true}`, `{"name":{"constant_value":"p` + k + `"}}`}
		case 6:
			r = res{"aws_db_instance.d" + k, "aws_db_instance", `{"engine":"postgres","instance_class":"db.t4g.micro","publicly_accessible":false,"storage_encrypted":true,"allocated_storage":20}`, `{"arn":true,"id":true,"endpoint":true}`, `{"engine":{"constant_value":"postgres"}}`}
		case 7:
			r = res{"aws_rds_cluster.c" + k, "aws_rds_cluster", `{"engine":"aurora-postgresql","engine_mode":"provisioned"}`, `{"arn":true,"id":true}`, `{"engine":{"constant_value":"aurora-postgresql"}}`}
		case 8:
			r = res{"aws_instance.i" + k, "aws_instance", `{"ami":"ami-123","instance_type":"t3.micro","tags":{"Name":"i"}}`, `{"arn":true,"id":true,"private_ip":true}`, `{"ami":{"constant_value":"ami-123"}}`}
		case 9:
			r = res{"aws_s3_bucket.l" + k + "[0]", "aws_s3_bucket", `{"bucket":"logs-` + k + `"}`, `{"arn":true,"id":true}`, `{"bucket":{"constant_value":"logs-` + k + `"}}`}
		}
		m := i % mods
		module := "module.m" + strconv.Itoa(m) + "."
		addr := module + r.addr
		if len(planned) > 0 {
			planned = append(planned, ',')
			changes = append(changes, ',')
		}
		planned = append(planned, `{"address":`+strconv.Quote(addr)+`,"mode":"managed","type":"`+r.typ+`","name":"x","provider_name":"registry.terraform.io/hashicorp/aws","schema_version":0,"values":`+r.values+`,"sensitive_values":{}}`...)
		changes = append(changes, `{"address":`+strconv.Quote(addr)+`,"module_address":"`+module[:len(module)-1]+`","mode":"managed","type":"`+r.typ+`","name":"x","change":{"actions":["create"],"before":null,"after":`+r.values+`,"after_unknown":`+r.unknown+`,"before_sensitive":false,"after_sensitive":{}}}`...)
		local := r.addr
		if i%10 == 9 {
			local = local[:len(local)-3]
		}
		if len(config[m]) > 0 {
			config[m] = append(config[m], ',')
		}
		config[m] = append(config[m], `{"address":"`+local+`","mode":"managed","type":"`+r.typ+`","name":"x","provider_config_key":"aws","expressions":`+r.exprs+`,"schema_version":0}`...)
	}
	b := []byte(`{"format_version":"1.2","terraform_version":"1.9.5","planned_values":{"root_module":{"child_modules":[`)
	for m := 0; m < mods; m++ {
		if m > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"address":"module.m`+strconv.Itoa(m)+`","resources":[`...)
		// planned_values lists each module's resources together.
		b = append(b, filterModule(planned, m, mods)...)
		b = append(b, `]}`...)
	}
	b = append(b, `]}},"resource_changes":[`...)
	b = append(b, changes...)
	b = append(b, `],"configuration":{"root_module":{"module_calls":{`...)
	for m := 0; m < mods; m++ {
		if m > 0 {
			b = append(b, ',')
		}
		b = append(b, `"m`+strconv.Itoa(m)+`":{"source":"./m","module":{"resources":[`...)
		b = append(b, config[m]...)
		b = append(b, `]}}`...)
	}
	b = append(b, `}}}}`...)
	return b
}

// filterModule picks the resources of module m out of the planned list.
func filterModule(planned []byte, m, mods int) []byte {
	var list []json.RawMessage
	if err := json.Unmarshal(append(append([]byte{'['}, planned...), ']'), &list); err != nil {
		panic(err)
	}
	var out []byte
	for i := m; i < len(list); i += mods {
		if len(out) > 0 {
			out = append(out, ',')
		}
		out = append(out, list[i]...)
	}
	return out
}

func TestBenchPlanIsValid(t *testing.T) {
	res, err := ScanWith(benchPlan(200), Options{NoSizeLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	// Per 10 resources: one public bucket every other block, one open SSH
	// rule, one service wildcard, one unencrypted cluster.
	var n [numRules]int
	for _, f := range res.Findings {
		id, _ := ruleByID(f.Rule)
		n[id]++
	}
	if n[ruleS3PublicRead] != 10 || n[ruleSGAdminPortOpen] != 20 || n[ruleIAMServiceWildcard] != 20 || n[ruleDBUnencrypted] != 20 || len(res.Findings) != 70 {
		t.Errorf("findings by rule %v (%d)", n, len(res.Findings))
	}
	if len(res.NotChecked) != 1 || res.NotChecked[0].Count != 20 {
		t.Errorf("not checked %+v", res.NotChecked)
	}
}

// BenchmarkPlanVsDecode scans a 50,000-resource plan and decodes the same
// bytes with encoding/json into any, alternating both in one run, and
// reports the ratio. Target: scan/decode <= 1.5.
func BenchmarkPlanVsDecode(b *testing.B) {
	data := benchPlan(MaxResources)
	b.SetBytes(int64(len(data)))
	var scan, decode time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := ScanWith(data, Options{NoSizeLimit: true}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		scan += t1.Sub(t0)
		decode += time.Since(t1)
	}
	b.ReportMetric(float64(len(data))/(1<<20), "MiB")
	b.ReportMetric(float64(scan)/float64(decode), "scan/decode")
}
