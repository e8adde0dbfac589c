package rebalance

import (
	"testing"
	"time"
)

// rec is one consumed record of a test log, times in milliseconds.
type rec struct {
	p                  int32
	consumedMs, offset int64
	producedMs         int64
}

func logOf(partitions int, endMs int64, events []Event, changes []Change, recs []rec) Log {
	l := Log{Partitions: partitions, EndUs: endMs * 1000, Events: events, Changes: changes}
	for _, r := range recs {
		l.Records.Add(r.p, r.consumedMs*1000, r.offset, r.producedMs*1000)
	}
	return l
}

func ms(v int64) int64 { return v * 1000 }

func stableS(v float64) *float64 { return &v }

// The figures below are worked out by hand from each log.
func TestAnalyze(t *testing.T) {
	cases := []struct {
		name string
		log  Log
		want []Figures
	}{{
		// Member 1 owns partition 1 and dies at 10 s; member 0 is assigned it at 16 s and
		// re-reads offsets 1 and 2 (the commit was at 1). Partition 1's last delivery was
		// at 9.5 s; offset 3, produced at 9.9 s, came at 16.2 s: a 6.3 s pause. Before the kill the window holds 5
		// records, the worst 100 ms late; after it 2, the worst 300 ms.
		name: "kill",
		log: logOf(2, 30_000,
			[]Event{{Spec: "kill@10s", Kind: Kill, AtUs: ms(10_000), Member: 1}},
			[]Change{
				{AtUs: 0, Member: 0, Kind: Assigned, Partitions: []int32{0}},
				{AtUs: 0, Member: 1, Kind: Assigned, Partitions: []int32{1}},
				{AtUs: ms(16_000), Member: 0, Kind: Assigned, Partitions: []int32{1}},
				{AtUs: ms(17_000), Member: 1, Kind: Revoked, Partitions: []int32{1}}, // a dead member's callback
			},
			[]rec{
				{0, 9_000, 0, 8_900}, {0, 9_500, 1, 9_400}, {0, 10_000, 2, 9_900}, {0, 10_500, 3, 10_200},
				{1, 9_000, 0, 8_900}, {1, 9_000, 1, 8_950}, {1, 9_500, 2, 9_400},
				{1, 16_200, 1, 8_950}, {1, 16_200, 2, 9_400}, {1, 16_200, 3, 9_900}, {1, 16_200, 4, 10_500},
			}),
		want: []Figures{{Event: "kill@10s", Kind: Kill, AtS: 10, Member: 1, StableS: stableS(6),
			PauseS: 6.3, PausePartition: 1, Redelivered: 2,
			P99BeforeMs: 100, RecordsBefore: 5, P99AfterMs: 300, RecordsAfter: 2}},
	}, {
		// Partition 0's last delivery before the kill at 10 s is at 9.99 s and the next at
		// 16 s, its first record produced at 9.995 s: a 6.005 s pause. It began before the
		// kill, in the join's span, but ended after the kill: it is the kill's alone. The
		// join's is the 10 ms from 9.98 s (produced) to 9.99 s (delivered).
		name: "a pause belongs to the event before its end",
		log: logOf(1, 20_000,
			[]Event{{Spec: "join@5s", Kind: Join, AtUs: ms(5_000), Member: 1}, {Spec: "kill@10s", Kind: Kill, AtUs: ms(10_000), Member: 0}},
			[]Change{
				{AtUs: 0, Member: 0, Kind: Assigned, Partitions: []int32{0}},
				{AtUs: ms(16_000), Member: 1, Kind: Assigned, Partitions: []int32{0}},
			},
			[]rec{{0, 9_000, 0, 8_990}, {0, 9_990, 1, 9_980}, {0, 16_000, 2, 9_995}}),
		want: []Figures{
			{Event: "join@5s", Kind: Join, AtS: 5, Member: 1, StableS: stableS(0), PauseS: 0.01, PausePartition: 0,
				P99AfterMs: 10, RecordsAfter: 2},
			{Event: "kill@10s", Kind: Kill, AtS: 10, StableS: stableS(6), PauseS: 6.005, PausePartition: 0,
				P99BeforeMs: 10, RecordsBefore: 2},
		},
	}, {
		// A stall of member 0 at 5 s: deliveries at 4.8, 5.0, then 7.05 (its first record
		// produced at 5.01): 7.05 - 5.01 = 2.04 s. The gap from 1.0 to 3.0 s had no backlog
		// until 2.95 s (0.05 s), and it ends before the event anyway. Nothing moves: stable
		// at once.
		name: "stall",
		log: logOf(1, 10_000,
			[]Event{{Spec: "stall@5s/2s", Kind: Stall, AtUs: ms(5_000), Member: 0}},
			[]Change{{AtUs: ms(100), Member: 0, Kind: Assigned, Partitions: []int32{0}}},
			[]rec{
				{0, 1_000, 0, 990}, {0, 3_000, 1, 2_950}, {0, 4_800, 2, 4_750}, {0, 5_000, 3, 4_950},
				{0, 7_050, 4, 5_010}, {0, 7_050, 5, 6_000}, {0, 7_100, 6, 7_060},
			}),
		want: []Figures{{Event: "stall@5s/2s", Kind: Stall, AtS: 5, StableS: stableS(0),
			PauseS: 2.04, PausePartition: 0,
			P99BeforeMs: 50, RecordsBefore: 3, P99AfterMs: 2_040, RecordsAfter: 4}},
	}, {
		// Member 1 joins at 10 s: member 0 gives up partition 1 at 10.5 s, member 1 gets it
		// at 10.6 s (stable after 0.6 s). Member 0 leaves at 20 s: member 1 gets partition 0
		// at 20.3 s (0.3 s); member 0's own revocation is ignored. Member 1 is killed at 22 s
		// and nobody takes over: never stable. Around 22 s the windows hold 1 and 3 records,
		// then 4: the worst 100 ms, then 600 ms (20.4 - 19.8). The final revocation at 26 s is after the end.
		name: "join, leave, kill",
		log: logOf(2, 25_000,
			[]Event{
				{Spec: "join@10s", Kind: Join, AtUs: ms(10_000), Member: 1},
				{Spec: "leave@20s", Kind: Leave, AtUs: ms(20_000), Member: 0},
				{Spec: "kill@22s", Kind: Kill, AtUs: ms(22_000), Member: 1},
			},
			[]Change{
				{AtUs: ms(1_000), Member: 0, Kind: Assigned, Partitions: []int32{0, 1}},
				{AtUs: ms(10_500), Member: 0, Kind: Revoked, Partitions: []int32{1}},
				{AtUs: ms(10_600), Member: 1, Kind: Assigned, Partitions: []int32{1}},
				{AtUs: ms(20_100), Member: 0, Kind: Revoked, Partitions: []int32{0}},
				{AtUs: ms(20_300), Member: 1, Kind: Assigned, Partitions: []int32{0}},
				{AtUs: ms(26_000), Member: 1, Kind: Revoked, Partitions: []int32{0, 1}},
			},
			// Partition 1: delivered at 9.9 s by member 0, at 11.0 s by member 1 from
			// offset 5 again (two re-reads); the new offset 7 was produced at 10.0 s:
			// 11.0 - 10.0 = 1.0 s. Partition 0: 19.9 s, then 20.4 s from offset 8 (re-read
			// once); the new offset 9 was produced at 20.0 s: 20.4 - 20.0 = 0.4 s. A
			// delivery of re-reads alone (partition 0 at 20.2 s) ends no pause.
			[]rec{
				{1, 9_900, 5, 9_850}, {1, 9_900, 6, 9_880},
				{1, 11_000, 5, 9_850}, {1, 11_000, 6, 9_880}, {1, 11_000, 7, 10_000},
				{0, 19_900, 8, 19_800},
				{0, 20_200, 8, 19_800}, {0, 20_400, 8, 19_800}, {0, 20_400, 9, 20_000},
			}),
		want: []Figures{
			{Event: "join@10s", Kind: Join, AtS: 10, Member: 1, StableS: stableS(0.6), PauseS: 1.0, PausePartition: 1, Redelivered: 2,
				P99BeforeMs: 50, RecordsBefore: 2, P99AfterMs: 1_150, RecordsAfter: 3},
			{Event: "leave@20s", Kind: Leave, AtS: 20, StableS: stableS(0.3), PauseS: 0.4, PausePartition: 0, Redelivered: 2,
				P99BeforeMs: 100, RecordsBefore: 1, P99AfterMs: 600, RecordsAfter: 3},
			{Event: "kill@22s", Kind: Kill, AtS: 22, Member: 1, PausePartition: -1,
				P99BeforeMs: 600, RecordsBefore: 4},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Analyze(c.log, 5*time.Second)
			if len(got) != len(c.want) {
				t.Fatalf("got %d events' figures, want %d", len(got), len(c.want))
			}
			for i, w := range c.want {
				g := got[i]
				if (g.StableS == nil) != (w.StableS == nil) || (g.StableS != nil && !near(*g.StableS, *w.StableS)) {
					t.Errorf("%s: time to stable %v, want %v", w.Event, deref(g.StableS), deref(w.StableS))
				}
				g.StableS, w.StableS = nil, nil
				if !near(g.PauseS, w.PauseS) {
					t.Errorf("%s: pause %.6f s, want %.6f s", w.Event, g.PauseS, w.PauseS)
				}
				g.PauseS, w.PauseS = 0, 0
				if g != w {
					t.Errorf("%s:\n got %+v\nwant %+v", w.Event, g, w)
				}
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func deref(f *float64) any {
	if f == nil {
		return "never"
	}
	return *f
}
