package kafka

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// Consumer groups follow Owned's rule too. A group comes into being when its first member
// joins, so kbench claims a group before its consumers join (cleanup then deletes it even
// when a run is interrupted while they join) and deletes only groups it claimed. A group
// the user let kbench share (it existed, and --allow-existing-group names it) is used and
// never claimed or deleted. Whether a named group exists already is the caller's check,
// before anything is created.

// ShareGroup marks an existing group as the user's: used, never deleted.
func (o *Owned) ShareGroup(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.shared[name] = true
}

// Shared reports whether name is a group the user let kbench share.
func (o *Owned) Shared(name string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.shared[name]
}

// ClaimGroup claims group name before its consumers join, unless it is shared.
func (o *Owned) ClaimGroup(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.shared[name] {
		o.groups[name] = true
	}
}

// Groups are the groups claimed and not yet deleted, sorted.
func (o *Owned) Groups() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Sorted(maps.Keys(o.groups))
}

// Forget gives up every claimed topic and group (their cluster is gone, as when a study
// moves to its next cluster shape); shared groups stay the user's.
func (o *Owned) Forget() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.topics, o.groups = map[string]bool{}, map[string]bool{}
}

// groupRetry is the pause between attempts to delete a group whose members are leaving.
const groupRetry = 200 * time.Millisecond

// DeleteGroup deletes a group this ledger claimed, once its members have left (a consumer's
// leave request can trail its close); any other group is refused, and ctx bounds the wait.
// It reports whether there was a group to delete: consumers stopped before they joined
// never created theirs.
func (o *Owned) DeleteGroup(ctx context.Context, admin *kadm.Client, name string) (existed bool, err error) {
	o.mu.Lock()
	ours := o.groups[name] && !o.shared[name]
	o.mu.Unlock()
	if !ours {
		return false, fmt.Errorf("not deleting consumer group %s: kbench did not create it", name)
	}
	forget := func() {
		o.mu.Lock()
		delete(o.groups, name)
		o.mu.Unlock()
	}
	// Listing asks every broker and needs no coordinator: a group that was never joined
	// is not asked for one (on a new cluster, that would wait for __consumer_offsets).
	if listed, err := admin.ListGroups(ctx); err == nil {
		if _, ok := listed[name]; !ok {
			forget()
			return false, nil
		}
	}
	err = Retry(ctx, time.Time{}, groupRetry, func() error {
		resp, err := admin.DeleteGroup(ctx, name)
		if err == nil {
			err = resp.Err
		}
		return err
	}, kerr.NonEmptyGroup)
	switch {
	case err == nil || errors.Is(err, kerr.GroupIDNotFound):
		forget()
		return err == nil, nil
	case ctx.Err() != nil:
		return false, fmt.Errorf("delete consumer group %s: %w (gave up)", name, err)
	}
	return false, fmt.Errorf("delete consumer group %s: %w", name, err)
}
