package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// pingTimeout bounds the first contact with an external cluster.
const pingTimeout = 15 * time.Second

// deleteTimeout bounds the deletion of a repeat's topic and group, until the metadata no
// longer lists the topic.
const deleteTimeout = 30 * time.Second

// cleanupTimeout bounds the cleanup after an interruption or error, all topics and groups
// together: Ctrl-C must end the run promptly, and what is left is named for the operator.
const cleanupTimeout = 10 * time.Second

// createTopic creates a repeat's topic (under the run's prefix: kafka.Owned, r.owned) and
// waits until it is ready.
func (r *runner) createTopic(ctx context.Context, name string, partitions, replicas int, configs map[string]string) error {
	if err := r.owned.CreateTopic(ctx, r.target.admin, name, int32(partitions), int16(replicas), configs); err != nil {
		return err
	}
	return r.waitTopicReady(ctx, name, partitions)
}

// waitTopicReady waits until every partition has a leader, so the first measured second is
// not spent on metadata propagation.
func (r *runner) waitTopicReady(ctx context.Context, name string, partitions int) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		details, err := r.target.admin.ListTopics(ctx, name)
		if err == nil {
			d := details[name]
			ready := d.Err == nil && len(d.Partitions) == partitions
			for _, p := range d.Partitions {
				ready = ready && p.Leader >= 0 && p.Err == nil
			}
			if ready {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("topic %s: partitions without a leader after 30 s", name)
}

// deleteTopic deletes a topic this run created; ctx bounds the deletion and the wait until
// the metadata no longer lists it. It reports whether there was a topic to delete: a
// creation cancelled in time created none.
func (r *runner) deleteTopic(ctx context.Context, name string) (bool, error) {
	existed, err := r.owned.DeleteTopic(ctx, r.target.admin, name)
	if err != nil {
		return false, err
	}
	return existed, r.waitTopicGone(ctx, name)
}

// release deletes a repeat's group (when it has one) and topic once the repeat ended. After
// Ctrl-C it leaves them to cleanup, whose deadline does not depend on the cancelled run; a
// Ctrl-C during the deletion likewise hands what is left over to cleanup.
func (r *runner) release(ctx context.Context, topic, group string) {
	if ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, deleteTimeout)
	defer cancel()
	if group != "" {
		if _, err := r.owned.DeleteGroup(ctx, r.target.admin, group); err != nil && ctx.Err() == nil {
			fmt.Fprintf(r.opts.Log, "%v\n", err)
		}
	}
	if _, err := r.deleteTopic(ctx, topic); err != nil && ctx.Err() == nil {
		fmt.Fprintf(r.opts.Log, "%v\n", err)
	}
}

// waitTopicGone waits until no broker's metadata lists a deleted topic: the controller
// acknowledges a deletion before the brokers have applied it, and a run that ends, or the
// next repeat that starts, should find the cluster as it was, whichever broker is asked.
func (r *runner) waitTopicGone(ctx context.Context, name string) error {
	for {
		if !r.topicListed(ctx, name) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("delete topic %s: still listed when the time allowed ran out", name)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// topicListed reports whether any broker's metadata still lists the topic (or could not be
// asked).
func (r *runner) topicListed(ctx context.Context, name string) bool {
	req := kmsg.NewPtrMetadataRequest()
	topic := kmsg.NewMetadataRequestTopic()
	topic.Topic = kmsg.StringPtr(name)
	req.Topics = append(req.Topics, topic)
	for _, b := range r.target.brokers {
		resp, err := req.RequestWith(ctx, r.target.client.Broker(b.ID))
		if err != nil || len(resp.Topics) != 1 {
			return true
		}
		if kerr.ErrorForCode(resp.Topics[0].ErrorCode) != kerr.UnknownTopicOrPartition {
			return true
		}
	}
	return false
}

// cleanup deletes every group and topic still left from this run (after an interruption or
// error), within cleanupTimeout whatever the run's context, and says what it deleted and
// what it had to leave on the cluster.
func (r *runner) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	for _, g := range r.owned.Groups() {
		switch deleted, err := r.owned.DeleteGroup(ctx, r.target.admin, g); {
		case err != nil:
			fmt.Fprintf(r.opts.Log, "cleanup: kept consumer group %s on the cluster (%v); delete it with kafka-consumer-groups.sh --delete --group %s\n", g, err, g)
		case deleted:
			fmt.Fprintf(r.opts.Log, "cleanup: deleted consumer group %s\n", g)
		}
	}
	for _, name := range r.owned.Topics() {
		switch deleted, err := r.deleteTopic(ctx, name); {
		case err != nil:
			fmt.Fprintf(r.opts.Log, "cleanup: kept topic %s on the cluster (%v); delete it with kafka-topics.sh --delete --topic %s\n", name, err, name)
		case deleted:
			fmt.Fprintf(r.opts.Log, "cleanup: deleted topic %s\n", name)
		}
	}
}
