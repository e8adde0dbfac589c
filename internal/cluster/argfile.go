package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// commandWithArgFile is Kafka.Command for arguments that hold a secret (the SCRAM
// password given to the storage tool): the main class and its arguments go in a file
// readable only by the owner, passed as a Java launcher @argfile, so they never appear in
// /proc/PID/cmdline or ps. The launcher expands @files only up to the main class, which is
// why the class is in the file too. The caller runs remove once the command has ended.
func (k *Kafka) commandWithArgFile(ctx context.Context, path, mainClass string, args ...string) (cmd *exec.Cmd, remove func(), err error) {
	var b strings.Builder
	for _, a := range append([]string{mainClass}, args...) {
		b.WriteString(argFileQuote(a))
		b.WriteByte('\n')
	}
	_ = os.Remove(path) // a stale file would keep its old mode
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("write argument file: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(path)
		return nil, nil, fmt.Errorf("write argument file: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, nil, fmt.Errorf("write argument file: %w", err)
	}
	cmd = exec.CommandContext(ctx, k.Java, "-cp", k.Classpath(), "@"+path)
	return cmd, func() { os.Remove(path) }, nil
}

// argFileQuote quotes one argument for a Java @argfile: in double quotes, with '\' and
// '"' escaped by a backslash (the launcher's own rules; white space inside quotes is kept).
func argFileQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
