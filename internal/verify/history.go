package verify

import (
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Entry is one record at one place: an acknowledgement (where the cluster said it wrote the
// record) or a read (where the read-back found it). 24 bytes and no payload, so ten million
// acknowledgements fit in 240 MB. A read of something kbench did not write has Producer -1.
type Entry struct {
	Offset    int64
	Seq       int64
	Partition int32
	Producer  int32
}

// The outcome of a sent record, in the low two bits of its status byte.
const (
	inFlight byte = iota // handed to the client, no outcome yet
	acked
	failed
	unsent      // aborted by the run when it stopped waiting
	outcomeMask = 3
	// readAtAck marks an acknowledged record found at its acknowledged offset.
	readAtAck = 1 << 2
	// The read count lives in the top five bits and saturates: the checker only needs to
	// tell 0, 1 and more.
	readShift = 3
	readMax   = 31
)

// History is every record sent in a run and what became of it: one status byte per record
// and one Entry per acknowledgement. It is a load.RecordSource, so the producers fill it as
// they send; it is safe for concurrent use.
type History struct {
	run        uint64
	partitions int
	producers  []producerHistory
	// start is when the history began; failures are timed from it.
	start time.Time
}

type producerHistory struct {
	mu     sync.Mutex
	status []byte  // by sequence number
	acks   []Entry // in the order the acknowledgements arrived
	errs   map[string]int64
	// committed counts the committed transactions; aborted lists the aborted ones in
	// order (transactional runs only).
	committed int64
	aborted   []seqRange
}

// NewHistory returns an empty history of run for the given producers and partitions.
func NewHistory(run uint64, producers, partitions int) *History {
	h := &History{run: run, partitions: partitions, producers: make([]producerHistory, producers), start: time.Now()}
	for i := range h.producers {
		h.producers[i].errs = map[string]int64{}
	}
	return h
}

// Run is the run id every record of this history carries.
func (h *History) Run() uint64 { return h.run }

// Producers is the number of producers.
func (h *History) Producers() int { return len(h.producers) }

// Partitions is the number of partitions records were spread over.
func (h *History) Partitions() int { return h.partitions }

// Sent records that producer handed record seq to its client.
func (h *History) Sent(producer int, seq int64) {
	p := &h.producers[producer]
	p.mu.Lock()
	for int64(len(p.status)) <= seq {
		p.status = append(p.status, inFlight)
	}
	p.mu.Unlock()
}

// Acked records the acknowledgement of producer's record seq at partition and offset.
func (h *History) Acked(producer int, seq int64, partition int32, offset int64) {
	p := &h.producers[producer]
	p.mu.Lock()
	p.setOutcome(seq, acked)
	p.acks = append(p.acks, Entry{Offset: offset, Seq: seq, Partition: partition, Producer: int32(producer)})
	p.mu.Unlock()
}

// Failed records that producer's record seq failed with err.
func (h *History) Failed(producer int, seq int64, err error) {
	p := &h.producers[producer]
	p.mu.Lock()
	p.setOutcome(seq, failed)
	p.errs[err.Error()]++
	p.mu.Unlock()
}

// Unsent records that producer's record seq was aborted without an answer from the cluster.
func (h *History) Unsent(producer int, seq int64) {
	p := &h.producers[producer]
	p.mu.Lock()
	p.setOutcome(seq, unsent)
	p.mu.Unlock()
}

func (p *producerHistory) setOutcome(seq int64, o byte) {
	for int64(len(p.status)) <= seq {
		p.status = append(p.status, inFlight)
	}
	p.status[seq] = p.status[seq]&^outcomeMask | o
}

// Sizes is the record size for the producers' batch checks (load.RecordSource): the key
// "producer-seq" is at most 11+1+19 bytes.
func (h *History) Sizes() (smallest, largest int) { return valueSize + 3, valueSize + 31 }

// Fill makes record n of producer i (load.RecordSource).
func (h *History) Fill(i int, n int64, r *kgo.Record) {
	rec := record{run: h.run, producer: int32(i), seq: n, partition: expectedPartition(int32(i), n, h.partitions)}
	r.Key = rec.key()
	r.Value = rec.encode(make([]byte, 0, valueSize))
	r.Partition = rec.partition
	h.Sent(i, n)
}

// Outcome records what became of record n of producer i (load.RecordSource).
func (h *History) Outcome(i int, n int64, r *kgo.Record, err error, wasUnsent bool) {
	switch {
	case wasUnsent:
		h.Unsent(i, n)
	case err != nil:
		h.Failed(i, n, err)
	default:
		h.Acked(i, n, r.Partition, r.Offset)
	}
}

// Totals counts the records by outcome.
type Totals struct {
	Sent     int64
	Acked    int64
	Failed   int64
	Unsent   int64
	InFlight int64
	// Errors counts the failures by error text.
	Errors map[string]int64
}

// Totals counts h's records by outcome.
func (h *History) Totals() Totals {
	t := Totals{Errors: map[string]int64{}}
	for i := range h.producers {
		p := &h.producers[i]
		p.mu.Lock()
		t.Sent += int64(len(p.status))
		for _, s := range p.status {
			switch s & outcomeMask {
			case acked:
				t.Acked++
			case failed:
				t.Failed++
			case unsent:
				t.Unsent++
			default:
				t.InFlight++
			}
		}
		for k, v := range p.errs {
			t.Errors[k] += v
		}
		p.mu.Unlock()
	}
	return t
}

// String is the totals in words, for progress lines.
func (t Totals) String() string {
	return fmt.Sprintf("%d sent: %d acknowledged, %d failed, %d unsent", t.Sent, t.Acked, t.Failed, t.Unsent)
}
