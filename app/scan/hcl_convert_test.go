package scan

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHCLLongListsConvertInLinearTime: a list(any) variable of 30,000
// numbers, and toset, sort and join of lists that long, are evaluated in
// about a second: go-cty's conversion of a tuple to a list sorts the
// types of all its elements, quadratic (20,000 took 5 s, 100,000 over
// two minutes), which a default of 600 kB or one for expression could
// ask for. The rule gated on their lengths is reported.
func TestHCLLongListsConvertInLinearTime(t *testing.T) {
	nums := make([]string, 30_000)
	for i := range nums {
		nums[i] = strconv.Itoa(i)
	}
	src := `variable "ports" {
  type    = list(any)
  default = [` + strings.Join(nums, ", ") + `]
}

locals {
  names = [for p in var.ports : "p${p}"]
  n     = length(toset(local.names)) + length(sort(local.names)) + length(join(",", var.ports))
}

resource "aws_security_group_rule" "ssh" {
  count             = local.n > 60000 ? 1 : 0
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = ["0.0.0.0/0"]
}
`
	start := time.Now()
	got := hclOutcome(t, src)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	want := []string{"SG_ADMIN_PORT_OPEN aws_security_group_rule.ssh[0] main.tf:18"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
