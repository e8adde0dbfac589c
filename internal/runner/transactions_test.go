package runner

import (
	"context"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// TestRunTransactions runs one study of three scenarios equal but for mode, all read by a
// read_committed consumer: plain producers, 100 ms transactions, and 100 ms transactions of
// which a fifth are aborted on purpose. The abort draws are seeded (seed 0): the second
// producer's first draw is 0.0024, so its first transaction is aborted however few
// transactions a busy host lets the scenario run.
//
// Where the transactional end-to-end p50 must lie, from the design rather than from the
// code measuring it: a record sent u into a transaction of length T becomes readable once
// the transaction commits, T - u + c later (c: the commit, flush and EndTxn, measured by
// the producer), plus what any record takes to reach a consumer once readable (replication,
// the fetch: the plain scenario's end-to-end latency, measured in the same run). Records are
// paced evenly, except that those due while the producer commits go out together at the
// start of the next transaction (u = 0): a share c/(T+c) of them. So T - u is uniform on
// [0, T] with that extra mass at T, and its median is (T+c)/2. The p50 thus lies between
// T/2 (no record is readable before its commit, and even without the backlog the median
// waits half a transaction) and (T+c)/2 + c + the plain p99, c taken at the commit p99.
func TestRunTransactions(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-txn
repeats: 1
warmup: 4s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 2, replicas: 2}
  producers: {record_size: 100, duration: 4s, throttle: 1000}
  consumers: {count: 1, properties: {isolation.level: read_committed}}
parameters:
  mode:
    plain: {}
    txn: {producers.transaction: 100ms}
    aborts: {producers.count: 2, producers.transaction: 100ms, producers.transaction_aborts: 20%}
matrix:
  mode: [plain, txn, aborts]
`
	opts := options(t, parseStudy(t, text), text)
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rd := readRun(t, out.Dir)
	plain := repeats(t, rd, "mode=plain", 1)[0]
	txn := repeats(t, rd, "mode=txn", 1)[0]
	aborts := repeats(t, rd, "mode=aborts", 1)[0]
	for _, rep := range []results.Repeat{plain, txn, aborts} {
		checkValid(t, rep)
	}
	if plain.Summary.Transactions != nil || plain.Workload.Transaction != nil || plain.ProducerConfig["transaction.timeout.ms"] != "" {
		t.Errorf("plain scenario recorded transactions: %+v %+v %v", plain.Summary.Transactions, plain.Workload.Transaction, plain.ProducerConfig)
	}
	tx := txn.Summary.Transactions
	if tx == nil || tx.Committed == 0 || tx.Aborted != 0 || tx.Isolation != "read_committed" || tx.CommitLatency.Count == 0 {
		t.Fatalf("transactions %+v, want commits only, read_committed, with commit latencies", tx)
	}
	if txn.ProducerConfig["transactional.id"] == "" || txn.ProducerConfig["transaction.timeout.ms"] != "60000" {
		t.Errorf("producer config %v, want kbench's transactional.id and the timeout in force", txn.ProducerConfig)
	}
	var inBuckets int64
	for _, b := range txn.Latency[results.LatencyCommit] {
		inBuckets += b.Count
	}
	if inBuckets != tx.CommitLatency.Count {
		t.Errorf("commit histogram holds %d, summary counts %d", inBuckets, tx.CommitLatency.Count)
	}
	pe := plain.Summary.EndToEnd
	if pe == nil || pe.Count == 0 {
		t.Fatalf("plain scenario without end-to-end latency: %+v", pe)
	}
	const length = 100.0 // ms
	c99 := tx.CommitLatency.P99Ms
	lo, hi := length/2, (length+c99)/2+c99+pe.P99Ms
	e2e := txn.Summary.EndToEnd
	if e2e == nil || e2e.Count == 0 {
		t.Fatalf("transactional scenario without end-to-end latency: %+v", e2e)
	}
	if e2e.P50Ms < lo || e2e.P50Ms > hi {
		t.Errorf("read_committed end-to-end %+v: want p50 in [%.1f, %.1f] ms (commit p50 %.1f, p99 %.1f ms)", e2e, lo, hi, tx.CommitLatency.P50Ms, c99)
	}
	t.Logf("100 ms transactions: commit p50 %.1f ms, p99 %.1f ms; read_committed end-to-end p50 %.1f ms, p99 %.1f ms (asserted within [%.1f, %.1f]); plain end-to-end p50 %.1f ms, p99 %.1f ms; records/s %.0f vs %.0f",
		tx.CommitLatency.P50Ms, c99, e2e.P50Ms, e2e.P99Ms, lo, hi, pe.P50Ms, pe.P99Ms, txn.Summary.RecordsPerSec, plain.Summary.RecordsPerSec)
	if pe.P50Ms >= e2e.P50Ms {
		t.Errorf("plain end-to-end p50 %.1f ms, want it below the transactional one's %.1f ms", pe.P50Ms, e2e.P50Ms)
	}
	// The aborted fifth: acknowledged, hidden from the read_committed consumer, and
	// accounted (the repeat is valid only if it read exactly the others).
	ta, r := aborts.Summary.Transactions, aborts.Summary.Records
	if ta == nil || ta.Aborted == 0 || r == nil || r.Hidden != ta.AbortedRecords || r.Consumed == nil || *r.Consumed != r.Acked-r.Hidden {
		t.Errorf("aborted transactions %+v, records %+v: want some aborted, their records hidden and the rest consumed", ta, r)
	}
	m, err := report.Build(rd, report.Options{Generated: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Transactions) != 2 || m.Transactions[0].ID != "mode=txn" || m.Transactions[0].Plain != "mode=plain" || m.Transactions[0].ExpectedE2EP50 <= 0 {
		t.Errorf("report transactions %+v, want mode=txn and mode=aborts, paired with mode=plain", m.Transactions)
	}
	for _, row := range m.Transactions {
		t.Log(row.Text)
	}
}
