package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitNow ends the process on a second interrupt; a variable so that a test can see the call.
var exitNow = os.Exit

// signalContext returns a context cancelled by the first Ctrl-C (SIGINT) or SIGTERM, so the
// command stops its load and cleans up (deletes its topics, stops its brokers, writes what
// it has). A second signal ends the process at once with code 130: embedded brokers die with
// it through their parent-death signal (cluster.startBroker), so none is left running.
func signalContext(parent context.Context, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "kbench: %s: stopping and cleaning up (again to quit at once)\n", signalName(s))
			cancel(context.Canceled)
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "kbench: %s again: quitting without cleaning up\n", signalName(s))
			exitNow(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

func signalName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "interrupted"
}
