package load

import "github.com/twmb/franz-go/pkg/kgo"

// RecordSource makes the records of a trial and hears what became of each: the seam through
// which kbench verify sends sequenced records on the same paced, accounted producers as every
// other workload. A source picks each record's partition itself (the clients then use kgo's
// manual partitioner), so a record's expected partition is known before it is sent.
type RecordSource interface {
	// Sizes returns the smallest and largest record (key plus value) the source makes, checked
	// against the batch and request limits before any client opens.
	Sizes() (smallest, largest int)
	// Fill sets r's Key, Value, Headers and Partition for record n of producer i (both from
	// 0). It is called from producer i's sending goroutine only, in order of n.
	Fill(producer int, n int64, r *kgo.Record)
	// Outcome is called exactly once per filled record, from the client's promise: err is nil
	// when the record was acknowledged (r.Partition and r.Offset then say where), and unsent
	// is true when the trial stopped waiting and aborted it (neither acknowledged nor failed
	// by the cluster, see ProduceResult.Unsent).
	Outcome(producer int, n int64, r *kgo.Record, err error, unsent bool)
}
