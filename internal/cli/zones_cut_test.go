package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/kbench/kbench/internal/zones"
)

// TestReloadCut: the proxy process applies the cut file across its two proxies, logs the
// line cluster.Cut waits for, refuses a route neither has, and removes the file.
func TestReloadCut(t *testing.T) {
	start := func(name string) *zones.Proxy {
		p, err := zones.Start(zones.Link{}, []zones.Route{{Name: name, Listen: "127.0.0.1:0", Target: "127.0.0.1:1"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	client, broker := start("remote-2"), start("internal-2")
	path := filepath.Join(t.TempDir(), zones.CutFile)
	for _, tc := range []struct {
		name   string
		routes []string
		want   string
	}{
		{"both of broker 2's routes", []string{"internal-2", "remote-2"}, "cut set: internal-2, remote-2\n"},
		{"mend all", nil, "cut set: none\n"},
		{"a route no proxy has", []string{"internal-2", "internal-7"}, "cut not changed: no route internal-7\n"},
	} {
		if err := zones.WriteCutFile(path, tc.routes); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		reloadCut(&out, path, client, broker)
		if out.String() != tc.want {
			t.Errorf("%s: logged %q, want %q", tc.name, out.String(), tc.want)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: the cut file is still there", tc.name)
		}
	}
	var out bytes.Buffer
	reloadCut(&out, path, client, broker)
	if out.Len() != 0 {
		t.Errorf("no file: logged %q", out.String())
	}
}
