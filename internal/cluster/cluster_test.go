package cluster_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/zones"
)

var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	if os.Getenv("KBENCH_TEST_ORPHAN_DIR") != "" {
		os.Exit(m.Run()) // the child of TestAttachedBrokersDieWithTheirProcess starts its own
	}
	// The remote listener's proxies run in this process, so tests read their counters.
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3, SASL: "scram-sha-512", TLS: true,
		Client: &zones.Link{RTT: remoteRTT}}, &testCluster))
}

// clientOpts builds franz-go options for an endpoint from its Java client properties, the
// way a user's client would read the printed properties file.
func clientOpts(t *testing.T, e cluster.Endpoint, password string) []kgo.Opt {
	t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(e.Bootstrap, ",")...)}
	props := e.Properties
	if loc := props["ssl.truststore.location"]; loc != "" {
		pem, err := os.ReadFile(loc)
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			t.Fatalf("no certificates in %s", loc)
		}
		opts = append(opts, kgo.DialTLSConfig(&tls.Config{RootCAs: pool}))
	}
	if jaas := props["sasl.jaas.config"]; jaas != "" {
		m := regexp.MustCompile(`username="([^"]*)" password="([^"]*)"`).FindStringSubmatch(jaas)
		if m == nil {
			t.Fatalf("cannot read credentials from sasl.jaas.config")
		}
		if password == "" {
			password = m[2]
		}
		if props["sasl.mechanism"] != "SCRAM-SHA-512" {
			t.Fatalf("sasl.mechanism = %q, want SCRAM-SHA-512", props["sasl.mechanism"])
		}
		opts = append(opts, kgo.SASL(scram.Auth{User: m[1], Pass: password}.AsSha512Mechanism()))
	}
	return opts
}

func TestBrokersAndEndpoints(t *testing.T) {
	clustertest.Need(t, testCluster)
	if got := len(testCluster.Brokers()); got != 3 {
		t.Fatalf("brokers = %d, want 3", got)
	}
	for id, alive := range testCluster.Alive() {
		if !alive {
			t.Errorf("broker %d not alive", id)
		}
	}
	var names []string
	for _, e := range testCluster.Endpoints() {
		names = append(names, e.Name+"="+e.Protocol)
	}
	if got, want := strings.Join(names, ","), "plain=PLAINTEXT,sasl=SASL_SSL,tls=SSL,remote=PLAINTEXT"; got != want {
		t.Errorf("endpoints = %s, want %s", got, want)
	}
	reopened, err := cluster.Open(testCluster.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Bootstrap() != testCluster.Bootstrap() {
		t.Errorf("reopened bootstrap %s, want %s", reopened.Bootstrap(), testCluster.Bootstrap())
	}
}

// TestRoundTrip produces an exact number of records to a replication-factor-3 topic on each
// listener and reads every one of them back.
func TestRoundTrip(t *testing.T) {
	clustertest.Need(t, testCluster)
	for _, e := range testCluster.Endpoints() {
		t.Run(e.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			topic := "roundtrip-" + e.Name
			client, err := kgo.NewClient(append(clientOpts(t, e, ""), kgo.DefaultProduceTopic(topic),
				kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))...)
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			admin := kadm.NewClient(client)
			created, err := admin.CreateTopic(ctx, 3, 3, nil, topic)
			if err != nil || created.Err != nil {
				t.Fatalf("create topic: %v %v", err, created.Err)
			}
			details, err := admin.ListTopics(ctx, topic)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range details[topic].Partitions {
				if len(p.Replicas) != 3 {
					t.Errorf("partition %d has %d replicas, want 3", p.Partition, len(p.Replicas))
				}
			}
			const n = 5000
			for i := range n {
				client.Produce(ctx, &kgo.Record{Value: fmt.Appendf(nil, "%d", i)}, func(_ *kgo.Record, err error) {
					if err != nil {
						t.Errorf("produce: %v", err)
					}
				})
			}
			if err := client.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for len(seen) < n && ctx.Err() == nil {
				fetches := client.PollFetches(ctx)
				fetches.EachError(func(_ string, _ int32, err error) { t.Errorf("fetch: %v", err) })
				fetches.EachRecord(func(r *kgo.Record) {
					if seen[string(r.Value)] {
						t.Errorf("record %s read twice", r.Value)
					}
					seen[string(r.Value)] = true
				})
			}
			if len(seen) != n {
				t.Fatalf("read %d distinct records, want %d", len(seen), n)
			}
		})
	}
}

