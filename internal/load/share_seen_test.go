package load

import "testing"

func TestShareSeen(t *testing.T) {
	s := newShareSeen()
	// Offsets 0..99 of two partitions; 63 and 64 straddle a word.
	var first []shareDelivery
	for p := int32(0); p < 2; p++ {
		for o := int64(0); o < 100; o++ {
			first = append(first, shareDelivery{topic: "t", partition: p, offset: o, count: 1, released: p == 0 && (o == 63 || o == 64)})
		}
	}
	if unasked := s.add(first); unasked != 0 || s.distinct.Load() != 200 || s.pending.Load() != 2 {
		t.Fatalf("first deliveries: unasked %d distinct %d pending %d, want 0, 200, 2", unasked, s.distinct.Load(), s.pending.Load())
	}
	// 63 comes back as asked; 5 of partition 1 comes back unasked (its lock expired).
	again := []shareDelivery{{topic: "t", partition: 0, offset: 63, count: 2}, {topic: "t", partition: 1, offset: 5, count: 2}}
	if unasked := s.add(again); unasked != 1 || s.distinct.Load() != 200 || s.pending.Load() != 1 {
		t.Fatalf("redeliveries: unasked %d distinct %d pending %d, want 1, 200, 1", unasked, s.distinct.Load(), s.pending.Load())
	}
	// 64 comes back and is released again: still one outstanding.
	if unasked := s.add([]shareDelivery{{topic: "t", partition: 0, offset: 64, count: 2, released: true}}); unasked != 0 || s.pending.Load() != 1 {
		t.Fatalf("released twice: unasked %d pending %d, want 0, 1", unasked, s.pending.Load())
	}
	if s.add([]shareDelivery{{topic: "u", partition: 0, offset: 1 << 40, count: 1}}); s.distinct.Load() != 201 {
		t.Fatalf("a far offset of another topic: distinct %d, want 201", s.distinct.Load())
	}
}
