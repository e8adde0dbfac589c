package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/report"
)

func newReportCommand() *cobra.Command {
	var formats, out string
	cmd := &cobra.Command{
		Use:   "report RUN",
		Short: "Write the white paper of a run directory (Markdown, HTML, CSV, JSON)",
		Long: `Report reads a run directory written by "kbench run" and writes its report: scenarios,
environment, procedure (the kbench and Kafka tool commands that reproduce each scenario),
results table, charts and conclusions (effects, limiting resources, hypothesis verdicts and
the source study's figures). It needs no Kafka: a copied run directory gives the same report.

Files written (into RUN unless --out says otherwise): report.md (with charts/*.svg),
report.html (self-contained), results.csv (one row per scenario), report.json.

Examples:
  kbench report runs/2026-03-01-quick
  kbench report runs/2026-03-01-quick --format html --out /tmp/paper`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fs, err := report.ParseFormats(formats)
			if err != nil {
				return err
			}
			paths, err := report.Generate(args[0], out, fs, report.Options{})
			if err != nil {
				return fmt.Errorf("unable to write report: %w", err)
			}
			for _, p := range paths {
				fmt.Fprintln(cmd.OutOrStdout(), p)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&formats, "format", "md,html,csv,json", "comma-separated formats: md, html, csv, json")
	cmd.Flags().StringVar(&out, "out", "", "directory to write the report into (default: the run directory)")
	return cmd
}
