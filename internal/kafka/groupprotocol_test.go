package kafka

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/settings"
)

func TestGroupProtocolOptions(t *testing.T) {
	tests := []struct {
		props      map[string]string
		serverSide bool
		balancer   string // kgo's protocol name of the first balancer
	}{
		{props: map[string]string{}, serverSide: false, balancer: "cooperative-sticky"},
		{props: map[string]string{"group.protocol": "consumer"}, serverSide: true, balancer: "sticky"},
		{props: map[string]string{"group.protocol": "consumer", "group.remote.assignor": "range"}, serverSide: true, balancer: "range"},
	}
	for _, tt := range tests {
		s, err := ParseProperties(settings.Consumer, tt.props)
		if err != nil {
			t.Fatal(err)
		}
		opts := append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup("g"), kgo.ConsumeTopics("t")}, s.Opts...)
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		serverSide, _ := cl.OptValue(kgo.ServerSideBalancer).(bool)
		balancers, _ := cl.OptValue(kgo.Balancers).([]kgo.GroupBalancer)
		cl.Close()
		if serverSide != tt.serverSide || len(balancers) == 0 || balancers[0].ProtocolName() != tt.balancer {
			t.Errorf("%v: server side %v, first balancer %v; want %v, %s", tt.props, serverSide, balancers, tt.serverSide, tt.balancer)
		}
	}
}

func TestConsumerProtocolSupport(t *testing.T) {
	key := func(k kmsg.Key, maxV int16) kmsg.ApiVersionsResponseApiKey {
		return kmsg.ApiVersionsResponseApiKey{ApiKey: int16(k), MaxVersion: maxV}
	}
	feature := func(name string, level int16) kmsg.ApiVersionsResponseFinalizedFeature {
		return kmsg.ApiVersionsResponseFinalizedFeature{Name: name, MaxVersionLevel: level, MinVersionLevel: level}
	}
	tests := []struct {
		name    string
		resp    kmsg.ApiVersionsResponse
		wantErr string
	}{
		{"kafka 4: heartbeat v1, group.version 1", kmsg.ApiVersionsResponse{
			ApiKeys:           []kmsg.ApiVersionsResponseApiKey{key(kmsg.ConsumerGroupHeartbeat, 1)},
			FinalizedFeatures: []kmsg.ApiVersionsResponseFinalizedFeature{feature("metadata.version", 27), feature("group.version", 1)}}, ""},
		{"no heartbeat API (kafka 3.6)", kmsg.ApiVersionsResponse{
			ApiKeys: []kmsg.ApiVersionsResponseApiKey{key(kmsg.Fetch, 15)}}, "these brokers do not"},
		{"heartbeat v0 only (kafka 3.7 early access)", kmsg.ApiVersionsResponse{
			ApiKeys: []kmsg.ApiVersionsResponseApiKey{key(kmsg.ConsumerGroupHeartbeat, 0)}}, "these brokers do not"},
		{"group.version off", kmsg.ApiVersionsResponse{
			ApiKeys:           []kmsg.ApiVersionsResponseApiKey{key(kmsg.ConsumerGroupHeartbeat, 1)},
			FinalizedFeatures: []kmsg.ApiVersionsResponseFinalizedFeature{feature("metadata.version", 21)}}, "group.version feature at 1 or more (it is 0"},
		{"no finalized features at all", kmsg.ApiVersionsResponse{
			ApiKeys: []kmsg.ApiVersionsResponseApiKey{key(kmsg.ConsumerGroupHeartbeat, 1)}}, ""},
	}
	for _, tt := range tests {
		err := consumerProtocolSupport(&tt.resp)
		if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestCheckConsumerProtocolAsksTheBroker(t *testing.T) {
	for _, tt := range []struct {
		version *kversion.Versions
		ok      bool
	}{{kversion.V4_1_0(), true}, {kversion.V3_9_0(), false}} {
		_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.MaxVersions(tt.version))
		conn, err := Connect(boot, nil)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := conn.NewClient("test")
		if err != nil {
			t.Fatal(err)
		}
		err = CheckConsumerProtocol(context.Background(), kadm.NewClient(cl))
		cl.Close()
		if (err == nil) != tt.ok {
			t.Errorf("Kafka %s: error %v, want ok=%v", tt.version.VersionGuess(), err, tt.ok)
		}
	}
}
