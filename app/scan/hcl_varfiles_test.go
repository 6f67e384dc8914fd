package scan

import "testing"

// TestSourceWarnsOfVarFilesNotRead: a variable file that Terraform reads
// only with -var-file (one per environment, as repositories keep them) is
// not read, as Terraform does not read it by itself, and the result now
// says so: the open CIDR it sets was unknown and the clean result gave no
// reason. terraform.tfvars and *.auto.tfvars of the root are read, and a
// terraform.tfvars in a module's directory is not.
func TestSourceWarnsOfVarFilesNotRead(t *testing.T) {
	res, err := ScanFiles([]File{
		{Path: "main.tf", Data: []byte(`variable "cidrs" {
  type = list(string)
}
variable "name" {
  type = string
}
resource "aws_security_group" "x" {
  name = var.name
  ingress {
    from_port   = 3389
    to_port     = 3389
    protocol    = "tcp"
    cidr_blocks = var.cidrs
  }
}
`)},
		{Path: "terraform.tfvars", Data: []byte(`name = "x"` + "\n")},
		{Path: "envs/prod.tfvars", Data: []byte(`cidrs = ["0.0.0.0/0"]` + "\n")},
		{Path: "dev.tfvars.json", Data: []byte(`{"cidrs": ["10.0.0.0/8"]}`)},
		{Path: "modules/x/terraform.tfvars", Data: []byte(`a = 1` + "\n")},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings %v: the CIDRs are unknown", summarize(res.Findings))
	}
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %+v: want one", res.Warnings)
	}
	equalStrings(t, "files", res.Warnings[0].Resources, []string{"dev.tfvars.json", "envs/prod.tfvars", "modules/x/terraform.tfvars"})
	if res.Warnings[0].Count != 3 {
		t.Errorf("count %d", res.Warnings[0].Count)
	}

	res, err = ScanFiles([]File{
		{Path: "main.tf", Data: []byte(`variable "a" {}` + "\n")},
		{Path: "terraform.tfvars.json", Data: []byte(`{"a": 1}`)},
		{Path: "prod.auto.tfvars", Data: []byte(`a = 2` + "\n")},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %+v: the files sent are read", res.Warnings)
	}
}
