package cluster_test

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// remoteRTT is the shared test cluster's client link.
const remoteRTT = 10 * time.Millisecond

// connects records every connection a client opens, by the address it reached.
type connects struct {
	mu    sync.Mutex
	addrs []string
}

func (c *connects) OnBrokerConnect(_ kgo.BrokerMetadata, _ time.Duration, conn net.Conn, err error) {
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addrs = append(c.addrs, conn.RemoteAddr().String())
}

// TestRemoteListenerGoesThroughProxies proves that a client of the remote listener never
// reaches a broker but through the proxies: metadata names only proxy addresses, every
// connection the client opened went to a proxy, and the proxies accepted exactly as many
// connections as the client opened (no more came from elsewhere, none went around).
func TestRemoteListenerGoesThroughProxies(t *testing.T) {
	clustertest.Need(t, testCluster)
	e, ok := testCluster.Endpoint("remote")
	if !ok {
		t.Fatal("no remote endpoint")
	}
	n, ok := testCluster.Network()
	if !ok || n.Link.RTT != remoteRTT || len(n.Routes) != 3 {
		t.Fatalf("network = %+v, %v; want a %s link with 3 routes", n, ok, remoteRTT)
	}
	var proxies []string
	for _, r := range n.Routes {
		proxies = append(proxies, r.Listen)
	}
	if got := strings.Split(e.Bootstrap, ","); !slices.Equal(got, proxies) {
		t.Fatalf("remote bootstrap %v, want the proxies %v", got, proxies)
	}
	before := testCluster.ProxyCounters()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hook := &connects{}
	const topic = "remote-through-proxies"
	client, err := kgo.NewClient(kgo.SeedBrokers(proxies...), kgo.WithHooks(hook), kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite(),
		kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	admin := kadm.NewClient(client)
	meta, err := admin.BrokerMetadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range meta.Brokers {
		if addr := net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))); !slices.Contains(proxies, addr) {
			t.Errorf("metadata names broker %d at %s, not a proxy %v", b.NodeID, addr, proxies)
		}
	}
	// 3 partitions with replication factor 3: every broker leads one, so the client talks
	// to all three.
	if created, err := admin.CreateTopic(ctx, 3, 3, nil, topic); err != nil || created.Err != nil {
		t.Fatalf("create topic: %v %v", err, created.Err)
	}
	const records = 30
	for i := range records {
		start := time.Now()
		r := &kgo.Record{Partition: int32(i % 3), Value: []byte("v")}
		if err := client.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatalf("produce: %v", err)
		}
		// A lower bound only: a request and its answer each wait RTT/2 in the proxy.
		if took := time.Since(start); took < remoteRTT {
			t.Fatalf("produce %d took %s, less than the %s RTT", i, took, remoteRTT)
		}
	}
	read := 0
	for read < records {
		fetches := client.PollFetches(ctx)
		if err := fetches.Err0(); err != nil {
			t.Fatalf("consume: %v", err)
		}
		read += fetches.NumRecords()
	}
	client.Close()

	hook.mu.Lock()
	defer hook.mu.Unlock()
	for _, addr := range hook.addrs {
		if !slices.Contains(proxies, addr) {
			t.Errorf("the client connected to %s, not a proxy", addr)
		}
	}
	after := testCluster.ProxyCounters()
	accepted := int64(0)
	for _, r := range n.Routes {
		d := after[r.Name].Accepts - before[r.Name].Accepts
		if d == 0 {
			t.Errorf("%s accepted no connection, though its broker leads a partition", r.Name)
		}
		accepted += d
	}
	if accepted != int64(len(hook.addrs)) {
		t.Errorf("proxies accepted %d connections, the client opened %d", accepted, len(hook.addrs))
	}
}
