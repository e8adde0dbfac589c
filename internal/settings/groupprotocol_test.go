package settings

import (
	"strings"
	"testing"
)

func TestConsumerGroupProtocol(t *testing.T) {
	tests := []struct {
		name    string
		props   map[string]string
		want    map[string]string // values in force; "" means not in force
		wantErr string
	}{
		{name: "classic by default", props: nil,
			want: map[string]string{"group.protocol": "classic", "session.timeout.ms": "45000", "heartbeat.interval.ms": "3000", "group.remote.assignor": ""}},
		{name: "consumer: the broker owns the session, uniform assignor", props: map[string]string{"group.protocol": "CONSUMER"},
			want: map[string]string{"group.protocol": "consumer", "session.timeout.ms": "", "heartbeat.interval.ms": "", "group.remote.assignor": "uniform"}},
		{name: "consumer with range", props: map[string]string{"group.protocol": "consumer", "group.remote.assignor": "range"},
			want: map[string]string{"group.remote.assignor": "range"}},
		{name: "assignor needs the consumer protocol", props: map[string]string{"group.remote.assignor": "range"},
			wantErr: "group.remote.assignor cannot be set when group.protocol=classic (it needs group.protocol=consumer)"},
		{name: "session timeout is the broker's", props: map[string]string{"group.protocol": "consumer", "session.timeout.ms": "10000"},
			wantErr: "session.timeout.ms cannot be set when group.protocol=consumer: the brokers' group.consumer.session.timeout.ms applies"},
		{name: "heartbeat is the broker's", props: map[string]string{"group.protocol": "consumer", "heartbeat.interval.ms": "1000"},
			wantErr: "heartbeat.interval.ms cannot be set when group.protocol=consumer"},
		{name: "assignment strategy is the broker's", props: map[string]string{"group.protocol": "consumer", "partition.assignment.strategy": "x"},
			wantErr: "partition.assignment.strategy cannot be set when group.protocol=consumer"},
		{name: "classic keeps its own rule", props: map[string]string{"heartbeat.interval.ms": "50000"},
			wantErr: "heartbeat.interval.ms=50000 must be lower than session.timeout.ms=45000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(Consumer, tt.props)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if got, ok := r.Values[k]; got != v || ok != (v != "") {
					t.Errorf("%s = %q (in force %v), want %q", k, got, ok, v)
				}
			}
		})
	}
}

func TestGroupProtocol(t *testing.T) {
	for props, want := range map[string]string{"": "classic", "Consumer": "consumer", " classic ": "classic"} {
		m := map[string]string{}
		if props != "" {
			m["group.protocol"] = props
		}
		if got := GroupProtocol(m); got != want {
			t.Errorf("GroupProtocol(%q) = %q, want %q", props, got, want)
		}
	}
}
