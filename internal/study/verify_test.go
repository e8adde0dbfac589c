package study

import (
	"strings"
	"testing"
	"time"
)

// TestVerifySection decodes a durability check in defaults, overrides it for one listed
// scenario, and refuses the combinations it cannot run.
func TestVerifySection(t *testing.T) {
	src := `name: ver
cluster: {brokers: 3}
defaults:
  producers: {duration: 5s}
  verify: {faults: "leader-kill x3 every 5s", duration: 40s}
scenarios:
  - {acks: all}
  - {acks: "1", set: {verify.rate: 3000}}
`
	plan, err := Parse("ver.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v := plan.Scenarios[0].Verify
	if !v.Enabled() || v.Faults != "leader-kill x3 every 5s" || v.Duration != 40*time.Second || v.Rate != DefaultVerifyRate {
		t.Errorf("verify = %+v", v)
	}
	if got := plan.Scenarios[1].Verify.Rate; got != 3000 {
		t.Errorf("listed scenario's rate = %d, want 3000", got)
	}
	// 40 s of load + 30 s for the topic, the recovery and the read-back = 70 s.
	if got := plan.Scenarios[0].Verify.Estimate(); got != 70*time.Second {
		t.Errorf("estimate = %v, want 70s", got)
	}
	for _, tt := range []struct{ name, defaults, says string }{
		{"faults without duration", `verify: {faults: leader-kill}`, "verify.faults"},
		{"acks=0", "verify: {duration: 10s}\n  producers: {duration: 5s, properties: {acks: \"0\"}}", "acks=0"},
		{"negative duration", `verify: {duration: -5s}`, "verify.duration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: bad\ncluster: {brokers: 3}\ndefaults:\n  " + tt.defaults + "\n"
			_, err := Parse("bad.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Parse = %v, want an error naming %q", err, tt.says)
			}
		})
	}
}
