package preflight

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// brokerAutoCreate starts a kfake cluster with the topic "bench" whose brokers report
// auto.create.topics.enable=auto and num.partitions=6 (kfake itself does not describe
// them).
func brokerAutoCreate(t *testing.T, auto string) string {
	t.Helper()
	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(1, "bench"))
	c.ControlKey(int16(kmsg.DescribeConfigs), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kreq.(*kmsg.DescribeConfigsRequest)
		resp := req.ResponseKind().(*kmsg.DescribeConfigsResponse)
		for _, r := range req.Resources {
			rr := kmsg.NewDescribeConfigsResponseResource()
			rr.ResourceType, rr.ResourceName = r.ResourceType, r.ResourceName
			for name, v := range map[string]string{"auto.create.topics.enable": auto, "num.partitions": "6"} {
				cfg := kmsg.NewDescribeConfigsResponseResourceConfig()
				cfg.Name, cfg.Value = name, kmsg.StringPtr(v)
				rr.Configs = append(rr.Configs, cfg)
			}
			resp.Resources = append(resp.Resources, rr)
		}
		return resp, nil, true
	})
	return boot
}

func TestMissingTopic(t *testing.T) {
	tests := []struct {
		name string
		auto string
		need Need
		kind Kind
		say  string // in the error, or in the one note when the check passes
	}{
		{"produce, auto-create on", "true", Need{Produce: []string{"new"}}, 0, "the broker will create it on first use (num.partitions=6)"},
		{"produce, auto-create off", "false", Need{Produce: []string{"new"}}, MissingTopic, "auto.create.topics.enable=false"},
		{"produce, --no-create", "true", Need{Produce: []string{"new"}, NoCreate: true}, MissingTopic, "--no-create"},
		{"consume", "true", Need{Consume: []string{"new"}}, MissingTopic, "topic new does not exist"},
		{"produce, topic exists", "false", Need{Produce: []string{"bench"}}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boot := brokerAutoCreate(t, tt.auto)
			res, err := Check(context.Background(), boot, nil, tt.need)
			if KindOf(err) != tt.kind {
				t.Fatalf("kind %d (%v), want %d", KindOf(err), err, tt.kind)
			}
			got := ""
			if err != nil {
				got = err.Error()
			} else if len(res.Notes) > 0 {
				got = strings.Join(res.Notes, "\n")
			}
			if tt.say == "" && got != "" || !strings.Contains(got, tt.say) {
				t.Errorf("said %q, want %q", got, tt.say)
			}
		})
	}
}

// TestCheckBrokers names a broker whose advertised address cannot be reached, the usual
// advertised.listeners mistake.
func TestCheckBrokers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c := &checker{res: &Result{}}
	m := &metadata{brokers: []brokerAddr{{1, ln.Addr().String()}, {2, "kafka-2.invalid:9092"}}}
	err = c.checkBrokers(context.Background(), m)
	if KindOf(err) != Unreachable || !strings.Contains(err.Error(), "broker 2 advertises kafka-2.invalid:9092") ||
		!strings.Contains(err.Error(), "advertised.listeners") {
		t.Errorf("checkBrokers = %v, want broker 2 named as unreachable", err)
	}
	m.brokers = m.brokers[:1]
	if err := c.checkBrokers(context.Background(), m); err != nil {
		t.Errorf("a reachable broker: %v", err)
	}
}

func TestTopicErr(t *testing.T) {
	c := &checker{sec: security{protocol: "SASL_SSL", mechanism: "PLAIN", user: "ann"}}
	tests := []struct {
		err  *kerr.Error
		want Kind
	}{
		{kerr.TopicAuthorizationFailed, NotAuthorized},
		{kerr.LeaderNotAvailable, 0}, // a new topic: the clients wait for its leader
		{kerr.InvalidTopicException, Other},
	}
	for _, tt := range tests {
		err := c.topicErr("t", *tt.err, "write")
		if KindOf(err) != tt.want {
			t.Errorf("%s: kind %d (%v), want %d", tt.err.Message, KindOf(err), err, tt.want)
		}
	}
	if err := c.topicErr("t", *kerr.TopicAuthorizationFailed, "write"); !strings.Contains(err.Error(), "User:ann may not describe topic t") {
		t.Errorf("%v does not name the principal and the topic", err)
	}
}
