package scan

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// longListSource is a module whose list(any) variable holds n numbers,
// made into strings, a set, a sorted list and a joined string; a rule is
// gated on their lengths.
func longListSource(n int) string {
	nums := make([]string, n)
	for i := range nums {
		nums[i] = strconv.Itoa(i)
	}
	return `variable "ports" {
  type    = list(any)
  default = [` + strings.Join(nums, ", ") + `]
}

locals {
  names = [for p in var.ports : "p${p}"]
  n     = length(toset(local.names)) + length(sort(local.names)) + length(join(",", var.ports))
}

resource "aws_security_group_rule" "ssh" {
  count             = local.n > ` + strconv.Itoa(2*n) + ` ? 1 : 0
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = ["0.0.0.0/0"]
}
`
}

// A long list variable, and toset, sort and join of lists that long, are
// evaluated: the rule gated on their lengths is reported. (How the time
// grows with the length is BenchmarkHCLLongList's.)
func TestHCLLongLists(t *testing.T) {
	got := hclOutcome(t, longListSource(5_000))
	want := []string{"SG_ADMIN_PORT_OPEN aws_security_group_rule.ssh[0] main.tf:18"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkHCLLongList prints how the time to evaluate longListSource
// grows from 2,000 numbers to 20,000: about 10x when the conversions are
// linear. go-cty's conversion of a tuple to a list unifies the types of
// all its elements, quadratic (20,000 took 5 s, 100,000 over two
// minutes), which a default of 600 kB or a for expression could ask for.
//
//	go test -run '^$' -bench HCLLongList -benchtime 1x ./app/scan/
func BenchmarkHCLLongList(b *testing.B) {
	timeOf := func(n int) time.Duration {
		src := longListSource(n)
		start := time.Now()
		hclOutcome(b, src)
		return time.Since(start)
	}
	for i := 0; i < b.N; i++ {
		small, large := timeOf(2_000), timeOf(20_000)
		ratio := float64(large) / float64(small)
		fmt.Printf("HCL long lists: 2,000 numbers %v, 20,000 %v: %.1fx for 10x the length (linear: about 10x)\n", small, large, ratio)
		b.ReportMetric(ratio, "x_for_10x_length")
	}
}
