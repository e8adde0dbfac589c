package runner

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/kbench/kbench/internal/study"
)

// A run's consumer groups: kbench names its groups after the repeat's topic
// (kbench-<run>-...-g<repeat>); a study may name one instead, which is used only when it does
// not exist yet (or --allow-existing-group shares it). A group kbench's consumers brought into
// being is deleted after its repeat, like the topic; a shared one never is (kafka.Owned).

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
	r.owned.ClaimGroup(group)
	return group
}
