package verify

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
)

// readStall is how long the read-back may go without a record while records are still
// below the high watermark before it gives up.
const readStall = 30 * time.Second

// maxReadRounds bounds how often the read-back chases a high watermark that moved while it
// read (records still being replicated or written): after that it is not stable.
const maxReadRounds = 5

// ReadStats describes a read-back.
type ReadStats struct {
	// Records read, and the rounds it took for the end offsets to stop moving.
	Records int64
	Rounds  int
	// Start and End are each partition's earliest offset and the stable high watermark the
	// read reached.
	Start map[int32]int64
	End   map[int32]int64
	// Seconds the read-back took.
	Seconds float64
}

// ReadBack reads every partition of topic, with fresh clients of its own on conn (no group,
// partitions assigned directly), from the earliest
// offset to a stable high watermark: it reads to the end offsets, lists them again, and
// reads on until two listings agree. Each partition's records go to c in offset order, in
// fetch-sized chunks; keep receives the reads too when not nil (the reads file). committed
// reads as a read_committed consumer does: records of aborted transactions are skipped,
// and the transaction markers (control records, not given to c) carry the read to the end
// offsets they occupy.
func ReadBack(ctx context.Context, conn *kafka.Connection, topic string, partitions int, run uint64, committed bool, c *Checker, keep func(Entry)) (ReadStats, error) {
	began := time.Now()
	adm, err := conn.NewClient("verify-readback")
	if err != nil {
		return ReadStats{}, err
	}
	defer adm.Close()
	admin := kadm.NewClient(adm)
	starts, err := admin.ListStartOffsets(ctx, topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return ReadStats{}, fmt.Errorf("unable to list the start offsets of %s: %w", topic, err)
	}
	st := ReadStats{Start: map[int32]int64{}, End: map[int32]int64{}}
	from := map[int32]kgo.Offset{}
	next := map[int32]int64{}
	for p := range int32(partitions) {
		o, ok := starts.Lookup(topic, p)
		if !ok {
			return st, fmt.Errorf("partition %d of %s has no start offset", p, topic)
		}
		st.Start[p] = o.Offset
		next[p] = o.Offset
		from[p] = kgo.NewOffset().At(o.Offset)
	}
	// Without transactions, the records written, committed or not: a read_committed read
	// would hide nothing but could stall on an open transaction.
	isolation := kgo.ReadUncommitted()
	if committed {
		isolation = kgo.ReadCommitted()
	}
	cl, err := conn.NewClient("verify-readback",
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: from}),
		kgo.FetchIsolationLevel(isolation),
		// Markers occupy offsets: kept, so that a partition whose last batch is a marker is
		// read to its end offset.
		kgo.KeepControlRecords(),
		// The Java consumer's wait rather than kgo's 5 s: a partition read to its end
		// offset has nothing more to give, and the others should not wait on it.
		kgo.FetchMaxWait(500*time.Millisecond),
	)
	if err != nil {
		return st, err
	}
	defer cl.Close()
	for st.Rounds = 1; ; st.Rounds++ {
		ends, err := endOffsets(ctx, admin, topic, partitions)
		if err != nil {
			return st, err
		}
		if st.Rounds > 1 && maps.Equal(ends, st.End) {
			break // two listings agree: the high watermark is stable and read
		}
		if st.Rounds > maxReadRounds {
			return st, fmt.Errorf("the high watermark of %s kept moving over %d read rounds: something still writes to it", topic, maxReadRounds)
		}
		st.End = ends
		if err := readTo(ctx, cl, topic, ends, next, run, c, keep, &st.Records); err != nil {
			return st, err
		}
	}
	st.Seconds = time.Since(began).Seconds()
	return st, nil
}

// endOffsets lists each partition's high watermark. Right after a leader election the new
// leader answers OFFSET_NOT_AVAILABLE until its high watermark has caught up (and a moved
// leader NOT_LEADER_OR_FOLLOWER): both are retriable, so the listing is retried for up to
// readStall before it is reported.
func endOffsets(ctx context.Context, admin *kadm.Client, topic string, partitions int) (map[int32]int64, error) {
	var ends kadm.ListedOffsets
	err := kafka.Retry(ctx, time.Now().Add(readStall), 250*time.Millisecond, func() error {
		var err error
		if ends, err = admin.ListEndOffsets(ctx, topic); err == nil {
			err = ends.Error()
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("unable to list the end offsets of %s: %w", topic, err)
	}
	out := map[int32]int64{}
	for p := range int32(partitions) {
		o, ok := ends.Lookup(topic, p)
		if !ok {
			return nil, fmt.Errorf("partition %d of %s has no end offset", p, topic)
		}
		out[p] = o.Offset
	}
	return out, nil
}

// readTo polls until every partition's next offset reached ends.
func readTo(ctx context.Context, cl *kgo.Client, topic string, ends, next map[int32]int64, run uint64, c *Checker, keep func(Entry), n *int64) error {
	behind := func() (int32, bool) {
		for p, e := range ends {
			if next[p] < e {
				return p, true
			}
		}
		return 0, false
	}
	lastProgress := time.Now()
	for {
		p, ok := behind()
		if !ok {
			return nil
		}
		if time.Since(lastProgress) > readStall {
			return fmt.Errorf("read-back stalled: partition %d of %s at offset %d of %d for %v", p, topic, next[p], ends[p], readStall)
		}
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		fs := cl.PollRecords(pctx, 10_000)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for _, e := range fs.Errors() {
			if e.Err != context.DeadlineExceeded && e.Err != context.Canceled {
				return fmt.Errorf("read-back of partition %d of %s: %w", e.Partition, topic, e.Err)
			}
		}
		fs.EachPartition(func(fp kgo.FetchTopicPartition) {
			if len(fp.Records) == 0 {
				return
			}
			lastProgress = time.Now()
			chunk := make([]Entry, 0, len(fp.Records))
			for _, r := range fp.Records {
				if r.Attrs.IsControl() {
					next[fp.Partition] = r.Offset + 1
					continue
				}
				e := Entry{Offset: r.Offset, Partition: fp.Partition, Producer: -1}
				if rec, ok := decode(r.Value); ok && rec.run == run {
					// A record sent to another partition: the checker finds it unexpected here.
					e.Producer, e.Seq = rec.producer, rec.seq
				}
				chunk = append(chunk, e)
				if keep != nil {
					keep(e)
				}
				next[fp.Partition] = r.Offset + 1
			}
			*n += int64(len(chunk))
			c.Add(fp.Partition, chunk)
		})
	}
}
