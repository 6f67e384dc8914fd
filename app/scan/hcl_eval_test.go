package scan

import (
	"slices"
	"testing"
)

// TestHCLVariableValues: a variable takes its value as Terraform gives it
// one: null passed to a nullable variable stays null (the attribute is
// then unset), null to a non-nullable one takes the default, and a value
// is converted to the variable's type.
func TestHCLVariableValues(t *testing.T) {
	files := []File{
		{Path: "main.tf", Data: []byte(`
module "a" {
  source = "./db"
  public = null
}
module "b" {
  source = "./strict"
  public = null
}
module "c" {
  source = "./db"
  public = "true"
}
`)},
		{Path: "db/main.tf", Data: []byte(`
variable "public" {
  type    = bool
  default = true
}
resource "aws_db_instance" "d" {
  publicly_accessible = var.public
  storage_encrypted   = true
}
`)},
		{Path: "strict/main.tf", Data: []byte(`
variable "public" {
  type     = bool
  default  = true
  nullable = false
}
resource "aws_db_instance" "d" {
  publicly_accessible = var.public
  storage_encrypted   = true
}
`)},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"DB_PUBLIC module.b.aws_db_instance.d strict/main.tf:8", "DB_PUBLIC module.c.aws_db_instance.d db/main.tf:7"}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
