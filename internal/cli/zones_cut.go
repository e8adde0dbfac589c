package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/zones"
)

// reloadCut applies the cut file, if it exists, to the proxies: the routes it names are
// cut (a fault of kbench verify, cluster.Cut), every other route is mended. It logs the
// outcome, which cluster.Cut waits for, and removes the file.
func reloadCut(out io.Writer, file string, proxies ...*zones.Proxy) {
	if _, err := os.Stat(file); err != nil {
		return
	}
	defer os.Remove(file)
	names, err := zones.ReadCutFile(file)
	if err != nil {
		fmt.Fprintf(out, "cut not changed: %v\n", err)
		return
	}
	// Checked before anything changes, so that a refused file leaves every route as it was.
	var have []string
	for _, p := range proxies {
		if p != nil {
			for _, r := range p.Routes() {
				have = append(have, r.Name)
			}
		}
	}
	var unknown []string
	for _, n := range names {
		if !slices.Contains(have, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		fmt.Fprintf(out, "cut not changed: no route %s\n", strings.Join(unknown, ", "))
		return
	}
	for _, p := range proxies {
		if p != nil {
			p.SetCut(names)
		}
	}
	fmt.Fprintf(out, "cut set: %s\n", cutWords(names))
}

// cutWords lists cut routes as the log line has them, "none" for none.
func cutWords(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
