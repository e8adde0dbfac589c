package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kbench/kbench/internal/study"
)

// groups tracks the consumer groups of a run. kbench names its groups after the repeat's
// topic (kbench-<run>-...-g<repeat>); a study may name one instead, which is used only when
// it does not exist yet (or --allow-existing-group shares it). A group kbench's consumers
// brought into being is deleted after its repeat, like the topic; a shared one never is.
type groups struct {
	mu      sync.Mutex
	created map[string]bool // groups this run created and has not deleted yet
	shared  map[string]bool // existing groups the caller allowed: used, never deleted
}

// checkGroups lists the cluster's consumer groups and refuses, before anything is created, a
// group the study names that exists already, unless allowed names it. It returns the
// existing groups that are allowed, to be used and never deleted.
func (t *target) checkGroups(ctx context.Context, plan *study.Plan, allowed []string) (map[string]bool, error) {
	named := map[string]string{} // group -> first scenario naming it
	for _, sc := range plan.Scenarios {
		if g := sc.Consumers.Group; g != "" && sc.Consumers.Count > 0 {
			if _, ok := named[g]; !ok {
				named[g] = sc.ID
			}
		}
	}
	for _, g := range allowed {
		if _, ok := named[g]; !ok {
			return nil, fmt.Errorf("--allow-existing-group %s: no scenario of study %s names that consumer group (consumers.group)", g, plan.Name)
		}
	}
	shared := map[string]bool{}
	if len(named) == 0 {
		return shared, nil
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	listed, err := t.admin.ListGroups(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the consumer groups of the cluster at %s (to check the study's groups are new): %w", t.bootstrap, err)
	}
	for _, g := range slices.Sorted(maps.Keys(named)) {
		if _, exists := listed[g]; !exists {
			continue
		}
		if !slices.Contains(allowed, g) {
			return nil, fmt.Errorf("scenario %s: consumer group %s already exists on the cluster at %s; kbench uses only groups it creates (pass --allow-existing-group %s to share it: its members would rebalance with kbench's)",
				named[g], g, t.bootstrap, g)
		}
		shared[g] = true
	}
	return shared, nil
}

// consumerGroup is the group of a repeat's consumers: the study's, or one named after the
// repeat's topic. It is recorded as created before the consumers join, so that cleanup
// deletes it even when the run is interrupted while they join.
func (r *runner) consumerGroup(sc study.Scenario, topic string, n int) string {
	group := sc.Consumers.Group
	if group == "" {
		group = fmt.Sprintf("%s-g%d", topic, n)
	}
	r.groups.mu.Lock()
	defer r.groups.mu.Unlock()
	if !r.groups.shared[group] {
		if r.groups.created == nil {
			r.groups.created = map[string]bool{}
		}
		r.groups.created[group] = true
	}
	return group
}

// deleteGroup deletes a group this run created, once its members have left (a consumer's
// leave request can trail its close); ctx bounds the wait. It reports whether there was a
// group to delete: consumers stopped before they joined never created theirs.
func (r *runner) deleteGroup(ctx context.Context, group string) (bool, error) {
	r.groups.mu.Lock()
	ours := r.groups.created[group] && !r.groups.shared[group]
	r.groups.mu.Unlock()
	if !ours {
		return false, fmt.Errorf("not deleting consumer group %s: this run did not create it", group)
	}
	forget := func() {
		r.groups.mu.Lock()
		delete(r.groups.created, group)
		r.groups.mu.Unlock()
	}
	// Listing asks every broker and needs no coordinator: a group that was never joined
	// is not asked for one (on a new cluster, that would wait for __consumer_offsets).
	listed, err := r.target.admin.ListGroups(ctx)
	if err == nil {
		if _, ok := listed[group]; !ok {
			forget()
			return false, nil
		}
	}
	for {
		resp, err := r.target.admin.DeleteGroup(ctx, group)
		if err == nil {
			err = resp.Err
		}
		if err == nil || errors.Is(err, kerr.GroupIDNotFound) {
			forget()
			return err == nil, nil
		}
		if !kerr.IsRetriable(err) && !errors.Is(err, kerr.NonEmptyGroup) {
			return false, fmt.Errorf("delete consumer group %s: %w", group, err)
		}
		select {
		case <-ctx.Done():
			return false, fmt.Errorf("delete consumer group %s: %w (gave up)", group, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// createdGroups lists the groups still to delete.
func (r *runner) createdGroups() []string {
	r.groups.mu.Lock()
	defer r.groups.mu.Unlock()
	return slices.Sorted(maps.Keys(r.groups.created))
}
