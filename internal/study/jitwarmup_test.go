package study

import (
	"testing"
	"time"
)

// The embedded cluster's warm-up bound: a minute unless the study says otherwise, 0 to
// skip it, never negative, and nothing to say about a cluster kbench does not start.
func TestParseJITWarmup(t *testing.T) {
	for _, tc := range []struct {
		cluster string
		want    time.Duration
		err     string
	}{
		{cluster: "{brokers: 3}", want: time.Minute},
		{cluster: "{jit_warmup: 15s}", want: 15 * time.Second},
		{cluster: "{jit_warmup: 0s}", want: 0},
		{cluster: "{jit_warmup: -5s}", err: `f.yaml:2: cluster.jit_warmup: "-5s" is not a duration such as 5s or 1m`},
		{cluster: "{jit_warmup: soon}", err: `cluster.jit_warmup: "soon" is not a duration`},
		{cluster: "{jit_warmup: 30s, external: {bootstrap: k:9092}}", err: "cluster.jit_warmup: applies only to the embedded cluster"},
	} {
		plan := parseCluster(t, tc.cluster, tc.err)
		if plan == nil {
			continue
		}
		if plan.Cluster.JITWarmup != tc.want {
			t.Errorf("%s: jit_warmup %s, want %s", tc.cluster, plan.Cluster.JITWarmup, tc.want)
		}
	}
}
