package report

import (
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// Several producers are several perf-test processes at once, each with its share of the
// records in its own command (100,000 over 3: 33,334, 33,333, 33,333) and of the rate
// (30,000/s over 3: 10,000/s).
func TestToolCommandsPerProcess(t *testing.T) {
	r := results.Repeat{Topic: results.Topic{Name: "t"},
		Workload: results.Workload{Kind: "produce", RecordSize: 1024, Throughput: 30000, Producers: 3}}
	kb, tool := clientCommands(r, 100000)
	const props = "--producer-props bootstrap.servers=$BOOTSTRAP"
	wantTool := "# 3 processes at once, 100,000 records in all\n" +
		"kafka-producer-perf-test.sh --topic t --num-records 33334 --record-size 1024 --throughput 10000 " + props + " &\n" +
		"for i in $(seq 2); do kafka-producer-perf-test.sh --topic t --num-records 33333 --record-size 1024 --throughput 10000 " + props + " & done\n" +
		"wait"
	if tool != wantTool {
		t.Errorf("tool:\n%s\nwant:\n%s", tool, wantTool)
	}
	if want := "kbench produce --topic t --num-records 100000 --record-size 1024 --throughput 30000 --producers 3 " + props; kb != want {
		t.Errorf("kbench:\n%s\nwant:\n%s", kb, want)
	}
	// One producer: one command, the whole count.
	r.Workload.Producers = 1
	if _, tool := clientCommands(r, 100000); tool != "kafka-producer-perf-test.sh --topic t --num-records 100000 --record-size 1024 --throughput 30000 "+props {
		t.Errorf("one producer: %s", tool)
	}
}
