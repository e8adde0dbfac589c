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
	// cluster: embedded, 3 brokers, Kafka 4.1.1, heap 512m
	// each scenario: fresh topic, warm-up 5s (discarded), measured window, cool-down 2s; 1 repeat
	//
	// 4 scenarios:
	//   #  id                    topic   load                                                                      estimate
	//   1  batch=1KiB,acks=1     3p x3r  1 producer, 1KiB records, for 10s, acks=1 batch.size=1024 linger.ms=0     20s
	//   2  batch=1KiB,acks=all   3p x3r  1 producer, 1KiB records, for 10s, acks=all batch.size=1024 linger.ms=0   20s
	//   3  batch=16KiB,acks=1    3p x3r  1 producer, 1KiB records, for 10s, acks=1 batch.size=16384 linger.ms=0    20s
	//   4  batch=16KiB,acks=all  3p x3r  1 producer, 1KiB records, for 10s, acks=all batch.size=16384 linger.ms=0  20s
	//
	// hypotheses:
	//   - throughput(batch=16KiB) > throughput(batch=1KiB)
	//   - throughput(acks=1) > throughput(acks=all)
	//
	// notes:
	//   - One repeat of 10 s per scenario so the whole study, cluster start included, stays under three minutes; run dms-producer for repeated, comparable figures.
	//
	// estimated duration: 1m40s (4 scenario runs, cluster start 20s)
}
