package agent

import (
	"strings"
	"testing"
	"time"
)

func TestDetector(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	tests := []struct {
		name string
		// seen lists (agent, ms after t0) messages before the check at checkMs.
		seen []struct {
			agent string
			ms    int
		}
		checkMs int
		want    string // "" no error, else a substring
	}{
		// Nothing heard since the start, 3.0 s later: not past the 3 s limit.
		{name: "at the limit", checkMs: 3000},
		// 3.001 s of silence from the start: both silent, a sorts first.
		{name: "all silent", checkMs: 3001, want: "agent a silent for 3.0 s"},
		// a spoke at 1 s, b at 0.5 s: at 3.6 s b is 3.1 s silent, a only 2.6 s.
		{name: "one silent", seen: []struct {
			agent string
			ms    int
		}{{"a", 1000}, {"b", 500}}, checkMs: 3600, want: "agent b silent for 3.1 s"},
		// Heartbeats each second keep both alive at 10 s.
		{name: "heartbeats", seen: []struct {
			agent string
			ms    int
		}{{"a", 7500}, {"b", 8000}, {"a", 9500}}, checkMs: 10000},
		// A stranger's messages neither help nor hurt; an old message does not turn the clock back.
		{name: "stranger and reordering", seen: []struct {
			agent string
			ms    int
		}{{"x", 9000}, {"a", 9000}, {"a", 100}, {"b", 9500}}, checkMs: 11000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDetector([]string{"a", "b"}, t0, SilenceLimit)
			for _, s := range tt.seen {
				d.seen(s.agent, at(s.ms))
			}
			err := d.check(at(tt.checkMs))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("check = %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("check = %v, want %q", err, tt.want)
			}
		})
	}
}
