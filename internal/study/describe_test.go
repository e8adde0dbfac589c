package study

import "os"

// The dry-run text of the built-in quick study.
func ExamplePlan_Describe() {
	plan, err := Load("quick")
	if err != nil {
		panic(err)
	}
	if err := plan.Describe(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// study quick: Quick demo: batch size and acks on a 3-broker cluster
	// cluster: embedded, 3 brokers, Kafka 4.4.0, heap 1g
	// each scenario: fresh topic, warm-up 2s (discarded), measured window, cool-down 0s; 3 repeats
	//
	// 4 scenarios:
	//   #  id                    topic   load                                                                                           estimate
	//   1  batch=1KiB,acks=1     3p x3r  1 producer, 1KiB records, for 5s, acks=1 batch.size=1024 buffer.memory=1048576 linger.ms=0     10s
	//   2  batch=1KiB,acks=all   3p x3r  1 producer, 1KiB records, for 5s, acks=all batch.size=1024 buffer.memory=1048576 linger.ms=0   10s
	//   3  batch=16KiB,acks=1    3p x3r  1 producer, 1KiB records, for 5s, acks=1 batch.size=16384 buffer.memory=1048576 linger.ms=0    10s
	//   4  batch=16KiB,acks=all  3p x3r  1 producer, 1KiB records, for 5s, acks=all batch.size=16384 buffer.memory=1048576 linger.ms=0  10s
	//
	// hypotheses:
	//   - mean(throughput(batch=16KiB)) > mean(throughput(batch=1KiB))
	//       left: mean per round of batch=16KiB,acks=1 | batch=16KiB,acks=all
	//       right: mean per round of batch=1KiB,acks=1 | batch=1KiB,acks=all
	//   - mean(throughput(acks=1)) > mean(throughput(acks=all))
	//       left: mean per round of batch=1KiB,acks=1 | batch=16KiB,acks=1
	//       right: mean per round of batch=1KiB,acks=all | batch=16KiB,acks=all
	//
	// notes:
	//   - Three repeats of 5 s per scenario (after 2 s of warm-up each, the cluster's JIT warmed for 15 s before) so the whole study, cluster start included, stays under three minutes; three repeats are the fewest with which a verdict can reach 95% confidence. Run dms-producer for longer, comparable figures.
	//   - buffer.memory is 1 MiB instead of the Java default 32 MiB: one producer's pipeline (5 requests in flight per broker, one batch of at most 16 KiB each here: 240 KiB) needs far less, and a timed repeat ends by waiting for every buffered record, which a full buffer stretches: at acks=all with 1 KiB batches a 4 MiB buffer drained for 15 s per repeat on a host where that scenario sent 272 records/s. The latency of these unthrottled scenarios is mostly time in that buffer (buffer-bound).
	//   - cluster.jit_warmup is 15 s here (1 minute by default) to fit three minutes: the brokers' JIT is still compiling in the first rounds, which the report flags as drift. Measured on a 2-core host: with 15 s, records/s rose about 84% a round (Kendall tau 1.00) and the repeats spread +/-85%; with the default, the warm-up ran 55 s, no metric drifted and the repeats spread +/-39%, and the demo took 3m24s.
	//
	// estimated duration: 2m35s (12 scenario runs, cluster start and warm-up 35s)
}
