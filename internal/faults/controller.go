package faults

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// metadataTopic is KRaft's metadata log, whose leader is the active controller.
const metadataTopic = "__cluster_metadata"

// activeController asks the KRaft quorum for its leader (DescribeQuorum, KIP-595; a broker
// forwards it to the controllers). The Metadata response's controller id cannot serve: on a
// KRaft cluster it names a random broker, since clients never talk to controllers.
func activeController(ctx context.Context, client *kgo.Client) (int32, error) {
	req := kmsg.NewPtrDescribeQuorumRequest()
	topic := kmsg.NewDescribeQuorumRequestTopic()
	topic.Topic = metadataTopic
	topic.Partitions = []kmsg.DescribeQuorumRequestTopicPartition{kmsg.NewDescribeQuorumRequestTopicPartition()}
	req.Topics = append(req.Topics, topic)
	resp, err := req.RequestWith(ctx, client)
	if err != nil {
		return 0, fmt.Errorf("find the active controller: %w", err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return 0, fmt.Errorf("find the active controller: %w", err)
	}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return 0, fmt.Errorf("find the active controller: %w", err)
			}
			if p.LeaderID >= 0 {
				return p.LeaderID, nil
			}
		}
	}
	return 0, fmt.Errorf("find the active controller: the quorum has no leader now")
}
