package results

import (
	"reflect"
	"testing"

	"github.com/kbench/kbench/internal/rebalance"
)

// A log written to the run directory reads back equal, so the figures can be recomputed.
func TestRebalanceLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	log := &rebalance.Log{Partitions: 2, EndUs: 9_000_000,
		Events:  []rebalance.Event{{Spec: "kill@5s", Kind: rebalance.Kill, AtUs: 5_000_000, Member: 1}},
		Changes: []rebalance.Change{{AtUs: 1, Member: 0, Kind: rebalance.Assigned, Partitions: []int32{0, 1}}}}
	log.Records.Add(1, 4_000_000, 7, 3_990_000)
	if err := WriteRebalanceLog(dir, "s", 2, log); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRebalanceLog(dir, "s", 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, log) {
		t.Errorf("read %+v, wrote %+v", got, log)
	}
}
