package rebalance

import (
	"strings"
	"testing"
	"time"
)

func TestParseSchedule(t *testing.T) {
	got, err := ParseSchedule(" join@20s, leave@40s,kill@1m, stall@70s/2.5s ")
	if err != nil {
		t.Fatal(err)
	}
	want := []Scheduled{{Join, 20 * time.Second, 0}, {Leave, 40 * time.Second, 0}, {Kill, time.Minute, 0}, {Stall, 70 * time.Second, 2500 * time.Millisecond}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if s := FormatSchedule(got); s != "join@20s, leave@40s, kill@1m0s, stall@1m10s/2.5s" {
		t.Errorf("formatted %q", s)
	}
}

func TestParseScheduleRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "holds no event"},
		{"join", "is not kind@time"},
		{"crash@10s", `event kind "crash"`},
		{"kill@-1s", "not a positive time"},
		{"kill@soon", "not a positive time"},
		{"stall@10s", "a stall needs its length"},
		{"kill@10s/2s", "only a stall takes a length"},
		{"stall@10s/0s", "not a positive length"},
		{"join@20s, leave@10s", "is not after"},
		{"join@20s, leave@20s", "is not after"},
	} {
		_, err := ParseSchedule(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}
