package faults

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/cluster"
)

func meta(parts ...kadm.PartitionDetail) kadm.Metadata {
	pd := kadm.PartitionDetails{}
	for _, p := range parts {
		pd[p.Partition] = p
	}
	return kadm.Metadata{Topics: kadm.TopicDetails{"t": {Topic: "t", Partitions: pd}}}
}

func TestShortPartitions(t *testing.T) {
	full := kadm.PartitionDetail{Partition: 0, Leader: 1, Replicas: []int32{1, 2, 3}, ISR: []int32{1, 2, 3}}
	shrunk := kadm.PartitionDetail{Partition: 1, Leader: 3, Replicas: []int32{2, 3, 1}, ISR: []int32{3, 1}}
	leaderless := kadm.PartitionDetail{Partition: 2, Leader: -1, Replicas: []int32{2}, ISR: []int32{}}
	got, err := shortPartitions(meta(full, shrunk, leaderless), "t")
	if err != nil {
		t.Fatal(err)
	}
	want := "t-1 (isr [1 3] of replicas [2 3 1])|t-2 (no leader)"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, _ := shortPartitions(meta(full), "t"); len(got) != 0 {
		t.Errorf("full ISR reported short: %v", got)
	}
	if _, err := shortPartitions(meta(full), "other"); err == nil {
		t.Error("missing topic: no error")
	}
	// Seven short partitions: five named, two counted.
	if got := listShort([]string{"a", "b", "c", "d", "e", "f", "g"}); got != "a, b, c, d, e and 2 more" {
		t.Errorf("listShort = %q", got)
	}
}

func TestRoleOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		pd   kadm.PartitionDetail
		role Role
		want int32
		err  string
	}{
		{"leader", kadm.PartitionDetail{Leader: 2, ISR: []int32{2, 3, 1}}, Leader, 2, ""},
		// The ISR minus the leader is {3, 1}: the lowest id, 1.
		{"follower", kadm.PartitionDetail{Leader: 2, ISR: []int32{2, 3, 1}}, Follower, 1, ""},
		{"no follower", kadm.PartitionDetail{Leader: 2, ISR: []int32{2}}, Follower, 0, "no in-sync follower (leader 2, isr [2])"},
		{"no leader", kadm.PartitionDetail{Leader: -1, Replicas: []int32{1}, ISR: []int32{}}, Leader, 0, "no leader"},
	} {
		got, err := roleOf(tc.pd, tc.role)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
}

func TestQuorumSurvives(t *testing.T) {
	// The embedded layout: brokers 1-3 are controllers, 4 and 5 brokers only.
	brokers := []cluster.Broker{{ID: 1, Controller: true}, {ID: 2, Controller: true}, {ID: 3, Controller: true}, {ID: 4}, {ID: 5}}
	for _, tc := range []struct {
		killed []int32
		ok     bool
	}{
		{[]int32{4, 5}, true},     // no controller stops: 3 of 3 remain
		{[]int32{3, 4}, true},     // 1 of 3 stops: 2 remain, a majority
		{[]int32{2, 3}, false},    // 2 of 3 stop: 1 remains, no majority
		{[]int32{1, 2, 3}, false}, // all stop
	} {
		err := quorumSurvives(brokers, tc.killed, "t-0")
		if (err == nil) != tc.ok {
			t.Errorf("killed %v: err %v, want ok=%v", tc.killed, err, tc.ok)
		}
	}
	err := quorumSurvives(brokers, []int32{2, 3}, "t-0")
	if err == nil || !strings.Contains(err.Error(), "truncate of t-0 would kill KRaft controllers [2 3] of [1 2 3] at once") {
		t.Errorf("message: %v", err)
	}
}
