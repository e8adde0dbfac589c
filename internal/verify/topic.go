package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
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

// createTopic creates the run's own topic; created says whether the cluster may hold it
// now (also when the request failed midway), so that only a topic this run asked for is
// ever deleted.
func createTopic(ctx context.Context, admin *kadm.Client, cfg *Config) (created bool, err error) {
	configs := map[string]*string{}
	for k, v := range cfg.TopicConfigs {
		configs[k] = &v
	}
	resp, err := admin.CreateTopic(ctx, int32(cfg.Partitions), int16(cfg.Replicas), configs, cfg.Topic)
	if err == nil {
		err = resp.Err
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return false, fmt.Errorf("create topic %s: it already exists; kbench never reuses or deletes a topic it did not create", cfg.Topic)
	}
	if err != nil {
		return true, fmt.Errorf("create topic %s (%d partitions, %d replicas): %w", cfg.Topic, cfg.Partitions, cfg.Replicas, err)
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
				return true, nil
			}
		}
		select {
		case <-ctx.Done():
			return true, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return true, fmt.Errorf("topic %s: partitions without a leader or a full ISR after %v", cfg.Topic, topicReadyTimeout)
}

// deleteTopic deletes the run's topic, on a context of its own so that an interrupted run
// still cleans up.
func deleteTopic(admin *kadm.Client, topic string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp, err := admin.DeleteTopic(ctx, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
		return fmt.Errorf("delete topic %s: %w", topic, err)
	}
	return nil
}

// durabilityConfigs are the topic configs a durability claim rests on besides acks and the
// replication factor.
var durabilityConfigs = []string{"min.insync.replicas", "unclean.leader.election.enable"}

// effectiveConfigs reads back the values the cluster applies to topic for the configs a
// durability claim rests on, whether the run set them or the brokers' defaults hold: a
// report must state min.insync.replicas=1, not "the broker default".
func effectiveConfigs(ctx context.Context, admin *kadm.Client, topic string) (map[string]string, error) {
	var rc kadm.ResourceConfig
	deadline := time.Now().Add(topicReadyTimeout)
	for {
		rcs, err := admin.DescribeTopicConfigs(ctx, topic)
		if err == nil {
			rc, err = rcs.On(topic, nil)
		}
		if err == nil {
			err = rc.Err
		}
		// The broker asked may not have the new topic's metadata yet.
		if err == nil || !errors.Is(err, kerr.UnknownTopicOrPartition) || time.Now().After(deadline) {
			if err != nil {
				return nil, fmt.Errorf("describe topic %s configs: %w", topic, err)
			}
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	out := map[string]string{}
	for _, c := range rc.Configs {
		if slices.Contains(durabilityConfigs, c.Key) {
			out[c.Key] = c.MaybeValue()
		}
	}
	return out, nil
}
