package verify

import (
	"errors"
	"testing"
)

// The synthetic run of these tests: 2 producers, 2 partitions, 4 records each. Record s of
// producer i goes to partition (s+i) mod 2, so the clean logs are
//
//	partition 0: offset 0 P0s0, 1 P1s1, 2 P0s2, 3 P1s3
//	partition 1: offset 0 P1s0, 1 P0s1, 2 P1s2, 3 P0s3
//
// Each test changes the acknowledgements or the reads of this run and states the counts it
// expects, worked out by hand.

type logEntry struct {
	producer int32
	seq      int64
}

func cleanLogs() [2][]logEntry {
	return [2][]logEntry{
		{{0, 0}, {1, 1}, {0, 2}, {1, 3}},
		{{1, 0}, {0, 1}, {1, 2}, {0, 3}},
	}
}

// history sends every record of logs and acknowledges each at its place in logs.
func history(logs [2][]logEntry) *History {
	h := NewHistory(7, 2, 2)
	for p, log := range logs {
		for off, e := range log {
			h.Sent(int(e.producer), e.seq)
			h.Acked(int(e.producer), e.seq, int32(p), int64(off))
		}
	}
	return h
}

// reads turns logs into read entries, offsets from 0.
func reads(log []logEntry) []Entry {
	out := make([]Entry, len(log))
	for i, e := range log {
		out[i] = Entry{Offset: int64(i), Producer: e.producer, Seq: e.seq}
	}
	return out
}

func check(h *History, parts [2][]Entry) Counts {
	c := NewChecker(h)
	for p, rs := range parts {
		c.Add(int32(p), rs)
	}
	counts, _ := c.Finish()
	return counts
}

