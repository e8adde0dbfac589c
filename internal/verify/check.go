package verify

import (
	"cmp"
	"slices"

	"github.com/kbench/kbench/internal/results"
)

// maxExamples is how many records of each anomaly a result names.
const maxExamples = 10

// Counts are the anomalies of a run, named as in Jepsen's Kafka analyses. Each counts
// records: a record lost and found elsewhere is counted where it fits, see each field.
type Counts struct {
	// Lost records were acknowledged and never read.
	Lost int64
	// Duplicated records were read more than once (each such record counts once).
	Duplicated int64
	// Reordered records were read, in their partition, after a later record of the same
	// producer (their first copy; a second copy is a duplicate).
	Reordered int64
	// Inconsistent records were acknowledged at an offset that holds another record: the
	// read-back found another record there, another acknowledged record claims the same
	// offset, or the record itself was read at another offset.
	Inconsistent int64
	// Unexpected reads hold a record that was never sent: not kbench's, another run's, a
	// sequence beyond what its producer sent, or a record in a partition it was not sent to.
	Unexpected int64
	// UnacknowledgedPresent records failed or were unsent, yet were read: the cluster wrote
	// them but the answer never reached the producer. No error: a producer that retries
	// would have written them again.
	UnacknowledgedPresent int64
	// AbortedVisible records belong to an aborted transaction, yet a read_committed read
	// returned them (transactional runs).
	AbortedVisible int64
	// Hidden records were acknowledged in a transaction that was then aborted, and were
	// not read: as they must be (no anomaly; transactional runs).
	Hidden int64
}

// Anomalies is the number of records in error (unacknowledged-but-present and hidden are
// not).
func (c Counts) Anomalies() int64 { return results.VerifyCounts(c).Anomalies() }

// Example is one record of an anomaly: which record and where it was acknowledged or read.
type Example struct {
	Producer  int32
	Seq       int64
	Partition int32
	Offset    int64
	// Detail says what is wrong in words.
	Detail string
}

// Examples names a few records of each anomaly.
type Examples struct {
	Lost                  []Example
	Duplicated            []Example
	Reordered             []Example
	Inconsistent          []Example
	Unexpected            []Example
	UnacknowledgedPresent []Example
	AbortedVisible        []Example
}

func addExample(list *[]Example, e Example) {
	if len(*list) < maxExamples {
		*list = append(*list, e)
	}
}

// Checker compares a read-back with a History. Give it each partition's reads in offset
// order (one or several Add calls per partition, chunks in order), then call Finish. It
// owns the history's status bytes while it runs: check after the producers are done.
type Checker struct {
	h    *History
	acks []Entry // every acknowledgement, sorted by partition and offset
	bad  []bool  // by index in acks: the acknowledged offset holds another record
	// parts holds each partition's progress through its reads.
	parts    map[int32]*partState
	counts   Counts
	examples Examples
	reads    int64
}

type partState struct {
	cursor, end int     // the partition's acknowledgements are acks[cursor:end]
	maxSeq      []int64 // by producer: the highest sequence read so far, -1 none
	lastOffset  int64
}

// NewChecker prepares a check of h: it sorts the acknowledgements (the only large
// allocation, 24 bytes per acknowledgement) and clears any earlier check's marks.
func NewChecker(h *History) *Checker {
	n := 0
	for i := range h.producers {
		n += len(h.producers[i].acks)
	}
	c := &Checker{h: h, acks: make([]Entry, 0, n), parts: map[int32]*partState{}}
	for i := range h.producers {
		p := &h.producers[i]
		c.acks = append(c.acks, p.acks...)
		for j, s := range p.status {
			p.status[j] = s & outcomeMask
		}
	}
	slices.SortFunc(c.acks, func(a, b Entry) int {
		if a.Partition != b.Partition {
			return cmp.Compare(a.Partition, b.Partition)
		}
		return cmp.Compare(a.Offset, b.Offset)
	})
	c.bad = make([]bool, len(c.acks))
	return c
}

func (c *Checker) part(p int32) *partState {
	if s := c.parts[p]; s != nil {
		return s
	}
	lo, _ := slices.BinarySearchFunc(c.acks, p, func(e Entry, p int32) int { return cmp.Compare(e.Partition, p) })
	hi, _ := slices.BinarySearchFunc(c.acks, p+1, func(e Entry, p int32) int { return cmp.Compare(e.Partition, p) })
	s := &partState{cursor: lo, end: hi, maxSeq: make([]int64, len(c.h.producers)), lastOffset: -1}
	for i := range s.maxSeq {
		s.maxSeq[i] = -1
	}
	c.parts[p] = s
	return s
}

