package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// pingTimeout bounds the first contact with an external cluster.
const pingTimeout = 15 * time.Second

// deleteTimeout bounds the deletion of a topic, until the metadata no longer lists it.
const deleteTimeout = 30 * time.Second

// topics creates and deletes this run's topics. It deletes only names it created and that
// carry the run's prefix, so nothing else on a cluster is ever touched.
type topics struct {
	mu      sync.Mutex
	created map[string]bool
}

func (r *runner) createTopic(ctx context.Context, name string, partitions, replicas int, configs map[string]string) error {
	if !strings.HasPrefix(name, r.prefix) {
		return fmt.Errorf("topic %s lacks the run prefix %s", name, r.prefix)
	}
	cfg := map[string]*string{}
	for k, v := range configs {
		cfg[k] = &v
	}
	// Claim the name before asking: when Ctrl-C cancels the request, the controller may
	// still create the topic, and cleanup must then delete it. Only an explicit "already
	// exists" proves the topic is someone else's.
	r.topics.mu.Lock()
	r.topics.created[name] = true
	r.topics.mu.Unlock()
	resp, err := r.target.admin.CreateTopic(ctx, int32(partitions), int16(replicas), cfg, name)
	if err == nil {
		err = resp.Err
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		r.topics.mu.Lock()
		delete(r.topics.created, name)
		r.topics.mu.Unlock()
		return fmt.Errorf("create topic %s: it already exists; kbench never reuses or deletes a topic it did not create", name)
	}
	if err != nil {
		return fmt.Errorf("create topic %s (%d partitions, %d replicas): %w", name, partitions, replicas, err)
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

// deleteTopic deletes a topic this run created. It uses its own context so that it still
// works after Ctrl-C cancelled the run's.
func (r *runner) deleteTopic(name string) error {
	r.topics.mu.Lock()
	ours := r.topics.created[name] && strings.HasPrefix(name, r.prefix)
	r.topics.mu.Unlock()
	if !ours {
		return fmt.Errorf("not deleting topic %s: this run did not create it", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	resp, err := r.target.admin.DeleteTopics(ctx, name)
	if err == nil {
		err = resp.Error()
	}
	if err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
		return fmt.Errorf("delete topic %s: %w", name, err)
	}
	r.topics.mu.Lock()
	delete(r.topics.created, name)
	r.topics.mu.Unlock()
	return r.waitTopicGone(ctx, name)
}

// waitTopicGone waits until the metadata no longer lists a deleted topic: the controller
// acknowledges a deletion before the brokers have applied it, and a run that ends, or the
// next repeat that starts, should find the cluster as it was.
func (r *runner) waitTopicGone(ctx context.Context, name string) error {
	for {
		details, err := r.target.admin.ListTopics(ctx, name)
		if err == nil {
			if d, ok := details[name]; !ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("delete topic %s: still listed after %s", name, deleteTimeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// cleanup deletes every topic still left from this run (after an interruption or error).
func (r *runner) cleanup() {
	r.topics.mu.Lock()
	names := slices.Sorted(maps.Keys(r.topics.created))
	r.topics.mu.Unlock()
	for _, name := range names {
		if err := r.deleteTopic(name); err != nil {
			fmt.Fprintf(r.opts.Log, "cleanup: %v\n", err)
		} else {
			fmt.Fprintf(r.opts.Log, "cleanup: deleted topic %s\n", name)
		}
	}
}
