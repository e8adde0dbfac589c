package netns_test

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
)

// startCluster starts a 1-broker embedded cluster whose client listener is at addr, stopped
// when t ends. One broker: the test proves the route, not replication, on a shared machine.
func startCluster(t *testing.T, addr string) *cluster.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an embedded Kafka cluster (not under -short)")
	}
	c, err := cluster.Start(context.Background(), cluster.Options{Brokers: 1, Host: addr})
	if err != nil {
		t.Fatalf("start cluster at %s: %v", addr, err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("stop cluster: %v", err)
		}
	})
	return c
}

// endOffsets sums the topic's end offsets: the records the brokers hold, counted without
// kbench.
func endOffsets(t *testing.T, bootstrap, topic string) int64 {
	t.Helper()
	client, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ends, err := kadm.NewClient(client).ListEndOffsets(context.Background(), topic)
	if err != nil {
		t.Fatalf("list end offsets of %s: %v", topic, err)
	}
	var sum int64
	ends.Each(func(o kadm.ListedOffset) { sum += o.Offset })
	return sum
}

// TestProduceFromHost runs kbench produce inside a host against an embedded cluster that
// listens at the root namespace's server address, as a client on another machine would.
func TestProduceFromHost(t *testing.T) {
	hosts := newNet(t, 1)
	c := startCluster(t, hosts.Server().String())
	if !strings.HasPrefix(c.Bootstrap(), hosts.Server().String()+":") {
		t.Fatalf("bootstrap %s is not at the server address %s", c.Bootstrap(), hosts.Server())
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	const topic, records = "netns-produce", 3000
	out, err := helper(t, ctx, hosts.Hosts[0], "kbench", "produce", "--bootstrap-server", c.Bootstrap(),
		"--topic", topic, "--num-records", "3000", "--record-size", "100", "--throughput", "-1").CombinedOutput()
	if err != nil {
		t.Fatalf("kbench produce in host %s: %v\n%s", hosts.Hosts[0].Name, err, out)
	}
	// kbench's own summary line, as Kafka's tool prints it: "3000 records sent, ...".
	if !strings.Contains(string(out), "3000 records sent") {
		t.Errorf("no summary of 3000 records in:\n%s", out)
	}
	// The idempotent producer (the Java default) writes each record exactly once.
	if got := endOffsets(t, c.Bootstrap(), topic); got != records {
		t.Errorf("brokers hold %d records of %s, want %d", got, topic, records)
	}
}
