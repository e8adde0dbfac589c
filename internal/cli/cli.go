// Package cli is kbench's command tree. It is the only package that prints to the user or
// decides the exit code; every other package returns wrapped errors.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Version is kbench's version, set at build time with -ldflags "-X ...cli.Version=...".
var Version = "dev"

// exitError carries a specific exit code out of a command (for example compare's
// --fail-on-regression) without printing anything more than the command already did.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// Main runs kbench with args and returns the process exit code. Errors are printed as one
// line, "kbench: ...", never as a stack trace.
func Main(args []string) int {
	return run(args, os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(context.Background(), stderr)
	defer stop()

	root := newRootCommand(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	// A command stopped by Ctrl-C or SIGTERM ends with the shell's code for it, after
	// printing what it has, whatever it returned.
	code := 0
	if ctx.Err() != nil {
		code = exitInterrupted
	}
	if err == nil {
		return code
	}
	var exit *exitError
	if errors.As(err, &exit) {
		if exit.msg != "" {
			fmt.Fprintf(stderr, "kbench: %s\n", exit.msg)
		}
		return exit.code
	}
	fmt.Fprintf(stderr, "kbench: %v\n", err)
	return max(code, 1)
}

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "kbench",
		Short: "Measure Apache Kafka: throughput, latency, cost and durability",
		Long: `kbench measures an Apache Kafka cluster: it starts a real cluster on this machine (or
attaches to yours), runs producer and consumer scenarios, and reports records/s, MB/s,
latency percentiles, broker and client CPU.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newClusterCommand(),
		newRunCommand(),
		newReportCommand(), newCompareCommand(),
		newHistoryCommand(),
		newProduceCommand(), newConsumeCommand(), newCapacityCommand(),
		newStudiesCommand(),
		newZonesCommand(),
		newVerifyCommand(),
		newAgentCommand(),
	)
	return root
}
