package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// preflightGuard bounds each case: the check itself gives up after 15 s, so a case still
// running much later is a hang. A guard, not a measurement.
const preflightGuard = 60 * time.Second

// TestPreflightRealCluster points kbench produce at the shared embedded cluster's plain, TLS
// and SASL_SSL listeners with the wrong settings: each run must end with one line naming
// the cause, never the password.
func TestPreflightRealCluster(t *testing.T) {
	clustertest.Need(t, testCluster)
	plain, tls, sasl := endpoint(t, "plain"), endpoint(t, "tls"), endpoint(t, "sasl")
	dir := t.TempDir()
	const wrong = "wrong-Pa55-canary"
	right := regexp.MustCompile(`password="([^"]*)"`).FindStringSubmatch(sasl.Properties["sasl.jaas.config"])[1]
	badPassword := maps.Clone(sasl.Properties)
	badPassword["sasl.jaas.config"] = strings.Replace(badPassword["sasl.jaas.config"], right, wrong, 1)
	noTrust := map[string]string{"security.protocol": "SSL"} // the system's CAs: not the cluster's
	files := map[string]map[string]string{
		"tls.properties":     tls.Properties,
		"sasl.properties":    sasl.Properties,
		"badpass.properties": badPassword,
		"notrust.properties": noTrust,
	}
	for name, props := range files {
		writePropertiesFile(t, filepath.Join(dir, name), props)
	}
	first := func(boot string) string { return strings.Split(boot, ",")[0] }
	dead := closedPort(t)
	tests := []struct {
		name      string
		bootstrap string
		config    string
		extra     []string
		says      []string
	}{
		{"unreachable port", dead, "", nil, []string{dead, "connection refused"}},
		{"wrong password", first(sasl.Bootstrap), "badpass.properties", nil, []string{"authentication failed", "SCRAM-SHA-512", "user kbench"}},
		{"TLS client, plaintext port", first(plain.Bootstrap), "tls.properties", nil, []string{"TLS handshake", "plaintext listener"}},
		{"plaintext client, TLS port", first(tls.Bootstrap), "", nil, []string{"TLS listener", "client speaks plaintext", "security.protocol=SSL"}},
		{"unknown CA", first(tls.Bootstrap), "notrust.properties", nil, []string{"TLS handshake", "unknown CA"}},
		{"SASL listener, no SASL", first(sasl.Bootstrap), "tls.properties", nil, []string{"requires SASL", "security.protocol=SASL_SSL"}},
		{"missing topic, --no-create", first(sasl.Bootstrap), "sasl.properties", []string{"--no-create"}, []string{"topic preflight-missing does not exist", "--no-create"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"produce", "--bootstrap-server", tt.bootstrap, "--topic", "preflight-missing",
				"--record-size", "10", "--num-records", "10"}
			if tt.config != "" {
				args = append(args, "--producer.config", filepath.Join(dir, tt.config))
			}
			args = append(args, tt.extra...)
			type outcome struct {
				stdout, stderr string
				code           int
			}
			done := make(chan outcome, 1)
			go func() {
				o, e, c := runKbench(args...)
				done <- outcome{o, e, c}
			}()
			var got outcome
			select {
			case got = <-done:
			case <-time.After(preflightGuard):
				t.Fatalf("kbench %s did not return within the %s guard", strings.Join(args, " "), preflightGuard)
			}
			t.Logf("stderr: %s", got.stderr)
			if got.code == 0 {
				t.Fatalf("exit code 0, want non-zero:\n%s", got.stdout)
			}
			if n := strings.Count(strings.TrimRight(got.stderr, "\n"), "\n"); n != 0 {
				t.Errorf("stderr has %d lines, want one", n+1)
			}
			for _, s := range tt.says {
				if !strings.Contains(got.stderr, s) {
					t.Errorf("stderr does not say %q", s)
				}
			}
			for _, secret := range []string{wrong, right} {
				if strings.Contains(got.stdout+got.stderr, secret) {
					t.Errorf("the output shows a password")
				}
			}
		})
	}
	// The checks created nothing: the topic they were pointed at does not exist.
	if topics := listTopics(t, plain.Bootstrap); slices.Contains(topics, "preflight-missing") {
		t.Errorf("a check created topic preflight-missing")
	}
}

func endpoint(t *testing.T, name string) cluster.Endpoint {
	t.Helper()
	e, ok := testCluster.Endpoint(name)
	if !ok {
		t.Fatalf("the test cluster has no %s listener", name)
	}
	return e
}

func writePropertiesFile(t *testing.T, path string, props map[string]string) {
	t.Helper()
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%s=%s\n", k, props[k])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}
