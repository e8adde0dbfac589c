package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ShareFeatureHint says how to turn share groups on, for errors that find them off.
const ShareFeatureHint = "kafka-features.sh --bootstrap-server HOST:PORT upgrade --feature share.version=1; Kafka 4.1 formats new clusters with it off, 4.2 and later with it on"

// CheckShareGroups asks every broker adm reaches whether it serves share groups (KIP-932):
// ShareGroupHeartbeat and ShareFetch in its ApiVersions, and the share.version feature
// finalized at 1 or more.
func CheckShareGroups(ctx context.Context, adm *kadm.Client) error {
	versions, err := adm.ApiVersions(ctx)
	if err != nil {
		return fmt.Errorf("ask the brokers whether they serve share groups: %w", err)
	}
	for _, v := range versions.Sorted() {
		if v.Err != nil {
			return fmt.Errorf("ask broker %d whether it serves share groups: %w", v.NodeID, v.Err)
		}
		if err := shareGroupSupport(v.Raw()); err != nil {
			return fmt.Errorf("broker %d: %w", v.NodeID, err)
		}
	}
	return nil
}

// shareGroupSupport reads an ApiVersions response (see CheckShareGroups).
func shareGroupSupport(resp *kmsg.ApiVersionsResponse) error {
	apis := map[int16]bool{}
	for _, k := range resp.ApiKeys {
		apis[k.ApiKey] = true
	}
	for _, k := range []kmsg.Key{kmsg.ShareGroupHeartbeat, kmsg.ShareFetch, kmsg.ShareAcknowledge} {
		if !apis[int16(k)] {
			return fmt.Errorf("share groups need brokers that serve KIP-932 (Kafka 4.1 or later, %s); these brokers lack %s", ShareFeatureHint, k.Name())
		}
	}
	level := int16(0) // a broker lists a feature only above level 0
	for _, f := range resp.FinalizedFeatures {
		if f.Name == "share.version" {
			level = f.MaxVersionLevel
		}
	}
	if level < 1 {
		return fmt.Errorf("share groups are off on these brokers (feature share.version=%d): %s", level, ShareFeatureHint)
	}
	return nil
}

// ShareGroupExists says whether group is a group the cluster knows, of any type: kbench
// configures and deletes only share groups it brought into being.
func ShareGroupExists(ctx context.Context, adm *kadm.Client, group string) (bool, error) {
	listed, err := adm.ListGroups(ctx)
	if err != nil {
		return false, fmt.Errorf("list the cluster's groups (to check share group %s is new): %w", group, err)
	}
	_, ok := listed[group]
	return ok, nil
}

// SetShareGroupConfigs sets group-level configs of a share group (IncrementalAlterConfigs on
// the GROUP resource, Kafka 4.0+), such as share.auto.offset.reset=earliest, without which a
// new share group reads only records produced after it joined.
func SetShareGroupConfigs(ctx context.Context, cl *kgo.Client, group string, configs map[string]string) error {
	return alterGroupConfigs(ctx, cl, group, configs, kmsg.IncrementalAlterConfigOpSet)
}

// DeleteShareGroup deletes a share group kbench created and the configs it set on it.
func DeleteShareGroup(ctx context.Context, cl *kgo.Client, group string, configs map[string]string) error {
	resp, err := kadm.NewClient(cl).DeleteGroup(ctx, group)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
		return fmt.Errorf("delete share group %s: %w", group, err)
	}
	if len(configs) > 0 {
		if err := alterGroupConfigs(ctx, cl, group, configs, kmsg.IncrementalAlterConfigOpDelete); err != nil {
			return fmt.Errorf("remove the configs of share group %s: %w", group, err)
		}
	}
	return nil
}

func alterGroupConfigs(ctx context.Context, cl *kgo.Client, group string, configs map[string]string, op kmsg.IncrementalAlterConfigOp) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType = kmsg.ConfigResourceTypeGroupConfig
	res.ResourceName = group
	for k, v := range configs {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Op = k, op
		if op == kmsg.IncrementalAlterConfigOpSet {
			c.Value = kmsg.StringPtr(v)
		}
		res.Configs = append(res.Configs, c)
	}
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("alter the configs of group %s: %w", group, err)
	}
	for _, r := range resp.Resources {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			msg := ""
			if r.ErrorMessage != nil {
				msg = ": " + *r.ErrorMessage
			}
			return fmt.Errorf("alter the configs of group %s: %w%s", group, err, msg)
		}
	}
	return nil
}
