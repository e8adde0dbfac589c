package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/zones"
)

// TestReloadLink: on SIGHUP the proxy process applies the link file written for it (the
// client's or the brokers'), logs the line cluster.signalLink waits for, and removes the
// file, so the next signal does not apply it again.
func TestReloadLink(t *testing.T) {
	ms := time.Millisecond
	newProxy := func() *zones.Proxy {
		p, err := zones.Start(zones.Link{RTT: ms}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	dir := t.TempDir()
	client, broker := newProxy(), newProxy()
	for _, tc := range []struct {
		name     string
		file     string // written before the signal ("" for none)
		content  string
		proxy    *zones.Proxy
		wantLog  string
		wantLink zones.Link // the proxy's link after the signal
	}{
		{"client link", zones.LinkFile, `{"rtt": "20ms", "bandwidth": 1048576}`, client,
			"link set: rtt 20ms, 1MiB/s\n", zones.Link{RTT: 20 * ms, Bandwidth: 1 << 20}},
		{"broker link", zones.BrokerLinkFile, `{"rtt": "5ms", "bandwidth": 0}`, broker,
			"broker link set: rtt 5ms\n", zones.Link{RTT: 5 * ms}},
		{"no file: nothing applied again", "", "", client, "", zones.Link{RTT: 20 * ms, Bandwidth: 1 << 20}},
		{"bad file", zones.BrokerLinkFile, `{"rtt": "soon"}`, broker,
			"link not changed: ", zones.Link{RTT: 5 * ms}},
		{"no such routes", zones.BrokerLinkFile, `{"rtt": "1ms"}`, nil, "link not changed: no broker routes\n", zones.Link{}},
	} {
		path := filepath.Join(dir, zones.BrokerLinkFile)
		done, missing := "broker link set: ", "no broker routes"
		if tc.file == zones.LinkFile || (tc.file == "" && tc.proxy == client) {
			path, done, missing = filepath.Join(dir, zones.LinkFile), "link set: ", "no client routes"
		}
		if tc.file != "" {
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		reloadLink(&out, path, done, missing, tc.proxy)
		if got := out.String(); (tc.wantLog == "" && got != "") || !bytes.HasPrefix(out.Bytes(), []byte(tc.wantLog)) {
			t.Errorf("%s: logged %q, want %q", tc.name, got, tc.wantLog)
		}
		if tc.proxy != nil && tc.proxy.Link() != tc.wantLink {
			t.Errorf("%s: link %v, want %v", tc.name, tc.proxy.Link(), tc.wantLink)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: %s is still there", tc.name, path)
		}
	}
}
