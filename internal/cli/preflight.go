package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/preflight"
)

// checkCluster makes sure, within preflight.Timeout, that the verb's clients can reach the
// cluster, authenticate and do what need says, before any load: otherwise a wrong address,
// password or port makes the clients retry silently for minutes. It prints the check's
// notes (a dead bootstrap address among live ones, a topic the broker will create).
func checkCluster(cmd *cobra.Command, bootstrap string, props map[string]string, need preflight.Need) error {
	res, err := preflight.Check(cmd.Context(), bootstrap, props, need)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(cmd.ErrOrStderr(), "kbench: %s\n", n)
	}
	return nil
}