func TestCheckAnomalies(t *testing.T) {
	tests := []struct {
		name string
		// build returns the history and the reads of both partitions.
		build func() (*History, [2][]Entry)
		want  Counts
	}{
		{"clean", func() (*History, [2][]Entry) {
			l := cleanLogs()
			return history(l), [2][]Entry{reads(l[0]), reads(l[1])}
		}, Counts{}},
		{"a broken read-back drops one record: lost 1", func() (*History, [2][]Entry) {
			l := cleanLogs()
			r0 := reads(l[0])
			// P0s2 (partition 0, offset 2) is left out of the read; nothing else moves.
			r0 = append(r0[:2:2], r0[3])
			return history(l), [2][]Entry{r0, reads(l[1])}
		}, Counts{Lost: 1}},
		{"a record read twice: duplicated 1", func() (*History, [2][]Entry) {
			l := cleanLogs()
			r0 := append(reads(l[0]), Entry{Offset: 4, Producer: 0, Seq: 0})
			// P0s0 again at offset 4: its first copy is where it was acknowledged (no
			// inconsistency), the second is a duplicate (not a reorder).
			return history(l), [2][]Entry{r0, reads(l[1])}
		}, Counts{Duplicated: 1}},
		{"a retried batch lands after a later one: reordered 1", func() (*History, [2][]Entry) {
			l := cleanLogs()
			// Partition 0 as the broker wrote and acknowledged it: P0s2 at 0, P0s0 at 2.
			// Reading in offset order, P0s0 comes after P0s2 of the same producer: 1.
			l[0][0], l[0][2] = l[0][2], l[0][0]
			return history(l), [2][]Entry{reads(l[0]), reads(l[1])}
		}, Counts{Reordered: 1}},
		{"truncation: two records acknowledged at one offset", func() (*History, [2][]Entry) {
			l := cleanLogs()
			// P1s3 was acknowledged at partition 0 offset 3; say a new leader had
			// truncated the log at 2 and acknowledged it at 2, where P0s2 was
			// acknowledged before, so the read-back finds 0 P0s0, 1 P1s1, 2 P1s3.
			h := NewHistory(7, 2, 2)
			for p, log := range l {
				for off, e := range log {
					h.Sent(int(e.producer), e.seq)
					if p == 0 && e.seq == 3 {
						off = 2
					}
					h.Acked(int(e.producer), e.seq, int32(p), int64(off))
				}
			}
			r0 := []Entry{{Offset: 0, Producer: 0, Seq: 0}, {Offset: 1, Producer: 1, Seq: 1}, {Offset: 2, Producer: 1, Seq: 3}}
			// Lost: P0s2, never read (1). Inconsistent: P0s2's offset holds P1s3, and
			// P1s3's offset is claimed by P0s2's acknowledgement too (2).
			return h, [2][]Entry{r0, reads(l[1])}
		}, Counts{Lost: 1, Inconsistent: 2}},
		{"a record read at another offset than acknowledged: inconsistent 1", func() (*History, [2][]Entry) {
			l := cleanLogs()
			// Partition 0 read as 0 P0s0, 1 P1s1, 3 P1s3, 5 P0s2: P0s2 was acknowledged
			// at 2, which holds nothing. Read, so not lost; in order for producer 0 (s0
			// then s2); inconsistent 1.
			r0 := []Entry{{Offset: 0, Producer: 0, Seq: 0}, {Offset: 1, Producer: 1, Seq: 1},
				{Offset: 3, Producer: 1, Seq: 3}, {Offset: 5, Producer: 0, Seq: 2}}
			return history(l), [2][]Entry{r0, reads(l[1])}
		}, Counts{Inconsistent: 1}},
		{"records never sent: unexpected 3", func() (*History, [2][]Entry) {
			l := cleanLogs()
			r1 := append(reads(l[1]),
				Entry{Offset: 4, Producer: -1},         // not kbench's record
				Entry{Offset: 5, Producer: 1, Seq: 99}, // producer 1 sent 4 records
				Entry{Offset: 6, Producer: 0, Seq: 0})  // P0s0 belongs in partition 0
			// 3 unexpected; P0s0 is still read once where it belongs (no duplicate).
			return history(l), [2][]Entry{reads(l[0]), r1}
		}, Counts{Unexpected: 3}},
		{"failed and unsent records present: no anomaly", func() (*History, [2][]Entry) {
			l := cleanLogs()
			h := NewHistory(7, 2, 2)
			for p, log := range l {
				for off, e := range log {
					h.Sent(int(e.producer), e.seq)
					switch {
					case p == 0 && off == 3: // P1s3 failed yet written
						h.Failed(1, 3, errors.New("request timed out"))
					case p == 1 && off == 3: // P0s3 unsent yet written
						h.Unsent(0, 3)
					default:
						h.Acked(int(e.producer), e.seq, int32(p), int64(off))
					}
				}
			}
			// Both read: 2 unacknowledged-but-present, 0 anomalies.
			return h, [2][]Entry{reads(l[0]), reads(l[1])}
		}, Counts{UnacknowledgedPresent: 2}},
		{"failed records absent: nothing", func() (*History, [2][]Entry) {
			l := cleanLogs()
			h := NewHistory(7, 2, 2)
			for p, log := range l {
				for off, e := range log {
					h.Sent(int(e.producer), e.seq)
					if p == 0 && off == 3 {
						h.Failed(1, 3, errors.New("not enough replicas"))
						continue
					}
					h.Acked(int(e.producer), e.seq, int32(p), int64(off))
				}
			}
			// P1s3 failed and is not read: no anomaly, nothing present.
			return h, [2][]Entry{reads(l[0][:3]), reads(l[1])}
		}, Counts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, parts := tt.build()
			if got := check(h, parts); got != tt.want {
				t.Errorf("counts = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCheckExamplesNameTheRecord(t *testing.T) {
	l := cleanLogs()
	h := history(l)
	r0 := reads(l[0])
	r0 = append(r0[:2:2], r0[3]) // drop P0s2, acknowledged at partition 0 offset 2
	c := NewChecker(h)
	c.Add(0, r0)
	c.Add(1, reads(l[1]))
	_, ex := c.Finish()
	want := Example{Producer: 0, Seq: 2, Partition: 0, Offset: 2, Detail: "acknowledged here, never read"}
	if len(ex.Lost) != 1 || ex.Lost[0] != want {
		t.Fatalf("lost examples = %+v, want [%+v]", ex.Lost, want)
	}
}

// A larger run: 3 producers x 1000 records over 4 partitions, read in chunks; dropping one
// record from the read is caught as exactly one lost record, and checking again (a second
// Checker on the same history) gives the same answer.
func TestCheckDroppedRecordAtScale(t *testing.T) {
	const producers, records, partitions = 3, 1000, 4
	h := NewHistory(1, producers, partitions)
	var logs [partitions][]Entry
	for s := int64(0); s < records; s++ {
		for i := int32(0); i < producers; i++ {
			p := expectedPartition(i, s, partitions)
			off := int64(len(logs[p]))
			h.Sent(int(i), s)
			h.Acked(int(i), s, p, off)
			logs[p] = append(logs[p], Entry{Offset: off, Seq: s, Partition: p, Producer: i})
		}
	}
	dropped := logs[2][417]
	logs[2] = append(logs[2][:417:417], logs[2][418:]...)
	for range 2 {
		c := NewChecker(h)
		for p, log := range logs {
			for len(log) > 0 { // chunks of 100, as a consumer's fetches
				n := min(100, len(log))
				c.Add(int32(p), log[:n])
				log = log[n:]
			}
		}
		counts, ex := c.Finish()
		if counts != (Counts{Lost: 1}) {
			t.Fatalf("counts = %+v, want lost 1 only", counts)
		}
		if ex.Lost[0].Producer != dropped.Producer || ex.Lost[0].Seq != dropped.Seq {
			t.Fatalf("lost %+v, want the dropped %+v", ex.Lost[0], dropped)
		}
	}
}
