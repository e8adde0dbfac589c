package report

import (
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// On a shared host without CPU quotas the brokers' allotment is a share of the host's cores:
// a saturated host is the limit, not the broker that used most of its share. With a quota the
// broker's own CPU is.
func TestSharedHostBusy(t *testing.T) {
	shared := results.Environment{BrokerCPUBasis: "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)"}
	quota := results.Environment{BrokerCPUBasis: "0.5 cores: the broker's own CPU quota"}
	for _, tc := range []struct {
		name string
		m    measured
		env  results.Environment
		want bool
	}{
		{"shared host, 97% busy", measured{hasHost: true, hostPct: 97}, shared, true},
		{"shared host at the threshold", measured{hasHost: true, hostPct: hostCPUBusy}, shared, true},
		{"shared host, 80% busy", measured{hasHost: true, hostPct: 80}, shared, false},
		{"own quota, 97% busy", measured{hasHost: true, hostPct: 97}, quota, false},
		{"remote brokers", measured{hasHost: true, hostPct: 97, remote: true}, shared, false},
		{"host not measured", measured{}, shared, false},
	} {
		if got := sharedHostBusy(tc.m, tc.env); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
