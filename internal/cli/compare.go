package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// exitRegression is compare's exit code when --fail-on-regression is exceeded, apart from 1
// (any other error) so CI can tell a slower build from a broken run.
const exitRegression = 3

func newCompareCommand() *cobra.Command {
	var failPct float64
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B",
		Short: "Compare two runs scenario by scenario",
		Long: `Compare sets the results of RUN_B beside those of RUN_A for every scenario both ran:
records/s, MiB/s, latency percentiles, broker and client CPU, with the change from A to B and
a mark from the spread of the repeats: "*" the repeats do not overlap (significant), "~" they
overlap (may be noise), "?" a run has one repeat only.

With --fail-on-regression PCT, compare exits with code 3 when a figure of B is worse than A's
by more than PCT percent (lower throughput, higher latency or CPU), unless the repeats of
the two runs overlap.

Examples:
  kbench compare runs/2026-03-01-quick runs/2026-03-02-quick
  kbench compare runs/base runs/candidate --fail-on-regression 10`,
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
			c, err := report.Compare(a, b)
			if err != nil {
				return fmt.Errorf("unable to compare runs: %w", err)
			}
			if err := c.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			if !cmd.Flags().Changed("fail-on-regression") {
				return nil
			}
			regs := c.Regressions(failPct / 100)
			if len(regs) == 0 {
				return nil
			}
			var worst []string
			for _, d := range regs {
				worst = append(worst, fmt.Sprintf("%s %s %+.0f%%", d.Scenario, d.Label, d.Change*100))
			}
			return &exitError{code: exitRegression, msg: fmt.Sprintf("%d regression(s) beyond %g%%: %s",
				len(regs), failPct, strings.Join(worst, ", "))}
		},
	}
	cmd.Flags().Float64Var(&failPct, "fail-on-regression", 0, "exit with code 3 when a figure is worse by more than this percentage")
	return cmd
}
