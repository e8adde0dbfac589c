package cli

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// TestNoSecretAnywhere plants secrets in every input kbench takes (a command-config file's
// sasl.jaas.config, --producer-props ssl.key.password, a study's broker configs, cluster
// --config, a malformed properties line) and uses the shared cluster's SASL password, then
// looks for them in every output: stdout and stderr of each command, every file of the run
// directory (reports included), the cluster directory's cluster.json, and the command lines
// of the broker processes.
func TestNoSecretAnywhere(t *testing.T) {
	clustertest.Need(t, testCluster)
	sasl, ok := testCluster.Endpoint("sasl")
	if !ok {
		t.Fatal("the shared cluster has no SASL listener")
	}
	m := regexp.MustCompile(`password="([^"]+)"`).FindStringSubmatch(sasl.Properties["sasl.jaas.config"])
	if m == nil {
		t.Fatal("no password in the cluster's sasl.jaas.config")
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	canary := "CANARY" + hex.EncodeToString(b)
	secrets := map[string]string{"the planted canary": canary, "the embedded cluster's SASL password": m[1]}
	leaks := func(where, text string) {
		t.Helper()
		for what, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s shows %s:\n%s", where, what, text)
			}
		}
	}

	work := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(work, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	trust := sasl.Properties["ssl.truststore.location"]
	// The cluster's credentials written the ways Kafka's tools also read: "name value",
	// "name:value", a JAAS config continued over three lines.
	good := write("good.properties", fmt.Sprintf("security.protocol SASL_SSL\nsasl.mechanism:SCRAM-SHA-512\n"+
		"sasl.jaas.config = org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"+
		"    username=\"kbench\" \\\n    password=\"%s\";\nssl.truststore.type=PEM\nssl.truststore.location=%s\n", m[1], trust))
	// Wrong credentials: the canary as a password with an escaped quote and a ';' inside
	// (the file's \\\" is the JAAS \").
	wrong := write("wrong.properties", fmt.Sprintf("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"kbench\" password=\"x\\\\\\\";%s\";\n"+
		"ssl.truststore.type=PEM\nssl.truststore.location=%s\n", canary, trust))
	malformed := write("malformed.properties", "security.protocol=SASL_SSL\nssl.key.password="+canary+`\u12`+"\n")
	study := write("study.yaml", `name: secrets
repeats: 1
warmup: 1s
cooldown: 0s
cluster:
  broker_configs:
    listener.name.sasl.ssl.key.password: `+canary+`
    listener.name.sasl.scram-sha-512.sasl.jaas.config: 'org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="`+canary+`";'
    num.io.threads: 8
defaults:
  topic:
    partitions: 1
    replicas: 1
  producers:
    count: 1
    record_size: 100
    duration: 2s
`)
	runs := filepath.Join(work, "runs")
	boot := sasl.Bootstrap
	for _, tc := range []struct {
		name string
		args []string
		ok   bool // exit 0 expected
	}{
		{"produce --json", []string{"produce", "--bootstrap-server", boot, "--command-config", good, "--topic", "secrets-t",
			"--num-records", "2000", "--record-size", "100", "--throughput", "-1", "--json"}, true},
		{"produce --print-metrics", []string{"produce", "--bootstrap-server", boot, "--producer.config", good, "--topic", "secrets-t",
			"--num-records", "1000", "--record-size", "100", "--throughput", "-1", "--print-metrics"}, true},
		{"consume --json", []string{"consume", "--bootstrap-server", boot, "--command-config", good, "--topic", "secrets-t",
			"--messages", "3000", "--timeout", "30000", "--json"}, true},
		{"consume --print-metrics", []string{"consume", "--bootstrap-server", boot, "--consumer.config", good, "--topic", "secrets-t",
			"--messages", "3000", "--timeout", "30000", "--print-metrics"}, true},
		{"produce with a secret property", []string{"produce", "--bootstrap-server", boot, "--command-config", good, "--topic", "secrets-t",
			"--num-records", "10", "--record-size", "10", "--throughput", "-1", "--producer-props", "ssl.key.password=" + canary}, false},
		{"a split JAAS config leaves a piece as an argument", []string{"produce", "--bootstrap-server", boot, "--topic", "secrets-t",
			"--num-records", "10", "--record-size", "10", "--throughput", "-1", "--producer-props", "acks=1", canary + `";`}, false},
		{"wrong password", []string{"produce", "--bootstrap-server", boot, "--command-config", wrong, "--topic", "secrets-t",
			"--num-records", "10", "--record-size", "10", "--throughput", "-1"}, false},
		{"malformed properties line", []string{"produce", "--bootstrap-server", boot, "--command-config", malformed, "--topic", "secrets-t",
			"--num-records", "10", "--record-size", "10", "--throughput", "-1"}, false},
		{"cluster up --config without a name", []string{"cluster", "up", "--dir", filepath.Join(work, "never"), "--config", canary}, false},
		{"cluster status", []string{"cluster", "status", "--dir", testCluster.Dir()}, true},
		{"run a study with secret broker configs", []string{"run", study, "--bootstrap-server", boot, "--command-config", good,
			"--yes", "--runs-dir", runs, "--report", "md,html,csv,json"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runKbench(tc.args...)
			if (code == 0) != tc.ok {
				t.Errorf("exit %d, want success %v; stderr: %s", code, tc.ok, stderr)
			}
			leaks("stdout", stdout)
			leaks("stderr", stderr)
		})
	}

	// Every file of the run directory, and the cluster directory's JSON.
	files := 0
	_ = filepath.WalkDir(runs, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		files++
		leaks(path, string(data))
		return nil
	})
	if files < 5 {
		t.Errorf("the run directory holds %d files, want run.json, study.yaml, a repeat and reports", files)
	}
	jsons, _ := filepath.Glob(filepath.Join(testCluster.Dir(), "*.json"))
	if len(jsons) == 0 {
		t.Error("no cluster.json in the cluster directory")
	}
	for _, path := range jsons {
		data, _ := os.ReadFile(path)
		leaks(path, string(data))
	}
	// The processes kbench started: the brokers (the storage tool that formatted them is
	// gone; its command line is checked in internal/cluster).
	for _, br := range testCluster.Brokers() {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", br.PID))
		if err != nil {
			t.Errorf("broker %d: %v", br.ID, err)
			continue
		}
		leaks(fmt.Sprintf("/proc/%d/cmdline", br.PID), strings.ReplaceAll(string(data), "\x00", " "))
	}
}

// TestResumeRefusesARedactedStudy checks that a run whose study copy lost secret broker
// configs to redaction is not resumed with "[redacted]" as a broker's password.
func TestResumeRefusesARedactedStudy(t *testing.T) {
	dir := t.TempDir()
	study := "name: s\ncluster:\n  broker_configs:\n    ssl.keystore.password: \"[redacted]\"\n"
	if err := os.WriteFile(filepath.Join(dir, "study.yaml"), []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := loadStudy(nil, dir)
	if err == nil || !strings.Contains(err.Error(), "cluster.broker_configs.ssl.keystore.password was redacted when the study was copied, so this run cannot be resumed") {
		t.Errorf("error = %v", err)
	}
}
