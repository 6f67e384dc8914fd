package logs

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParams(t *testing.T) {
	in := strings.Join([]string{
		"Mar 18 09:14:07 host sshd[1]: Connection from 10.0.0.1 port 22",
		"Mar 18 09:14:08 host sshd[1]: Connection from 10.0.0.2 port 22",
		"Mar 18 09:14:09 host sshd[1]: Connection from 10.0.0.1 port 22",
		"Mar 18 09:14:10 host sshd[1]: Connection from 10.0.0.3 port 2222",
		"Mar 18 09:14:11 host sshd[1]: Connection from 10.0.0.1 port 22",
		"Mar 18 09:14:12 host sshd[1]: session opened for user bob",
		"Mar 18 09:14:13 host sshd[1]: session opened for user alice",
		"Mar 18 09:14:14 host sshd[1]: session opened for user carol",
		"Mar 18 09:14:15 host sshd[1]: session opened for user alice",
		"Mar 18 09:14:16 host sshd[1]: took 12 ms to reply",
	}, "\n")
	res := analyze(t, in, Options{IncludeParams: true})
	want := map[string][]Param{
		"Connection from 10.0.0.<*> port <*>": {
			{2, []ParamValue{{"10.0.0.1", 3}, {"10.0.0.2", 1}, {"10.0.0.3", 1}}},
			{4, []ParamValue{{"22", 4}, {"2222", 1}}},
		},
		"session opened for user <*>": {{4, []ParamValue{{"alice", 2}, {"bob", 1}, {"carol", 1}}}},
		"took <*> ms to reply":        {{1, []ParamValue{{"12 ms", 1}}}},
	}
	for _, tm := range res.Templates {
		if w, ok := want[tm.Template]; ok {
			if !reflect.DeepEqual(tm.Params, w) {
				t.Errorf("%q params %+v, want %+v", tm.Template, tm.Params, w)
			}
			delete(want, tm.Template)
		}
	}
	for tm := range want {
		t.Errorf("no template %q: %+v", tm, res.Templates)
	}
	if res := analyze(t, in, Options{}); res.Templates[0].Params != nil {
		t.Error("params without IncludeParams")
	}
}

// At most TopParamValues values are reported, and at most MaxParamValues
// distinct values are tracked per position.
func TestParamsBounded(t *testing.T) {
	var b strings.Builder
	for i := range MaxParamValues + 500 {
		fmt.Fprintf(&b, "job %d done\n", i)
		if i%100 == 0 {
			b.WriteString("job 7 done\n")
		}
	}
	res := analyze(t, b.String(), Options{IncludeParams: true})
	p := res.Templates[0].Params
	if len(p) != 1 || len(p[0].Values) != TopParamValues || p[0].Values[0] != (ParamValue{"7", 16}) {
		t.Fatalf("params %+v", p)
	}
	if p[0].Values[1].Value != "0" {
		t.Errorf("ties are not in the order first seen: %+v", p[0].Values)
	}
	var vc valueCounts
	for i := range MaxParamValues + 10 {
		vc.add(fmt.Sprint(i), 1, int32(i))
	}
	if len(vc.vals) != MaxParamValues {
		t.Errorf("%d values tracked, want at most %d", len(vc.vals), MaxParamValues)
	}
}
