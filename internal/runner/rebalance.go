package runner

import (
	"errors"

	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/study"
)

// recordRebalance keeps a repeat's membership-event log in the run directory and its
// figures in the repeat.
func (r *runner) recordRebalance(rep *results.Repeat, sc study.Scenario, m *measurement) error {
	if len(sc.Consumers.Events) == 0 {
		return nil
	}
	if m.cons == nil || m.cons.Rebalance == nil {
		return errors.New("membership events run only with consumers in this process, not on agents")
	}
	log := m.cons.Rebalance
	if err := results.WriteRebalanceLog(r.dir, rep.Scenario, rep.Repeat, log); err != nil {
		return err
	}
	rep.Rebalance = results.NewRebalance(log, settings.GroupProtocol(m.cons.Settings), r.plan.Warmup.Seconds(),
		rep.Brokers, m.brokerStart().Sub(m.window.start).Seconds(), sampleInterval.Seconds())
	return nil
}