func TestWrongPasswordRejected(t *testing.T) {
	clustertest.Need(t, testCluster)
	e, ok := testCluster.Endpoint("sasl")
	if !ok {
		t.Fatal("no sasl endpoint")
	}
	client, err := kgo.NewClient(clientOpts(t, e, "not-the-password")...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = client.Ping(ctx)
	if !errors.Is(err, kerr.SaslAuthenticationFailed) {
		t.Fatalf("ping with a wrong password: %v, want %v", err, kerr.SaslAuthenticationFailed)
	}
}

func TestSecondStartInSameDirIsRefused(t *testing.T) {
	clustertest.Need(t, testCluster)
	_, err := cluster.Start(context.Background(), cluster.Options{Dir: testCluster.Dir(), Brokers: 1})
	if !errors.Is(err, cluster.ErrRunning) {
		t.Fatalf("second start: %v, want ErrRunning", err)
	}
	if _, err := os.Stat(testCluster.Brokers()[0].LogFile); err != nil {
		t.Fatalf("running cluster's files touched: %v", err)
	}
}

// TestKafkaToolsWithPrintedProperties runs Kafka's own tools against each secure listener
// with the client properties file the cluster wrote, as a user following `cluster up` would.
func TestKafkaToolsWithPrintedProperties(t *testing.T) {
	clustertest.Need(t, testCluster)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	kafka, err := cluster.Install(ctx, testCluster.KafkaVersion(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sasl", "tls"} {
		t.Run(name, func(t *testing.T) {
			e, _ := testCluster.Endpoint(name)
			topic := "kafka-tools-" + name
			out, err := kafka.Command(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", e.Bootstrap,
				"--command-config", e.PropertiesFile, "--create", "--topic", topic, "--partitions", "3", "--replication-factor", "3").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "Created topic "+topic) {
				t.Fatalf("kafka-topics --create: %v\n%s", err, out)
			}
			out, err = kafka.Command(ctx, "org.apache.kafka.tools.ProducerPerformance", "--topic", topic,
				"--num-records", "2000", "--record-size", "100", "--throughput", "-1",
				"--producer-props", "bootstrap.servers="+e.Bootstrap, "acks=all",
				"--producer.config", e.PropertiesFile).CombinedOutput()
			if err != nil || !regexp.MustCompile(`(?m)^2000 records sent, `).Match(out) {
				t.Fatalf("ProducerPerformance: %v\n%s", err, out)
			}
		})
	}
}

// TestStopLeavesNothing starts a second, one-broker cluster and checks that Stop ends its
// process and removes its directory.
func TestStopLeavesNothing(t *testing.T) {
	clustertest.Need(t, testCluster)
	c, err := cluster.Start(context.Background(), cluster.Options{Brokers: 1})
	if err != nil {
		t.Fatal(err)
	}
	pid := c.Brokers()[0].PID
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
		if stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); !strings.Contains(string(stat), ") Z") {
			t.Errorf("broker process %d still running after Stop", pid)
		}
	}
	if _, err := os.Stat(c.Dir()); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s still there after Stop: %v", c.Dir(), err)
	}
}

// TestAttachedBrokersDieWithTheirProcess starts a cluster from a child process that is then
// killed with SIGKILL (as a test timeout would): its broker must not outlive it.
func TestAttachedBrokersDieWithTheirProcess(t *testing.T) {
	clustertest.Need(t, testCluster)
	if os.Getenv("KBENCH_TEST_ORPHAN_CHILD") != "" {
		return
	}
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run", "^TestOrphanChild$")
	child.Env = append(os.Environ(), "KBENCH_TEST_ORPHAN_DIR="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// The child prints its broker's PID once the cluster is up, then waits to be killed.
	var pid int
	if _, err := fmt.Fscanf(out, "broker-pid %d\n", &pid); err != nil {
		_ = child.Process.Kill()
		t.Fatalf("child did not report its broker: %v", err)
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("broker %d outlived the process that started it", pid)
}

// TestOrphanChild is the child side of TestAttachedBrokersDieWithTheirProcess.
func TestOrphanChild(t *testing.T) {
	dir := os.Getenv("KBENCH_TEST_ORPHAN_DIR")
	if dir == "" {
		t.Skip("runs only as the child of TestAttachedBrokersDieWithTheirProcess")
	}
	c, err := cluster.Start(context.Background(), cluster.Options{Brokers: 1, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("broker-pid %d\n", c.Brokers()[0].PID)
	time.Sleep(time.Minute)
}

// TestStartAgainWhenAPortIsTaken takes the first broker's client port after kbench chose it
// and before the broker binds it: Start must start again on new ports, not fail.
func TestStartAgainWhenAPortIsTaken(t *testing.T) {
	clustertest.Need(t, testCluster)
	taken := cluster.TakeClientPortOnNextStart(t)
	var log strings.Builder
	c, err := cluster.Start(context.Background(), cluster.Options{Brokers: 1, Log: &log})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Stop()
	if *taken == 0 {
		t.Fatal("no port was taken: the test did not exercise the retry")
	}
	if !strings.Contains(log.String(), "starting again on new ports") {
		t.Errorf("log does not say the start was retried:\n%s", log.String())
	}
	if want := fmt.Sprintf(":%d", *taken); strings.HasSuffix(c.Bootstrap(), want) {
		t.Errorf("bootstrap %s uses the taken port %d", c.Bootstrap(), *taken)
	}
}
