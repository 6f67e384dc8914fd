package scan

import (
	"slices"
	"testing"
)

// TestHCLSetProduct: rules made for every pair of two lists with
// setproduct, a common for_each, are checked; the scanner lacked the
// function, so the for_each was unknown and the SSH rule open to the
// internet was reported as not checked.
func TestHCLSetProduct(t *testing.T) {
	got := hclOutcome(t, `variable "ports" {
  default = [22, 443]
}

variable "cidrs" {
  default = ["0.0.0.0/0", "10.0.0.0/8"]
}

resource "aws_security_group" "bastion" {
  name = "bastion"
}

resource "aws_security_group_rule" "ingress" {
  for_each = { for pair in setproduct(var.ports, var.cidrs) : "${pair[0]}-${pair[1]}" => pair }

  type              = "ingress"
  security_group_id = aws_security_group.bastion.id
  protocol          = "tcp"
  from_port         = each.value[0]
  to_port           = each.value[0]
  cidr_blocks       = [each.value[1]]
}
`)
	want := []string{"SG_ADMIN_PORT_OPEN aws_security_group.bastion main.tf:21"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
