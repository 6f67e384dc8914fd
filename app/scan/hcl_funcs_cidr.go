package scan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"net/netip"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's IP network functions beyond cidrsubnet and cidrhost
// (hcl_scan.go): what VPC modules cut their ranges with.

// cidrSubnetsFunc is cidrsubnets(prefix, newbits...): consecutive subnets
// of the sizes asked, each one after the last, aligned to its own size,
// as Terraform allocates them (a VPC module's usual way of cutting its
// range).
var cidrSubnetsFunc = function.New(&function.Spec{
	Params:   []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam: &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:     function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, bits, base, err := cidrBase(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		end := new(big.Int).Add(base, new(big.Int).Lsh(big.NewInt(1), uint(bits-p.Bits())))
		out := make([]cty.Value, 0, len(args)-1)
		next := new(big.Int).Set(base)
		for i, a := range args[1:] {
			nb, acc := a.AsBigFloat().Int64()
			newLen := int64(p.Bits()) + nb
			if acc != big.Exact || nb < 1 || newLen > int64(bits) {
				return cty.NilVal, fmt.Errorf("invalid newbits %s for prefix /%d (argument %d)", a.AsBigFloat().String(), p.Bits(), i+2)
			}
			size := new(big.Int).Lsh(big.NewInt(1), uint(int64(bits)-newLen))
			// Align up to the subnet's size: the first address at or
			// after next that starts a subnet of this length.
			start := new(big.Int).Add(next, new(big.Int).Sub(size, big.NewInt(1)))
			start.Div(start, size).Mul(start, size)
			if new(big.Int).Add(start, size).Cmp(end) > 0 {
				return cty.NilVal, fmt.Errorf("not enough remaining address space for a subnet with a prefix of %d bits after %s", newLen, out[len(out)-1].AsString())
			}
			out = append(out, cty.StringVal(cidrString(new(big.Int).Set(start), bits, int(newLen))))
			next.Add(start, size)
		}
		return cty.ListVal(out), nil
	},
})

// cidrNetmaskFunc is cidrnetmask: an IPv4 prefix's mask, dotted.
var cidrNetmaskFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.NilVal, fmt.Errorf("invalid CIDR expression: %w", err)
		}
		if !p.Addr().Is4() {
			return cty.NilVal, errors.New("only IPv4 networks have a netmask")
		}
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], ^uint32(0)<<(32-p.Bits()))
		if p.Bits() == 0 {
			b = [4]byte{}
		}
		return cty.StringVal(netip.AddrFrom4(b).String()), nil
	},
})

// cidrContainsFunc is cidrcontains(prefix, address or prefix).
var cidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "containing_prefix", Type: cty.String}, {Name: "contained", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		outer, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.NilVal, fmt.Errorf("invalid CIDR expression: %w", err)
		}
		s := args[1].AsString()
		inner, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return cty.NilVal, fmt.Errorf("invalid IP address or prefix %q", s)
			}
			inner = netip.PrefixFrom(a, a.BitLen())
		}
		if outer.Addr().Is4() != inner.Addr().Is4() {
			return cty.NilVal, errors.New("the address families differ")
		}
		return cty.BoolVal(outer.Masked().Contains(inner.Addr()) && inner.Bits() >= outer.Bits()), nil
	},
})
