package kafka

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

func TestShareGroupSupport(t *testing.T) {
	shareAPIs := []kmsg.ApiVersionsResponseApiKey{{ApiKey: int16(kmsg.ShareGroupHeartbeat), MaxVersion: 1},
		{ApiKey: int16(kmsg.ShareFetch), MaxVersion: 1}, {ApiKey: int16(kmsg.ShareAcknowledge), MaxVersion: 1}}
	level := func(l int16) []kmsg.ApiVersionsResponseFinalizedFeature {
		return []kmsg.ApiVersionsResponseFinalizedFeature{{Name: "metadata.version", MaxVersionLevel: 27},
			{Name: "share.version", MaxVersionLevel: l, MinVersionLevel: l}}
	}
	tests := []struct {
		name    string
		resp    kmsg.ApiVersionsResponse
		wantErr string
	}{
		{"kafka 4.2: on", kmsg.ApiVersionsResponse{ApiKeys: shareAPIs, FinalizedFeatures: level(1)}, ""},
		{"kafka 4.4: share.version 2", kmsg.ApiVersionsResponse{ApiKeys: shareAPIs, FinalizedFeatures: level(2)}, ""},
		{"kafka 4.1 as formatted: off", kmsg.ApiVersionsResponse{ApiKeys: shareAPIs, FinalizedFeatures: level(1)[:1]},
			"share groups are off on these brokers (feature share.version=0): kafka-features.sh"},
		{"kafka 3.9: no share APIs", kmsg.ApiVersionsResponse{ApiKeys: shareAPIs[2:], FinalizedFeatures: level(1)[:1]},
			"these brokers lack ShareGroupHeartbeat"},
	}
	for _, tt := range tests {
		err := shareGroupSupport(&tt.resp)
		if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}

// TestShareGroupConfigs sets and removes a share group's configs on a fake cluster, reading
// them back with DescribeConfigs.
func TestShareGroupConfigs(t *testing.T) {
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.MaxVersions(kversion.V4_2_0()))
	conn, err := Connect(boot, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := conn.NewClient("test")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	if err := CheckShareGroups(ctx, kadm.NewClient(cl)); err != nil {
		t.Fatal(err)
	}
	configs := map[string]string{"share.auto.offset.reset": "earliest"}
	if err := SetShareGroupConfigs(ctx, cl, "sg", configs); err != nil {
		t.Fatal(err)
	}
	describe := func() string {
		req := kmsg.NewPtrDescribeConfigsRequest()
		res := kmsg.NewDescribeConfigsRequestResource()
		res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, "sg"
		res.ConfigNames = []string{"share.auto.offset.reset"}
		req.Resources = append(req.Resources, res)
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.Resources {
			for _, c := range r.Configs {
				if c.Name == "share.auto.offset.reset" && c.Value != nil && c.Source == kmsg.ConfigSourceGroupConfig {
					return *c.Value
				}
			}
		}
		return ""
	}
	if got := describe(); got != "earliest" {
		t.Fatalf("share.auto.offset.reset set to %q, want earliest", got)
	}
	if err := DeleteShareGroup(ctx, cl, "sg", configs); err != nil {
		t.Fatal(err)
	}
	if got := describe(); got != "" {
		t.Errorf("share.auto.offset.reset still %q after the group was deleted", got)
	}
}
