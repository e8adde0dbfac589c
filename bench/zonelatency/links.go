package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/zones"
)

// bandwidthCap caps the running remote link at -bandwidth and reports the MiB/s an
// unthrottled acks=1 producer of 1 KiB records reached through it. The cap counts every
// byte the proxy carries (requests, batch headers), so the records' MiB/s should come out
// a little under it.
func bandwidthCap(ctx context.Context, o options, exe string, c *cluster.Cluster) error {
	capBytes, err := zones.ParseBandwidth(o.bandwidth)
	if err != nil {
		return fmt.Errorf("-bandwidth: %w", err)
	}
	n, _ := c.Network()
	if err := c.SetClientLink(zones.Link{RTT: n.Link.RTT, Bandwidth: capBytes}); err != nil {
		return err
	}
	remote, _ := c.Endpoint("remote")
	var got []float64
	for i := range o.pairs {
		// 6 MiB at the cap is a few seconds; a 1 MiB buffer keeps the drain short.
		cmd := exec.CommandContext(ctx, exe, "produce", "--topic", fmt.Sprintf("zonelatency-%d-cap-%d", time.Now().Unix(), i),
			"--num-records", "6000", "--record-size", "1024", "--throughput", "-1", "--json",
			"--producer-props", "acks=1", "linger.ms=0", "buffer.memory=1048576", "bootstrap.servers="+remote.Bootstrap)
		r, err := runProduce(cmd, remote.Bootstrap, 0)
		if err != nil {
			return err
		}
		got = append(got, r.mibPerSec)
		fmt.Printf("capped run %d: %.3f MiB/s of records through a %s/s cap (%.1f%% of it)\n",
			i+1, r.mibPerSec, o.bandwidth, 100*r.mibPerSec*(1<<20)/float64(capBytes))
	}
	fmt.Printf("median capped: %.3f MiB/s under %s/s\n", median(got), o.bandwidth)
	return nil
}

// brokerLatency starts 3 brokers each in its own zone and measures, in pairs, an acks=all
// p50 with the link between brokers at 0 and at -broker-rtt, changed on the running
// proxies.
func brokerLatency(ctx context.Context, o options, exe string) error {
	c, err := cluster.Start(ctx, cluster.Options{Brokers: 3, Log: os.Stderr,
		Broker: &zones.Link{}, ProxyCommand: []string{exe, "zones", "proxy"}})
	if err != nil {
		return err
	}
	defer c.Stop()
	topic := fmt.Sprintf("zonelatency-%d-replicated", time.Now().Unix())
	if err := createTopic(ctx, c.Bootstrap(), topic); err != nil {
		return err
	}
	fmt.Printf("broker latency: 3 brokers in their own zones, acks=all, 30 records/s of 100 bytes, 300 records per run, topic of 3 partitions x 3 replicas\n")
	links := []zones.Link{{}, {RTT: o.brokerRTT}}
	var shifts []float64
	for i := -1; i < o.pairs; i++ { // pair -1 warms the replication paths, unmeasured
		var p50 [2]float64
		for j, l := range links {
			if err := c.SetBrokerLink(l); err != nil {
				return err
			}
			cmd := exec.CommandContext(ctx, exe, "produce", "--topic", topic, "--num-records", "300",
				"--record-size", "100", "--throughput", "30", "--json",
				"--producer-props", "acks=all", "linger.ms=0", "bootstrap.servers="+c.Bootstrap())
			r, err := runProduce(cmd, c.Bootstrap(), 0)
			if err != nil {
				return err
			}
			p50[j] = r.p50Ms
		}
		if i < 0 {
			continue
		}
		shifts = append(shifts, p50[1]-p50[0])
		fmt.Printf("pair %d: acks=all p50 %.2f ms at broker rtt 0, %.2f ms at %s, shift %.2f ms\n", i+1, p50[0], p50[1], o.brokerRTT, p50[1]-p50[0])
	}
	fmt.Printf("median shift %.2f ms for a %s broker RTT\n", median(shifts), o.brokerRTT)
	return nil
}

// createTopic makes a topic of 3 partitions with 3 replicas, which acks=all waits on.
func createTopic(ctx context.Context, bootstrap, topic string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
	if err != nil {
		return err
	}
	defer cl.Close()
	resp, err := kadm.NewClient(cl).CreateTopic(ctx, 3, 3, nil, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	return nil
}
