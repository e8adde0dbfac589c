package runner

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/results"
)

// TestUnreachableCluster attaches to a closed port: a clear error and no run directory left
// behind.
func TestUnreachableCluster(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	text := "name: t-unreachable\nrepeats: 1\n"
	opts := options(t, parseStudy(t, text), text)
	opts.External = &External{Bootstrap: addr}
	start := time.Now()
	out, err := Run(context.Background(), opts)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), addr) {
		t.Fatalf("run: %v, want an error naming %s", err, addr)
	}
	// How quickly is the ping's bound (pingTimeout) by construction; a test on the wall
	// clock would only measure how busy the machine is.
	t.Logf("after %s: %v", took.Round(time.Millisecond), err)
	if out != nil {
		t.Errorf("outcome %+v, want none", out)
	}
	if entries, _ := os.ReadDir(opts.RunsDir); len(entries) > 0 {
		t.Errorf("a run directory was created: %v", entries)
	}
}

// TestListeners runs one scenario per listener of a SASL/TLS cluster the caller started
// (Options.Cluster) and checks which security protocol each one's clients used.
func TestListeners(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-listeners
repeats: 1
warmup: 1s
cooldown: 0s
cluster: {brokers: 2, sasl: scram-sha-512, tls: true}
defaults:
  topic: {partitions: 1, replicas: 2}
  producers: {record_size: 100, duration: 1s, rate: 300}
scenarios:
  - {listener: plain}
  - {listener: tls, consumers: 1}
`
	opts := options(t, parseStudy(t, text), text)
	opts.External, opts.Cluster = nil, testCluster
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rd := readRun(t, out.Dir)
	for id, want := range map[string]string{"listener=plain": "PLAINTEXT", "listener=tls,consumers=1": "SSL"} {
		rep := repeats(t, rd, id, 1)[0]
		if got := rep.ProducerConfig["security.protocol"]; got != want {
			t.Errorf("%s: security.protocol %q, want %s", id, got, want)
		}
		checkValid(t, rep)
		if rep.Summary.RecordsAcked == 0 {
			t.Errorf("%s: no record acknowledged", id)
		}
	}
	// Without a listener the clients use the cluster's most secure one: SCRAM over TLS.
	if got := embeddedTarget(testCluster, nil).props["security.protocol"]; got != "SASL_SSL" {
		t.Errorf("default listener's security.protocol %q, want SASL_SSL", got)
	}
	if got := rd.Run.Environment.Cluster; got != results.Embedded {
		t.Errorf("environment cluster %q, want embedded", got)
	}
	if !testCluster.Alive()[1] {
		t.Fatal("the caller's cluster was stopped by the run")
	}
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the run: %v", left)
	}
}

// TestListenerOnExternalCluster refuses, before anything runs, a scenario listener that the
// target cannot honour.
func TestListenerOnExternalCluster(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := "name: t-ext-listener\nrepeats: 1\ncluster: {sasl: plain}\ndefaults: {listener: sasl}\n"
	opts := options(t, parseStudy(t, text), text)
	_, err := Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "listener sasl") {
		t.Fatalf("run: %v, want an error about listener sasl", err)
	}
	if entries, _ := os.ReadDir(opts.RunsDir); len(entries) > 0 {
		t.Errorf("a run directory was created: %v", entries)
	}
}
