package target

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/metrics"
)

func TestServes(t *testing.T) {
	dir := t.TempDir()
	clustertest.WriteStoppedState(t, dir)
	c, err := cluster.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for bootstrap, want := range map[string]bool{
		"127.0.0.1:19092":             true,
		"localhost:19093":             true, // the same loopback address
		" 10.0.0.1:9092, [::1]:19092": true, // one of the list is enough
		"PLAINTEXT://127.0.0.1:19092": true,
		"127.0.0.1:9092":              false,
		"kafka-1:19092":               false,
		"":                            false,
	} {
		if got := Serves(c, bootstrap); got != want {
			t.Errorf("Serves(%q) = %v, want %v", bootstrap, got, want)
		}
	}
}

// --metrics-url values with IDs need no cluster; bad ones are one line naming the flag.
// (Pairing URLs without IDs with node ids: metrics.TestAssignBrokerURLs.)
func TestOpenWithMetricsURLs(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		in      []string
		want    []metrics.BrokerTarget
		wantErr string
	}{
		{in: []string{"0=http://a:7071/metrics", "5=https://b/metrics"},
			want: []metrics.BrokerTarget{{ID: 0, MetricsURL: "http://a:7071/metrics"}, {ID: 5, MetricsURL: "https://b/metrics"}}},
		{in: []string{"1=http://a:7071/metrics?x=1"}, // '=' in the query is not an id
			want: []metrics.BrokerTarget{{ID: 1, MetricsURL: "http://a:7071/metrics?x=1"}}},
		{in: []string{"a:7071"}, wantErr: `--metrics-url "a:7071": want [ID=]http://host:port/metrics`},
		{in: []string{"one=http://a/metrics"}, wantErr: `"one" is not a broker id`},
	}
	for _, tt := range tests {
		// A bootstrap address nothing listens on: IDs given, nothing is dialled.
		got, err := Open(context.Background(), Spec{Bootstrap: "127.0.0.1:1", ClusterDir: empty, MetricsURLs: tt.in})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || fmt.Sprint(got.Sampled) != fmt.Sprint(tt.want) || got.Proc || got.Embedded != nil {
			t.Errorf("%q: got %+v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// A URL given as ID=URL belongs to that broker; the others, and the PIDs, to the brokers in
// node-id order; brokers past the last URL have no source, and more URLs than brokers is
// refused.
func TestExternalBrokers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ids     []int
		urls    []string
		pids    []int
		want    []metrics.BrokerTarget
		wantErr string
	}{
		{name: "no source", ids: []int{3, 1, 2},
			want: []metrics.BrokerTarget{{ID: 1}, {ID: 2}, {ID: 3}}},
		{name: "some urls", ids: []int{5, 4, 6}, urls: []string{"http://a/m", "http://b/m"},
			want: []metrics.BrokerTarget{{ID: 4, MetricsURL: "http://a/m"}, {ID: 5, MetricsURL: "http://b/m"}, {ID: 6}}},
		{name: "urls and pids", ids: []int{0, 1}, urls: []string{"http://u0/m", "http://u1/m"}, pids: []int{10, 11},
			want: []metrics.BrokerTarget{{ID: 0, MetricsURL: "http://u0/m", PID: 10}, {ID: 1, MetricsURL: "http://u1/m", PID: 11}}},
		{name: "urls by id", ids: []int{1, 2, 3}, urls: []string{"3=http://c/m", "http://a/m"},
			want: []metrics.BrokerTarget{{ID: 1, MetricsURL: "http://a/m"}, {ID: 2}, {ID: 3, MetricsURL: "http://c/m"}}},
		{name: "too many urls", ids: []int{1}, urls: []string{"http://u1/m", "http://u2/m"}, wantErr: "2 metrics URL(s) given but the cluster has 1 broker(s) (node ids 1)"},
		{name: "too many pids", ids: []int{1}, pids: []int{7, 8}, wantErr: "2 broker PIDs given but the cluster has 1 broker(s)"},
	} {
		got, err := ExternalBrokers(tc.ids, tc.urls, tc.pids)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}
