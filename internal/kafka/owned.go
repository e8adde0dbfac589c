package kafka

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kbench/kbench/internal/settings"
)

// Prefix starts the name of every topic kbench creates.
const Prefix = "kbench-"

// Owned is the one rule on what kbench creates and deletes on a cluster: it creates topics
// only under its prefix, never takes over a topic that already exists, and deletes only
// topics it created; the same holds for consumer groups (groups.go). A name is claimed before the create request is sent (when a
// cancelled request reaches the controller anyway, the topic is kbench's and must be
// deleted) and given up only when the broker answers that the topic already existed.
// It is safe for concurrent use.
type Owned struct {
	prefix string
	mu     sync.Mutex
	topics map[string]bool
	// groups are the consumer groups claimed and not yet deleted; shared, existing groups
	// the user let kbench use, never deleted (groups.go).
	groups, shared map[string]bool
}

// NewOwned returns an empty ledger for topics named under prefix, which must itself start
// with Prefix (a run's "kbench-<run>", or Prefix alone).
func NewOwned(prefix string) *Owned {
	return &Owned{prefix: prefix, topics: map[string]bool{}, groups: map[string]bool{}, shared: map[string]bool{}}
}

// mayCreate reports whether name lies under both kbench's and this ledger's prefix.
func (o *Owned) mayCreate(name string) bool {
	return strings.HasPrefix(name, Prefix) && strings.HasPrefix(name, o.prefix)
}

// createAnswerTimeout bounds the wait for a create request's answer once it was sent.
const createAnswerTimeout = 15 * time.Second

// CreateTopic creates topic name, claiming it first. A topic that already exists is an
// error and stays someone else's; any other failure keeps the claim, since the cluster
// may hold the topic now.
func (o *Owned) CreateTopic(ctx context.Context, admin *kadm.Client, name string, partitions int32, replicas int16, configs map[string]string) error {
	if !o.mayCreate(name) {
		return fmt.Errorf("create topic %s: it lacks the prefix %s of the topics kbench may create", name, o.prefix)
	}
	// The settings catalogue checks every config before the broker sees it, as a study's are.
	cfg := map[string]*string{}
	for k, v := range configs {
		p, ok := settings.Lookup(settings.Topic, k)
		if !ok {
			return fmt.Errorf("create topic %s: unknown topic config %q", name, k)
		}
		nv, err := p.Check(v)
		if err != nil {
			return fmt.Errorf("create topic %s: topic config %w", name, err)
		}
		cfg[k] = &nv
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("create topic %s: %w", name, err)
	}
	o.mu.Lock()
	o.topics[name] = true
	o.mu.Unlock()
	// A request sent is not abandoned when ctx ends: the controller may still create the
	// topic after cleanup looked for it and found none, so the answer decides (the run's
	// interruption waits for it, bounded by createAnswerTimeout).
	answerCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createAnswerTimeout)
	defer cancel()
	resp, err := admin.CreateTopic(answerCtx, partitions, replicas, cfg, name)
	if err == nil {
		err = resp.Err
	}
	if err == nil && ctx.Err() != nil {
		return fmt.Errorf("create topic %s: %w", name, ctx.Err())
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		o.forget(name)
		return fmt.Errorf("create topic %s: it already exists; kbench never reuses or deletes a topic it did not create", name)
	}
	if err != nil {
		return fmt.Errorf("create topic %s (%d partitions, %d replicas): %w", name, partitions, replicas, err)
	}
	return nil
}

// Owns reports whether name was claimed and not yet deleted.
func (o *Owned) Owns(name string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.topics[name] && o.mayCreate(name)
}

// Topics are the topics claimed and not yet deleted, sorted.
func (o *Owned) Topics() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Sorted(maps.Keys(o.topics))
}

// DeleteTopic deletes a topic this ledger claimed; any other is refused. It reports whether
// there was a topic to delete: a creation cancelled in time created none.
func (o *Owned) DeleteTopic(ctx context.Context, admin *kadm.Client, name string) (existed bool, err error) {
	if !o.Owns(name) {
		return false, fmt.Errorf("not deleting topic %s: kbench did not create it", name)
	}
	resp, err := admin.DeleteTopic(ctx, name)
	if err == nil {
		err = resp.Err
	}
	existed = !errors.Is(err, kerr.UnknownTopicOrPartition)
	if err != nil && existed {
		return false, fmt.Errorf("delete topic %s: %w", name, err)
	}
	o.forget(name)
	return existed, nil
}

func (o *Owned) forget(name string) {
	o.mu.Lock()
	delete(o.topics, name)
	o.mu.Unlock()
}
