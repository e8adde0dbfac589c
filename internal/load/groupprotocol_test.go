package load

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// TestConsumerProtocolFake consumes with group.protocol=consumer from a fake Kafka 4.1,
// which serves KIP-848, and from a fake 3.9, which does not: there Consume stops with the
// reason instead of letting franz-go run the classic protocol.
func TestConsumerProtocolFake(t *testing.T) {
	props := map[string]string{"group.protocol": "consumer"}
	for _, tt := range []struct {
		version *kversion.Versions
		wantErr string
	}{{kversion.V4_1_0(), ""}, {kversion.V3_9_0(), "group.protocol=consumer needs brokers that serve KIP-848"}} {
		t.Run(tt.version.VersionGuess(), func(t *testing.T) {
			_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(2, "t"), kfake.MaxVersions(tt.version))
			const n = 600
			if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "t", RecordSize: 10, Records: n}, nil); err != nil {
				t.Fatal(err)
			}
			res, err := Consume(context.Background(), ConsumerConfig{Bootstrap: boot, Topics: []string{"t"}, Consumers: 2,
				Records: n, Timeout: 20 * time.Second, Properties: props}, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Records != n || res.Settings["group.protocol"] != "consumer" || res.Settings["group.remote.assignor"] != "uniform" {
				t.Fatalf("consumed %d of %d; settings group.protocol=%q group.remote.assignor=%q", res.Records, n,
					res.Settings["group.protocol"], res.Settings["group.remote.assignor"])
			}
			if _, ok := res.Settings["session.timeout.ms"]; ok {
				t.Errorf("session.timeout.ms recorded as in force under the consumer protocol")
			}
		})
	}
}

// TestRealConsumerProtocol consumes with group.protocol=consumer from the embedded cluster and
// asks the broker what kind of group it ran: a KIP-848 group lists as type "consumer".
func TestRealConsumerProtocol(t *testing.T) {
	clustertest.Need(t, testCluster)
	topic := "real-consumer-protocol"
	createTopic(t, topic, 4)
	const n = 20_000
	if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: testCluster.Bootstrap(), Topic: topic,
		RecordSize: 100, Records: n, TimestampHeader: true}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ protocol, groupType string }{{"consumer", "consumer"}, {"classic", "classic"}} {
		group := "real-protocol-" + tt.protocol
		res, err := Consume(context.Background(), ConsumerConfig{Bootstrap: testCluster.Bootstrap(), Topics: []string{topic},
			Group: group, Consumers: 2, Records: n, Timeout: 30 * time.Second,
			Properties: map[string]string{"group.protocol": tt.protocol}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Records < n || res.Settings["group.protocol"] != tt.protocol {
			t.Fatalf("%s: consumed %d of %d, group.protocol recorded %q", tt.protocol, res.Records, n, res.Settings["group.protocol"])
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
		if err != nil {
			t.Fatal(err)
		}
		listed, err := kadm.NewClient(cl).ListGroupsByType(context.Background(), []string{tt.groupType})
		cl.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := listed[group]; !ok {
			t.Errorf("group %s is not listed as a %s group: %v", group, tt.groupType, listed.Groups())
		}
	}
}
