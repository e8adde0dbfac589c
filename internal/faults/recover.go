package faults

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
)

// WaitRecovered waits, up to timeout, until every partition of topic has a leader and all
// its replicas in sync, so that the read-back after a fault plan reads a whole cluster. On
// timeout the error names the partitions still short.
func WaitRecovered(ctx context.Context, admin *kadm.Client, topic string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var short []string
	var lastErr error
	for {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		md, err := admin.Metadata(fresh(rctx), topic)
		rcancel()
		if err == nil {
			short, lastErr = shortPartitions(md, topic)
			if lastErr == nil && len(short) == 0 {
				return nil
			}
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return ctx.Err()
			}
			if len(short) == 0 {
				return fmt.Errorf("topic %s not recovered after %s: %v", topic, timeout, lastErr)
			}
			return fmt.Errorf("topic %s not recovered after %s: partitions short of in-sync replicas: %s", topic, timeout, listShort(short))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// shortPartitions returns the partitions of topic without a leader or with fewer in-sync
// replicas than replicas, described: "t-3 (isr [1 3] of replicas [1 2 3])".
func shortPartitions(md kadm.Metadata, topic string) ([]string, error) {
	td, ok := md.Topics[topic]
	if !ok {
		return nil, fmt.Errorf("topic %q not found", topic)
	}
	if td.Err != nil {
		return nil, fmt.Errorf("topic %s: %w", topic, td.Err)
	}
	var short []string
	for _, p := range td.Partitions.Sorted() {
		switch {
		case p.Leader < 0:
			short = append(short, fmt.Sprintf("%s-%d (no leader)", topic, p.Partition))
		case len(p.ISR) < len(p.Replicas):
			isr := slices.Sorted(slices.Values(p.ISR))
			short = append(short, fmt.Sprintf("%s-%d (isr %v of replicas %v)", topic, p.Partition, isr, p.Replicas))
		}
	}
	return short, nil
}

// listShort lists up to five partitions and counts the rest.
func listShort(short []string) string {
	if len(short) <= 5 {
		return strings.Join(short, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(short[:5], ", "), len(short)-5)
}

// fresh makes kadm ask the cluster rather than answer from the client's metadata cache,
// which kadm uses by default: topic data up to 5 s old (kgo's MetadataMinAge) and a broker
// list not refreshed at all by a request without topics. Faults need the cluster as it is
// now: a leader from before the last election would send a kill to the wrong broker, and
// an ISR from before the fault would report a recovery that has not happened. kadm skips
// its cache when asked for authorized operations (KIP-430), which cost nothing more here.
func fresh(ctx context.Context) context.Context { return kadm.WithAuthorizedOps(ctx) }
