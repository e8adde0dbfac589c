package cli

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/history"
	"github.com/kbench/kbench/internal/results"
)

func newHistoryCommand() *cobra.Command {
	var (
		metricList, failOnStep, htmlFile string
		scenarios                        []string
		asCSV, asJSON                    bool
	)
	cmd := &cobra.Command{
		Use:   "history [DIR...]",
		Short: "Follow scenarios across runs: trends, steps, and a gate for CI",
		Long: `History reads every run directory in DIR (default runs/; a run directory itself, or a
folder searched at any depth, so runs moved or copied elsewhere are found) and lists the runs:
run directory, start, study, kbench and Kafka version, the cluster's fingerprint and each
scenario's workload fingerprint. Nothing is stored besides the run directories.

With --metric, history follows each scenario across the runs that measured it alike (the
same workload and cluster, as kbench compare checks; runs that differ form separate series)
and prints each run's median and range, then the steps: where the series moved from one
level to another, by how much and how far beyond the noise (z). A series is cut into groups
of runs at one level by minimum description length, using each run's own repeats' spread;
a lone run between two others is an outlier, never a step, and a lone last run must stand
about 7 noise sigmas out.

With --fail-on-step PCT, history exits with code 9 when in some series the latest group of
runs is worse than the group before by more than PCT (lower throughput, higher latency or
CPU), naming the run where it began. One noisy night inside the noise does not fail it.

Figures: records_per_sec, mib_per_sec, p50, p99, p999, broker_cpu, client_cpu_per_million.

Examples:
  kbench history
  kbench history runs/ archive/ --metric records_per_sec,p99
  kbench history --metric records_per_sec --scenario batch=16KiB --html trends.html
  kbench history --fail-on-step 10%
  kbench history --metric records_per_sec,p99 --csv > series.csv`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asCSV && asJSON {
				return errors.New("--csv and --json both given; choose one")
			}
			threshold := 0.0
			gate := cmd.Flags().Changed("fail-on-step")
			if gate {
				var err error
				if threshold, err = parsePercent(failOnStep); err != nil {
					return fmt.Errorf("--fail-on-step: %w", err)
				}
			}
			if metricList == "" && (gate || asCSV || htmlFile != "") {
				metricList = "records_per_sec"
			}
			if len(args) == 0 {
				args = []string{"runs"}
			}
			runs, skipped, err := history.Load(args)
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "kbench: skipped %s: %v\n", s.Dir, s.Err)
			}
			if err != nil {
				return err
			}
			var series []*history.Series
			if metricList != "" {
				metrics, err := history.ParseMetrics(metricList)
				if err != nil {
					return fmt.Errorf("--metric: %w", err)
				}
				series = history.Build(runs, metrics, scenarios)
				if len(series) == 0 {
					return noSeriesError(runs, scenarios)
				}
			}
			out := cmd.OutOrStdout()
			switch {
			case asCSV:
				err = history.WriteCSV(out, series)
			case asJSON:
				err = history.WriteJSON(out, runs, series)
			case series != nil:
				err = history.WriteSeries(out, series)
			default:
				err = history.WriteIndex(out, runs)
			}
			if err != nil {
				return err
			}
			if htmlFile != "" {
				var page bytes.Buffer
				if err := history.WriteHTML(&page, runs, series); err != nil {
					return err
				}
				if err := results.WriteFileAtomic(htmlFile, page.Bytes()); err != nil {
					return fmt.Errorf("unable to write %s: %w", htmlFile, err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", htmlFile)
			}
			if !gate {
				return nil
			}
			failures := history.Gate(series, threshold)
			if len(failures) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "no series stepped worse by more than %g%% (%d series)\n", 100*threshold, len(series))
				return nil
			}
			parts := make([]string, len(failures))
			for i, f := range failures {
				parts[i] = f.String()
			}
			return &exitError{code: exitStep, msg: fmt.Sprintf("%d series stepped worse by more than %g%%: %s",
				len(failures), 100*threshold, strings.Join(parts, "; "))}
		},
	}
	f := cmd.Flags()
	f.StringVar(&metricList, "metric", "", "comma-separated figures to follow (records_per_sec, mib_per_sec, p50, p99, p999, broker_cpu, client_cpu_per_million)")
	f.StringSliceVar(&scenarios, "scenario", nil, "follow only these scenarios (comma-separated or repeated)")
	f.StringVar(&failOnStep, "fail-on-step", "", "exit with code 9 when a series' latest group is worse than the one before by more than this percentage, e.g. 10%")
	f.BoolVar(&asCSV, "csv", false, "print the series as CSV, one row per run and series")
	f.BoolVar(&asJSON, "json", false, "print the runs and series as JSON")
	f.StringVar(&htmlFile, "html", "", "write a self-contained HTML page with a chart per series to this file")
	return cmd
}

// parsePercent reads a percentage strictly between 0 and 100, with or without "%": "10%",
// "10" and "2.5" are 0.10, 0.10 and 0.025.
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v <= 0 || v >= 100 {
		return 0, fmt.Errorf("%q is not a percentage between 0 and 100; give one such as 10%%", s)
	}
	return v / 100, nil
}

// noSeriesError says why no series came out: the scenarios asked for are not in the runs,
// or no valid repeat has the figure.
func noSeriesError(runs []history.Run, asked []string) error {
	var known []string
	for _, r := range runs {
		for _, s := range r.Scenarios {
			if !slices.Contains(known, s.ID) {
				known = append(known, s.ID)
			}
		}
	}
	if len(asked) > 0 {
		return fmt.Errorf("no valid repeat of scenario %s in %d runs; their scenarios: %s",
			strings.Join(asked, ", "), len(runs), strings.Join(known, ", "))
	}
	return fmt.Errorf("no valid repeat with these figures in %d runs", len(runs))
}
