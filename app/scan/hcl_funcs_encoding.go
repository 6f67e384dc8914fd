package scan

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	"go.yaml.in/yaml/v3"
)

// Terraform's encoding, hash, file-content and time functions: names,
// user data and tags are built with them, and a for_each keyed on one
// was unknown without them.

func hashed(h func() hash.Hash, enc func([]byte) string) func([]byte) string {
	return func(b []byte) string {
		x := h()
		x.Write(b)
		return enc(x.Sum(nil))
	}
}

func hashFunc(h func() hash.Hash, enc func([]byte) string) function.Function {
	f := hashed(h, enc)
	return stringFunc(func(s string) (string, error) { return f([]byte(s)), nil })
}

// fileFunc is one of the file* functions: f of the content of a file sent.
func (ev *hclEval) fileFunc(f func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			data, err := ev.readFile(args[0].AsString())
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(f(data)), nil
		},
	})
}

// fileExistsFunc is fileexists: whether the file was sent. A file left
// out of what was sent may exist where Terraform runs, so the answer is
// unknown rather than false.
func (ev *hclEval) fileExistsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if _, err := ev.readFile(args[0].AsString()); err != nil {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.True, nil
		},
	})
}

// timeCmpFunc is timecmp: -1, 0 or 1 as the first RFC 3339 timestamp is
// before, at or after the second.
var timeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "a", Type: cty.String}, {Name: "b", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		a, err := time.Parse(time.RFC3339, args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		b, err := time.Parse(time.RFC3339, args[1].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.NumberIntVal(int64(a.Compare(b))), nil
	},
})

// base64Text is base64decode: the result must be UTF-8 text.
func base64Text(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("failed to decode base64 data: %w", err)
	}
	if !utf8.Valid(b) {
		return "", errors.New("the result of decoding the base64 string is not valid UTF-8")
	}
	return string(b), nil
}

func base64Gzip(s string) (string, error) {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}

// textEncodeFunc is textencodebase64 for UTF-8 and UTF-16 (the
// encodings Windows user data uses); another encoding leaves the value
// unknown.
var textEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "string", Type: cty.String}, {Name: "encoding", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s := args[0].AsString()
		var b []byte
		switch enc := strings.ToUpper(strings.ReplaceAll(args[1].AsString(), "_", "-")); enc {
		case "UTF-8", "UTF8":
			b = []byte(s)
		case "UTF-16LE", "UTF-16BE", "UTF-16":
			for _, u := range utf16.Encode([]rune(s)) {
				if enc == "UTF-16LE" {
					b = binary.LittleEndian.AppendUint16(b, u)
				} else {
					b = binary.BigEndian.AppendUint16(b, u)
				}
			}
		default:
			return cty.NilVal, fmt.Errorf("encoding %q is not supported by the scanner", args[1].AsString())
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
	},
})

// textDecodeFunc is textdecodebase64 for the same encodings.
var textDecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "source", Type: cty.String}, {Name: "encoding", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		b, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		switch enc := strings.ToUpper(strings.ReplaceAll(args[1].AsString(), "_", "-")); enc {
		case "UTF-8", "UTF8":
			if !utf8.Valid(b) {
				return cty.NilVal, errors.New("not valid UTF-8")
			}
			return cty.StringVal(string(b)), nil
		case "UTF-16LE", "UTF-16BE", "UTF-16":
			if len(b)%2 != 0 {
				return cty.NilVal, errors.New("not valid UTF-16")
			}
			u := make([]uint16, len(b)/2)
			for i := range u {
				if enc == "UTF-16LE" {
					u[i] = binary.LittleEndian.Uint16(b[2*i:])
				} else {
					u[i] = binary.BigEndian.Uint16(b[2*i:])
				}
			}
			return cty.StringVal(string(utf16.Decode(u))), nil
		}
		return cty.NilVal, fmt.Errorf("encoding %q is not supported by the scanner", args[1].AsString())
	},
})

// yamlEncodeFunc is yamlencode, through the value's JSON form (the
// formatting may differ from Terraform's in style, not in content).
var yamlEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		j, err := stdlib.JSONEncode(args[0])
		if err != nil {
			return cty.NilVal, err
		}
		var v any
		if err := yaml.Unmarshal([]byte(j.AsString()), &v); err != nil {
			return cty.NilVal, err
		}
		out, err := yaml.Marshal(v)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(string(out)), nil
	},
})

// uuidV5Func is uuidv5(namespace, name): a name-based UUID (SHA-1).
var uuidV5Func = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "namespace", Type: cty.String}, {Name: "name", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ns := map[string]string{"dns": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "url": "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
			"oid": "6ba7b812-9dad-11d1-80b4-00c04fd430c8", "x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8"}[args[0].AsString()]
		if ns == "" {
			ns = args[0].AsString()
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(ns, "-", ""))
		if err != nil || len(raw) != 16 {
			return cty.NilVal, fmt.Errorf("uuidv5: namespace %q is not a UUID", args[0].AsString())
		}
		h := sha1.New()
		h.Write(raw)
		h.Write([]byte(args[1].AsString()))
		u := h.Sum(nil)[:16]
		u[6] = u[6]&0x0f | 0x50
		u[8] = u[8]&0x3f | 0x80
		x := hex.EncodeToString(u)
		return cty.StringVal(x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]), nil
	},
})
