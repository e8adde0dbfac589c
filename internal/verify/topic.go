package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/kafka"
)

// topicReadyTimeout bounds the wait for a new topic's partitions to have leaders.
const topicReadyTimeout = 30 * time.Second

// checkBrokers fails when the cluster has fewer brokers than the topic's replicas.
func checkBrokers(ctx context.Context, admin *kadm.Client, replicas int) error {
	md, err := admin.BrokerMetadata(ctx)
	if err != nil {
		return fmt.Errorf("unable to reach the cluster: %w", err)
	}
	if replicas > len(md.Brokers) {
		return fmt.Errorf("--replicas %d: the cluster has %d broker(s)", replicas, len(md.Brokers))
	}
	return nil
}

// createTopic creates the run's own topic (kafka.Owned: a topic that exists already is
// never taken over) and waits until every partition has a leader and a full ISR.
func createTopic(ctx context.Context, admin *kadm.Client, owned *kafka.Owned, cfg *Config) error {
	if err := owned.CreateTopic(ctx, admin, cfg.Topic, int32(cfg.Partitions), int16(cfg.Replicas), cfg.TopicConfigs); err != nil {
		return err
	}
	deadline := time.Now().Add(topicReadyTimeout)
	for time.Now().Before(deadline) {
		details, err := admin.ListTopics(ctx, cfg.Topic)
		if err == nil {
			d := details[cfg.Topic]
			ready := d.Err == nil && len(d.Partitions) == cfg.Partitions
			for _, p := range d.Partitions {
				ready = ready && p.Leader >= 0 && p.Err == nil && len(p.ISR) == cfg.Replicas
			}
			if ready {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("topic %s: partitions without a leader or a full ISR after %v", cfg.Topic, topicReadyTimeout)
}

// deleteTopics deletes the topics the run created, on a context of their own so that an
// interrupted run still cleans up.
func deleteTopics(admin *kadm.Client, owned *kafka.Owned) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var errs []error
	for _, topic := range owned.Topics() {
		if _, err := owned.DeleteTopic(ctx, admin, topic); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// durabilityConfigs are the topic configs a durability claim rests on besides acks and the
// replication factor.
var durabilityConfigs = []string{"min.insync.replicas", "unclean.leader.election.enable"}

// effectiveConfigs reads back the values the cluster applies to topic for the configs a
// durability claim rests on, whether the run set them or the brokers' defaults hold: a
// report must state min.insync.replicas=1, not "the broker default".
func effectiveConfigs(ctx context.Context, admin *kadm.Client, topic string) (map[string]string, error) {
	var rc kadm.ResourceConfig
	// The broker asked may not have the new topic's metadata yet (UNKNOWN_TOPIC_OR_PARTITION,
	// a retriable error).
	err := kafka.Retry(ctx, time.Now().Add(topicReadyTimeout), 100*time.Millisecond, func() error {
		rcs, err := admin.DescribeTopicConfigs(ctx, topic)
		if err == nil {
			rc, err = rcs.On(topic, nil)
		}
		if err == nil {
			err = rc.Err
		}
		return err
	})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("describe topic %s configs: %w", topic, err)
	}
	out := map[string]string{}
	for _, c := range rc.Configs {
		if slices.Contains(durabilityConfigs, c.Key) {
			out[c.Key] = c.MaybeValue()
		}
	}
	return out, nil
}
