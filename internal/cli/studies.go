package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/study"
	"github.com/kbench/kbench/studies"
)

func newStudiesCommand() *cobra.Command {
	var showYAML bool
	cmd := &cobra.Command{
		Use:   "studies [NAME]",
		Short: "List the built-in studies, or show one",
		Long: `Without arguments, list the built-in studies: a quick demo and one study per published
Kafka performance test that kbench reproduces, with their scenario counts and estimated
durations on the embedded cluster. With a NAME, print that study's expanded plan, as
'kbench run NAME --dry-run' would; with --yaml, print its study file instead, a starting
point for a study of your own.

Examples:
  kbench studies
  kbench studies dms-producer
  kbench studies quick --yaml > my-study.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if len(args) == 1 {
				if showYAML {
					data, err := studies.Read(args[0])
					if err != nil {
						return err
					}
					_, err = out.Write(data)
					return err
				}
				plan, err := study.Load(args[0])
				if err != nil {
					return err
				}
				return plan.Describe(out)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tSCENARIOS\tESTIMATE\tTITLE")
			for _, name := range study.Builtins() {
				plan, err := study.Load(name)
				if err != nil {
					return fmt.Errorf("built-in study %s: %w", name, err)
				}
				fmt.Fprintf(tw, "%s\t%d x %d\t%s\t%s\n", name, len(plan.Scenarios), plan.Repeats,
					plan.EstimatedDuration().Round(1e9), plan.Title)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&showYAML, "yaml", false, "print the study file instead of the expanded plan")
	return cmd
}
