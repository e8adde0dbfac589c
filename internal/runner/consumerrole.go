package runner

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// consume runs the scenario's consumers: a consumer group, or share consumers
// (consumers.share_group), whose common figures are then also given as a ConsumeResult
// (deliveries as records, redeliveries as re-reads) so the window, the accounting and the
// tables treat both alike.
func (r *runner) consume(ctx context.Context, sc study.Scenario, cfg load.ConsumerConfig, tick func(load.ConsumeTick)) (*load.ConsumeResult, *load.ShareResult, error) {
	if !sc.Consumers.Share {
		res, err := load.Consume(ctx, cfg, tick)
		return res, nil, err
	}
	c := sc.Consumers
	sh, err := load.ConsumeShare(ctx, load.ShareConfig{Bootstrap: cfg.Bootstrap, Topics: cfg.Topics, Group: cfg.Group,
		Properties: cfg.Properties, Consumers: cfg.Consumers, Records: cfg.Records, Duration: cfg.Duration,
		Timeout: cfg.Timeout, TickInterval: cfg.TickInterval, Ack: load.ShareAck(c.Acknowledgement),
		Release: c.Release, Reject: c.Reject}, tick)
	if err != nil {
		return nil, nil, err
	}
	return shareAsConsume(sh), sh, nil
}

// shareAsConsume gives a share run's figures as a consumer group's: every delivery is a
// record read, and the deliveries beyond the distinct records are re-reads.
func shareAsConsume(s *load.ShareResult) *load.ConsumeResult {
	return &load.ConsumeResult{Group: s.Group, Consumers: s.Consumers, Records: s.Delivered, Bytes: s.Bytes,
		Rereads: s.Delivered - s.Distinct, Start: s.Start, End: s.End, ElapsedSeconds: s.ElapsedSeconds,
		RecordsPerSec: s.RecordsPerSec, MiBPerSec: s.MiBPerSec, FetchSeconds: s.ElapsedSeconds,
		FetchRecordsPerSec: s.RecordsPerSec, FetchMiBPerSec: s.MiBPerSec, EndToEnd: s.EndToEnd,
		EndToEndHistogram: s.EndToEndHistogram, EndToEndSource: s.EndToEndSource, TimedOut: s.TimedOut,
		Errors: s.Errors, CPU: s.CPU, Settings: s.Settings, Warnings: s.Warnings, Interrupted: s.Interrupted}
}

// shareFigures records a share run in the repeat.
func shareFigures(s *load.ShareResult, c study.Consumers) *results.Share {
	return &results.Share{Group: s.Group, Consumers: s.Consumers, Acknowledgement: s.Acknowledgement,
		Release: c.Release, Reject: c.Reject, Delivered: s.Delivered, Distinct: s.Distinct, Redelivered: s.Redelivered,
		Unreleased: s.Unreleased, MaxDeliveryCount: s.MaxDeliveryCount, Accepted: s.Accepted, Released: s.Released,
		Rejected: s.Rejected, RecordsPerSec: s.RecordsPerSec, MiBPerSec: s.MiBPerSec}
}

// shareGroup names a repeat's share group after its topic. The share consumers create it
// and delete it after (load.ConsumeShare), so the run's consumer groups do not track it.
func shareGroup(topic string, n int) string { return fmt.Sprintf("%s-s%d", topic, n) }

// awaitBacklog holds a catch-up read's consumers until the backlog is written, or the
// producers ended without it (the consumers then read what there is); false when ctx ended.
func awaitBacklog(ctx context.Context, c *catchUp, producing <-chan struct{}) bool {
	select {
	case <-c.started:
	case <-producing:
	case <-ctx.Done():
		return false
	}
	return true
}

// fillConsumerRole records the catch-up and share figures of a measurement in rep, with the
// catch-up's reason to invalidate the repeat, if any. rows are the repeat's broker rows,
// brokerOrigin their T's origin as seconds after the window's start.
func (m *measurement) fillConsumerRole(rep *results.Repeat, sc study.Scenario, brokerOrigin float64) []string {
	if m.share != nil {
		rep.Share = shareFigures(m.share, sc.Consumers)
	}
	if m.catchUp == nil {
		return nil
	}
	cu := m.catchUp.result(m.window.start)
	if cu.CaughtUp {
		from, to := cu.Start-brokerOrigin, cu.End-brokerOrigin
		cu.Brokers = results.DrainReads(rep.Brokers, from, to, sampleInterval.Seconds())
		cu.HostDiskReadBytes = results.HostDiskReads(rep.Brokers, from, to, sampleInterval.Seconds())
	}
	before, during := m.catchUp.histograms()
	rep.Latency[results.LatencyCatchUpBefore] = buckets(before)
	if cu.CaughtUp {
		rep.Latency[results.LatencyCatchUpDuring] = buckets(during)
	}
	rep.CatchUp = cu
	if !cu.CaughtUp {
		return []string{"catch-up: " + cu.Note}
	}
	return nil
}

// checkShareGroups stops a study with share consumers on brokers that do not serve share
// groups, before anything is created, rather than fail every repeat.
func checkShareGroups(ctx context.Context, plan *study.Plan, adm *kadm.Client) error {
	for _, sc := range plan.Scenarios {
		if sc.Consumers.Count > 0 && sc.Consumers.Share {
			if err := kafka.CheckShareGroups(ctx, adm); err != nil {
				return fmt.Errorf("scenario %s: %w", sc.ID, err)
			}
			return nil
		}
	}
	return nil
}
