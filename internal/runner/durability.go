package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
	"github.com/kbench/kbench/internal/verify"
)

// faultSeed seeds a study's random fault plans: a study is a fixed procedure, so its random
// faults are the same on every run.
const faultSeed = 1

// checkFaultPlans parses every scenario's fault plan before anything starts, so a typo in
// one stops the run at once with the scenario's name.
func checkFaultPlans(plan *study.Plan) error {
	for _, sc := range plan.Scenarios {
		if sc.Verify.Faults == "" {
			continue
		}
		fp, err := faults.Parse(sc.Verify.Faults, faultSeed)
		if err != nil {
			return fmt.Errorf("%s: scenario %s: verify.faults: %w", plan.File, sc.ID, err)
		}
		if fp.End() > sc.Verify.Duration {
			return fmt.Errorf("%s: scenario %s: verify.duration %s is shorter than its fault plan, whose last fault heals at %s",
				plan.File, sc.ID, sc.Verify.Duration, fp.End())
		}
	}
	return nil
}

// checkDurability runs the scenario's durability check (kbench verify) on a topic of its own
// named after the run, with the scenario's topic layout, topic configs and producer
// properties, the fault plan applied to the embedded cluster. A check that cannot finish
// keeps what it had, with the error; only cancellation returns nil.
func (r *runner) checkDurability(ctx context.Context, index int, sc study.Scenario) *results.Durability {
	v := sc.Verify
	e := r.endpoint(sc)
	topic := fmt.Sprintf("%s-s%02d-verify", r.prefix, index+1)
	out := &results.Durability{Topic: topic, Partitions: sc.Topic.Partitions, Replicas: sc.Topic.Replicas,
		TopicConfigs: sc.Topic.Configs, ProducerProps: results.Redact(sc.Producers.Properties),
		Rate: float64(v.Rate), DurationS: v.Duration.Seconds(), Faults: v.Faults}
	cfg := verify.Config{Bootstrap: e.bootstrap, Security: e.props, ProducerProps: sc.Producers.Properties,
		Topic: topic, Partitions: sc.Topic.Partitions, Replicas: sc.Topic.Replicas, TopicConfigs: sc.Topic.Configs,
		Producers: max(sc.Producers.Count, 1), Rate: float64(v.Rate), Duration: v.Duration,
		Progress: func(s string) { fmt.Fprintf(r.opts.Log, "  verify %s: %s\n", sc.ID, s) }}
	if t := sc.Producers.Transaction; t.Enabled() {
		// The check runs the scenario's transactions (by age: verify's length, or its
		// default when the scenario ends them by records) and reads committed records only.
		cfg.Transactional, cfg.TransactionLength, cfg.AbortShare = true, t.Length, t.AbortShare
	}
	if v.Faults != "" {
		plan, _ := faults.Parse(v.Faults, faultSeed) // checked before the run
		if c := r.faultCluster(); c != nil {
			cfg.FaultPlan = plan
			cfg.FaultTarget = func(cl *kgo.Client, topic string) (faults.Target, error) {
				return faults.NewEmbeddedTarget(c, cl, topic), nil
			}
		} else {
			out.FaultsNote = "no faults applied: faults need the embedded cluster (a cluster kbench started or runs)"
		}
	}
	res, err := verify.Run(ctx, cfg)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		out.Error = fmt.Sprintf("durability check: %v", err)
	}
	if res != nil {
		fillDurability(out, res)
	}
	return out
}

// faultCluster is the embedded cluster faults can be applied to, nil for an external one.
func (r *runner) faultCluster() *cluster.Cluster {
	if r.target.embedded != nil {
		return r.target.embedded
	}
	return r.opts.Cluster
}

// fillDurability copies a check's result into its run-directory form.
func fillDurability(out *results.Durability, res *verify.Result) {
	t, c := res.Totals, res.Counts
	out.Sent, out.Acknowledged, out.Failed, out.Unsent, out.ReadBack = t.Sent, t.Acked, t.Failed, t.Unsent, res.Read.Records
	out.VerifyCounts = results.VerifyCounts(c)
	out.EffectiveTopicConfigs = res.EffectiveTopicConfigs
	for _, e := range res.Faults {
		out.Applied = append(out.Applied, e.Kind)
	}
	for _, rec := range res.Recoveries {
		out.ResumedAfterS = append(out.ResumedAfterS, rec.ResumedAfter)
	}
	if res.FaultsCutShort != "" {
		out.FaultsNote = strings.TrimSpace(out.FaultsNote + " " + res.FaultsCutShort)
	}
	out.Verdict = res.Verdict()
}
