package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

func newCompareCommand() *cobra.Command {
	var (
		failPct        float64
		allowDifferent bool
		allowBlind     bool
	)
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B",
		Short: "Compare two runs scenario by scenario",
		Long: `Compare sets the results of RUN_B beside those of RUN_A for every scenario both ran:
records/s, MiB/s, latency percentiles, broker and client CPU, with the change from A to B, a
mark from the exact one-sided rank test the verdicts use ("*" one run's repeats beat the
other's at p <= 0.05, "~" they do not: may be noise, "?" too few repeats to tell), and the
smallest worsening these repeats could have shown (could see).

With --fail-on-regression PCT, compare exits with code 3 when a figure of B is worse than A's
by more than PCT percent (lower throughput, higher latency or CPU) and the rank test says B is
worse, or when a scenario with valid results in A has none in B (all its repeats invalid, or
not run): each is listed with the reason. When nothing failed but some figure could not have
shown a worsening of PCT (its noise floor is above it), compare says which and exits with
code 8 (blind): a gate that passes them has not looked. Run more repeats, ask for a threshold
above the floor, or pass --allow-blind to accept it.

Compare also checks that A and B measured the same thing. Per scenario it compares the
workload (record size, rate or throttle, producers and consumers, records or duration,
warm-up, topic partitions, replicas and configs, and every recorded client property such as
acks, batch.size or linger.ms, defaults included), and for the whole run the cluster (Kafka
version, embedded or external, broker count, broker CPU allotment, security protocol). A
scenario where any of these differ is shown with the mark "≠" and the differences listed,
but is never called a regression or an improvement; under --fail-on-regression, compare
then exits with code 4 (not comparable) if nothing else failed. --allow-different judges
such scenarios anyway, for a deliberate A/B of one of these (a Kafka upgrade, a new acks).

Examples:
  kbench compare runs/2026-03-01-quick runs/2026-03-02-quick
  kbench compare runs/base runs/candidate --fail-on-regression 10
  kbench compare runs/kafka-4.0 runs/kafka-4.1 --fail-on-regression 10 --allow-different`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if failPct < 0 {
				return fmt.Errorf("--fail-on-regression %v is negative; give a percentage such as 10", failPct)
			}
			a, err := results.Read(args[0])
			if err != nil {
				return err
			}
			b, err := results.Read(args[1])
			if err != nil {
				return err
			}
			c, err := report.Compare(a, b, report.CompareOptions{AllowDifferent: allowDifferent})
			if err != nil {
				return fmt.Errorf("unable to compare runs: %w", err)
			}
			if err := c.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			if !cmd.Flags().Changed("fail-on-regression") {
				return nil
			}
			return gate(c, failPct, allowBlind)
		},
	}
	cmd.Flags().Float64Var(&failPct, "fail-on-regression", 0, "exit with code 3 when a figure is worse by more than this percentage, or a scenario valid in A is invalid or missing in B")
	cmd.Flags().BoolVar(&allowDifferent, "allow-different", false, "judge scenarios whose workload or cluster differs between the runs")
	cmd.Flags().BoolVar(&allowBlind, "allow-blind", false, "pass --fail-on-regression even where the repeats could not have shown a worsening of that size")
	return cmd
}

// gate turns a comparison into --fail-on-regression's verdict: exit 3 listing every
// regression and broken scenario, else exit 4 when scenarios could not be judged, else exit
// 8 when a judged figure could not have shown the threshold (unless allowBlind), else nil.
func gate(c *report.Comparison, failPct float64, allowBlind bool) error {
	var failed []string
	for _, b := range c.BrokenRegressions() {
		failed = append(failed, fmt.Sprintf("%s %s", b.Scenario, b.Reason))
	}
	for _, d := range c.Regressions(failPct / 100) {
		failed = append(failed, fmt.Sprintf("%s %s %+.0f%%", d.Scenario, d.Label, d.Change*100))
	}
	if len(failed) > 0 {
		return &exitError{code: exitRegression, msg: fmt.Sprintf("%d regression(s) beyond %g%% or broken scenario(s): %s",
			len(failed), failPct, strings.Join(failed, ", "))}
	}
	if nj := c.NotJudged(); len(nj) > 0 {
		return &exitError{code: exitNotComparable, msg: fmt.Sprintf("%d scenario(s) not judged, B ran a different workload or cluster: %s; pass --allow-different to judge them",
			len(nj), strings.Join(nj, ", "))}
	}
	if blind := c.Blind(failPct / 100); len(blind) > 0 && !allowBlind {
		var parts []string
		for _, d := range blind {
			if d.Detectable == 0 {
				parts = append(parts, fmt.Sprintf("%s %s (too few repeats)", d.Scenario, d.Label))
			} else {
				parts = append(parts, fmt.Sprintf("%s %s (%.0f%% or more)", d.Scenario, d.Label, 100*d.Detectable))
			}
		}
		return &exitError{code: exitBlind, msg: fmt.Sprintf("no regression beyond %g%% seen, but %d figure(s) could not have shown one that small: %s; run more repeats, raise the threshold, or pass --allow-blind",
			failPct, len(blind), strings.Join(parts, ", "))}
	}
	return nil
}