// Add checks reads of partition p, in offset order, following any earlier reads of p.
func (c *Checker) Add(p int32, reads []Entry) {
	s := c.part(p)
	for _, r := range reads {
		r.Partition = p
		c.reads++
		// Acknowledgements below this offset had nothing read at their offset.
		for s.cursor < s.end && c.acks[s.cursor].Offset < r.Offset {
			s.cursor++
		}
		st := c.status(r)
		for ; s.cursor < s.end && c.acks[s.cursor].Offset == r.Offset; s.cursor++ {
			a := c.acks[s.cursor]
			if st != nil && a.Producer == r.Producer && a.Seq == r.Seq {
				*st |= readAtAck
			} else {
				c.bad[s.cursor] = true
			}
		}
		s.lastOffset = r.Offset
		if st == nil {
			c.counts.Unexpected++
			addExample(&c.examples.Unexpected, Example{Producer: r.Producer, Seq: r.Seq, Partition: p, Offset: r.Offset,
				Detail: c.unexpectedWhy(p, r)})
			continue
		}
		n := *st >> readShift
		if n < readMax {
			*st += 1 << readShift
		}
		switch {
		case n == 1:
			c.counts.Duplicated++
			addExample(&c.examples.Duplicated, Example{Producer: r.Producer, Seq: r.Seq, Partition: p, Offset: r.Offset,
				Detail: "second copy"})
		case n == 0 && r.Seq < s.maxSeq[r.Producer]:
			c.counts.Reordered++
			addExample(&c.examples.Reordered, Example{Producer: r.Producer, Seq: r.Seq, Partition: p, Offset: r.Offset,
				Detail: "read after a later record of its producer"})
		}
		s.maxSeq[r.Producer] = max(s.maxSeq[r.Producer], r.Seq)
	}
}

// status returns the status byte of the record r holds, nil when r is no record this
// history sent to partition r.Partition.
func (c *Checker) status(r Entry) *byte {
	if r.Producer < 0 || int(r.Producer) >= len(c.h.producers) {
		return nil
	}
	st := c.h.producers[r.Producer].status
	if r.Seq < 0 || r.Seq >= int64(len(st)) {
		return nil
	}
	if r.Partition != expectedPartition(r.Producer, r.Seq, c.h.partitions) {
		return nil
	}
	return &st[r.Seq]
}

func (c *Checker) unexpectedWhy(p int32, r Entry) string {
	switch {
	case r.Producer < 0:
		return "not a record of this run"
	case int(r.Producer) >= len(c.h.producers):
		return "no such producer"
	case r.Partition != expectedPartition(r.Producer, r.Seq, c.h.partitions) && r.Seq < int64(len(c.h.producers[r.Producer].status)):
		return "in another partition than it was sent to"
	}
	return "sequence never sent"
}

// Finish ends the check and returns the counts, with examples.
func (c *Checker) Finish() (Counts, Examples) {
	// Two acknowledgements of one offset: each claims a place the other holds.
	for i := 1; i < len(c.acks); i++ {
		if a, b := c.acks[i-1], c.acks[i]; a.Partition == b.Partition && a.Offset == b.Offset {
			c.bad[i-1], c.bad[i] = true, true
		}
	}
	for i, a := range c.acks {
		st := c.h.producers[a.Producer].status[a.Seq]
		reads := st >> readShift
		ex := Example{Producer: a.Producer, Seq: a.Seq, Partition: a.Partition, Offset: a.Offset}
		aborted := c.h.inAborted(a.Producer, a.Seq)
		switch {
		case reads == 0 && aborted:
			c.counts.Hidden++
			continue
		case reads == 0:
			c.counts.Lost++
			ex.Detail = "acknowledged here, never read"
			addExample(&c.examples.Lost, ex)
		case aborted:
			c.counts.AbortedVisible++
			ex.Detail = "acknowledged in a transaction that was aborted, yet read"
			addExample(&c.examples.AbortedVisible, ex)
		}
		switch {
		case c.bad[i]:
			ex.Detail = "acknowledged offset holds another record"
		case reads > 0 && st&readAtAck == 0:
			ex.Detail = "read at another offset than acknowledged"
		default:
			continue
		}
		c.counts.Inconsistent++
		addExample(&c.examples.Inconsistent, ex)
	}
	for i := range c.h.producers {
		for seq, st := range c.h.producers[i].status {
			if st&outcomeMask == acked || st>>readShift == 0 {
				continue
			}
			ex := Example{Producer: int32(i), Seq: int64(seq), Partition: expectedPartition(int32(i), int64(seq), c.h.partitions),
				Offset: -1, Detail: outcomeName(st & outcomeMask)}
			if c.h.inAborted(int32(i), int64(seq)) {
				c.counts.AbortedVisible++
				ex.Detail += ", in a transaction that was aborted"
				addExample(&c.examples.AbortedVisible, ex)
				continue
			}
			c.counts.UnacknowledgedPresent++
			addExample(&c.examples.UnacknowledgedPresent, ex)
		}
	}
	return c.counts, c.examples
}

// Reads is the number of records the check was given.
func (c *Checker) Reads() int64 { return c.reads }

func outcomeName(o byte) string {
	switch o {
	case acked:
		return "acknowledged"
	case failed:
		return "failed, yet present"
	case unsent:
		return "unsent, yet present"
	}
	return "never answered, yet present"
}

// Acks returns every acknowledgement, sorted by partition and offset.
func (c *Checker) Acks() []Entry { return c.acks }
