package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJavaMajor(t *testing.T) {
	tests := []struct {
		output string
		want   int
	}{
		{`openjdk version "17.0.15" 2025-04-15`, 17},
		{`java version "1.8.0_292"`, 8}, // pre-9 numbering
		{`openjdk version "21" 2023-09-19`, 21},
		{`openjdk version "11.0.2"`, 11},
	}
	for _, tt := range tests {
		got, err := javaMajor(tt.output)
		if err != nil || got != tt.want {
			t.Errorf("javaMajor(%q) = %d, %v; want %d", tt.output, got, err, tt.want)
		}
	}
	if _, err := javaMajor("command not found"); err == nil {
		t.Error("javaMajor of garbage: no error")
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"defaults", Options{}, ""},
		{"too many brokers", Options{Brokers: 99}, "brokers 99"},
		{"bad heap", Options{Heap: "lots"}, `heap "lots"`},
		{"bad sasl", Options{SASL: "kerberos"}, "scram-sha-512, scram-sha-256, plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.validate()
			if tt.wantErr == "" {
				if err != nil || tt.opts.Brokers != 3 || tt.opts.Heap != "1g" {
					t.Fatalf("validate: %v, brokers %d heap %s", err, tt.opts.Brokers, tt.opts.Heap)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("validate: %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestStartRefusesForeignDir checks that a directory holding the user's files is refused
// and left exactly as it was.
func TestStartRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Options{Dir: dir, Brokers: 1})
	if err == nil || !strings.Contains(err.Error(), "holds other files") {
		t.Fatalf("Start in a foreign dir: %v", err)
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "keep me" {
		t.Fatalf("user file changed: %q %v", data, err)
	}
}

func TestMissingJava(t *testing.T) {
	t.Setenv("JAVA_HOME", t.TempDir())
	_, err := Install(context.Background(), DefaultKafkaVersion, nil)
	if err == nil || !strings.Contains(err.Error(), "java not found") {
		t.Fatalf("Install without java: %v", err)
	}
}

func TestServerProperties(t *testing.T) {
	nodes := []node{
		{ID: 1, Controller: true, Internal: 1001, Client: 1002, CtrlPort: 1003, SASL: 1004},
		{ID: 2, Controller: true, Internal: 2001, Client: 2002, CtrlPort: 2003, SASL: 2004},
	}
	opts := Options{SASL: "plain", password: "pw"}
	got := serverProperties(nodes[0], nodes, "/c", opts, map[string]string{"num.partitions": "6"})
	for _, want := range []string{
		"process.roles=broker,controller\n",
		"controller.quorum.voters=1@127.0.0.1:1003,2@127.0.0.1:2003\n",
		"listener.security.protocol.map=INTERNAL:PLAINTEXT,CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL:SASL_PLAINTEXT\n",
		"advertised.listeners=INTERNAL://127.0.0.1:1001,CLIENT://127.0.0.1:1002,SASL://127.0.0.1:1004\n",
		`user_kbench="pw"`,
		"offsets.topic.replication.factor=2\n",
		"num.partitions=6\n", // the user's config wins
	} {
		if !strings.Contains(got, want) {
			t.Errorf("server.properties lacks %q:\n%s", want, got)
		}
	}
}

// TestServerPropertiesRemote checks that the REMOTE listener binds the broker's own port
// and advertises the proxy's, so clients learn only the proxy from metadata.
func TestServerPropertiesRemote(t *testing.T) {
	n := node{ID: 1, Controller: true, Internal: 1001, Client: 1002, CtrlPort: 1003, Remote: 1005, RemoteProxy: 1006}
	got := serverProperties(n, []node{n}, "/c", Options{}, nil)
	for _, want := range []string{
		"listener.security.protocol.map=INTERNAL:PLAINTEXT,CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT,REMOTE:PLAINTEXT\n",
		"listeners=INTERNAL://127.0.0.1:1001,CLIENT://127.0.0.1:1002,REMOTE://127.0.0.1:1005,CONTROLLER://127.0.0.1:1003\n",
		"advertised.listeners=INTERNAL://127.0.0.1:1001,CLIENT://127.0.0.1:1002,REMOTE://127.0.0.1:1006\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("server.properties lacks %q:\n%s", want, got)
		}
	}
	routes := remoteRoutes([]node{n})
	if len(routes) != 1 || routes[0].String() != "remote-1=127.0.0.1:1006@127.0.0.1:1005" {
		t.Errorf("routes = %v", routes)
	}
}

func TestReadProperties(t *testing.T) {
	path := filepath.Join(t.TempDir(), "client.properties")
	text := "# comment\nsecurity.protocol = SASL_SSL\nsasl.jaas.config=Module required username=\"u\" password=\"p=q\";\n\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	props, err := ReadProperties(path)
	if err != nil {
		t.Fatal(err)
	}
	if props["security.protocol"] != "SASL_SSL" || !strings.HasSuffix(props["sasl.jaas.config"], `password="p=q";`) {
		t.Fatalf("props = %v", props)
	}
	// Java reads "name value" (white space separates too), as Kafka's tools do.
	if err := os.WriteFile(path, []byte("ssl.key.password  s3cret value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if props, err := ReadProperties(path); err != nil || props["ssl.key.password"] != "s3cret value" {
		t.Fatalf("space-separated line: %v, %v; want ssl.key.password = %q", props, err, "s3cret value")
	}
}

func TestRandomClusterIDNeverLooksLikeAFlag(t *testing.T) {
	for range 2000 {
		if id := randomClusterID(); len(id) != 22 || id[0] == '-' {
			t.Fatalf("cluster ID %q: want 22 characters not starting with '-'", id)
		}
	}
}

func TestReadPropertiesContinuation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "client.properties")
	content := "# comment\n! also a comment\n\nacks = 1\nlinger.ms: 7\nbootstrap.servers=a:9092,b:9092\n" +
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n" +
		"    username=\"u\" password=\"p\";\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadProperties(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"acks": "1", "linger.ms": "7", "bootstrap.servers": "a:9092,b:9092",
		"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d properties, want %d: %v", len(got), len(want), got)
	}
}

// TestServerPropertiesBrokerZones checks that with a broker link the inter-broker listener
// is advertised at its proxy while the broker still binds its own port.
func TestServerPropertiesBrokerZones(t *testing.T) {
	n := node{ID: 2, Internal: 2001, Client: 2002, InternalProxy: 2007}
	got := serverProperties(n, []node{n}, "/c", Options{}, nil)
	for _, want := range []string{
		"listeners=INTERNAL://127.0.0.1:2001,CLIENT://127.0.0.1:2002\n",
		"advertised.listeners=INTERNAL://127.0.0.1:2007,CLIENT://127.0.0.1:2002\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("server.properties lacks %q:\n%s", want, got)
		}
	}
	if r := internalRoutes([]node{n}); len(r) != 1 || r[0].String() != "internal-2=127.0.0.1:2007@127.0.0.1:2001" {
		t.Errorf("routes = %v", r)
	}
}
