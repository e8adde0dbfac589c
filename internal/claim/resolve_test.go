package claim

import (
	"slices"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	sc := func(id string) Scenario {
		p := map[string]string{}
		for _, kv := range strings.Split(id, ",") {
			k, v, _ := strings.Cut(kv, "=")
			p[k] = v
		}
		return Scenario{ID: id, Params: p}
	}
	scenarios := []Scenario{
		sc("threads=4,batch=10,replicas=1"),
		sc("threads=4,batch=10,replicas=1,compression=gzip"),
		sc("threads=4,batch=10,replicas=1,compression=snappy"),
		sc("threads=4,batch=10,replicas=1,partitions=3"),
		sc("threads=4,batch=10,replicas=2"),
		sc("threads=4,batch=10,replicas=2,mode=sync"),
	}
	tests := []struct {
		side    string
		want    []string
		wantErr string
	}{
		// all of a scenario's parameters name it, though three others include them
		{"mbps(threads=4,batch=10,replicas=1)", []string{"threads=4,batch=10,replicas=1"}, ""},
		{"mbps(replicas=1,batch=10,threads=4)", []string{"threads=4,batch=10,replicas=1"}, ""},
		// some parameters that only one scenario has
		{"mbps(compression=gzip)", []string{"threads=4,batch=10,replicas=1,compression=gzip"}, ""},
		{"mbps(replicas=2)", nil, "mb_per_sec(replicas=2) selects 2 scenarios (threads=4,batch=10,replicas=2; " +
			"threads=4,batch=10,replicas=2,mode=sync): name one by all its parameters, or ask for an aggregate such as mean(mb_per_sec(replicas=2))"},
		{"p99(replicas=2)", nil, "or ask for an aggregate such as max(p99(replicas=2))"},
		// an aggregate takes every scenario that includes the selection, the exact one too
		{"mean(mbps(threads=4,batch=10,replicas=1))", []string{"threads=4,batch=10,replicas=1",
			"threads=4,batch=10,replicas=1,compression=gzip", "threads=4,batch=10,replicas=1,compression=snappy",
			"threads=4,batch=10,replicas=1,partitions=3"}, ""},
		{"mbps(replicas=3)", nil, "mb_per_sec(replicas=3) matches no scenario"},
	}
	for _, tt := range tests {
		got, err := MustParse(tt.side + " > 1").Left.Resolve(scenarios)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.side, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, %v; want %v", tt.side, got, err, tt.want)
		}
	}
	// the claim kafka08-tuning once made: the left mean holds the gzip scenario itself
	_, _, err := MustParse("mean(mbps(threads=4,batch=10,replicas=1)) > mbps(compression=gzip)").Resolve(scenarios)
	if want := "both sides select scenario(s) threads=4,batch=10,replicas=1,compression=gzip"; err == nil || err.Error() != want {
		t.Errorf("overlapping sides: error %v, want %q", err, want)
	}
	l, r, err := MustParse("mbps(threads=4,batch=10,replicas=1) > mbps(compression=gzip)").Resolve(scenarios)
	if err != nil || len(l) != 1 || len(r) != 1 {
		t.Errorf("disjoint sides: %v %v %v", l, r, err)
	}
}
