package study

import (
	"os"
	"testing"
)

// TestExampleStudies loads the studies under docs/examples, which the docs run and quote,
// so that a format change cannot leave them unloadable.
func TestExampleStudies(t *testing.T) {
	// client_rtt runs live on the first cluster; broker_cpus, disk, brokers and
	// kafka_version each take a cluster of their own: 1 + 4 shapes. The links change live:
	// one cluster. Transactions against none: one cluster.
	for name, shapes := range map[string]int{"conditions": 5, "links": 1, "transactions": 1} {
		path := "../../docs/examples/" + name + ".yaml"
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := Parse(path, data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if n := len(plan.ShapeGroups()); n != shapes {
			t.Errorf("%s: %d cluster shapes, want %d", path, n, shapes)
		}
	}
}
