package cluster

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/redact"
)

// saslUser is the user the embedded cluster creates for SASL clients.
const saslUser = "kbench"

// readyTimeout bounds the wait for brokers to register; cold JVMs on two busy cores take
// about 20 s.
const readyTimeout = 3 * time.Minute

func dataDir(dir string, id int) string {
	return filepath.Join(dir, fmt.Sprintf("broker-%d", id), "data")
}
func keystorePath(dir string, id int) string {
	return filepath.Join(dir, "tls", fmt.Sprintf("broker-%d.pem", id))
}
func brokerDir(dir string, id int) string { return filepath.Join(dir, fmt.Sprintf("broker-%d", id)) }

func (c *Cluster) launch(ctx context.Context, kafka *Kafka, opts Options, log io.Writer) error {
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return err
	}
	opts.Dir = dir
	opts.password = randomHex(12)
	nodes, err := allocateNodes(opts, kafka.JMXAgent != "")
	if err != nil {
		return err
	}
	if portsChosen != nil {
		portsChosen(nodes)
	}
	c.state = state{Format: 1, Dir: dir, KafkaVersion: kafka.Version, Started: time.Now().UTC(),
		SASL: strings.ToLower(opts.SASL), TLS: opts.TLS, Heap: opts.Heap, BrokerConfig: opts.BrokerConfig,
		ClusterID: randomClusterID(), Limits: opts.Limits, Host: opts.Host}
	if err := c.prepareTmpfs(&opts); err != nil {
		return err
	}
	if err := c.writeFiles(opts, nodes); err != nil {
		return err
	}
	// Saved before anything can fail, so that the next `cluster up` or `cluster down`
	// recognises the directory (and removes any cgroups created) after a failed start.
	if err := c.save(); err != nil {
		return err
	}
	if opts.Client != nil || opts.Broker != nil {
		if err := c.startProxies(opts, nodes); err != nil {
			return err
		}
	}
	groups, err := c.createCgroups(opts, nodes, log)
	if err != nil {
		return err
	}
	if err := c.save(); err != nil {
		return err
	}
	fmt.Fprintf(log, "formatting %d KRaft node(s) (Kafka %s) in %s\n", len(nodes), kafka.Version, dir)
	if err := format(ctx, kafka, opts, nodes, c.state.ClusterID); err != nil {
		return err
	}
	fmt.Fprintf(log, "starting %d broker(s)\n", len(nodes))
	for _, n := range nodes {
		var group *flavor.Group
		if g, ok := groups[n.ID]; ok {
			group = &g
		}
		b, err := startNode(kafka, opts, n, group)
		if err != nil {
			return err
		}
		c.state.Brokers = append(c.state.Brokers, b)
		// Started inside its cgroup already (startInGroup); this moves any thread that
		// was not, and fails loudly if the cgroup is gone.
		if g, ok := groups[n.ID]; ok {
			if err := g.Add(b.PID); err != nil {
				return err
			}
		}
		// Saved after every start so that `cluster down` finds a half-started cluster.
		if err := c.save(); err != nil {
			return err
		}
	}
	return c.waitReady(ctx, log)
}

// portsChosen, when set by a test, sees each launch's ports after they are released.
var portsChosen func([]node)

// allocateNodes picks free loopback ports for every listener of every node (portPicker).
func allocateNodes(opts Options, metrics bool) ([]node, error) {
	var nodes []node
	ports := newPortPicker()
	defer ports.release()
	for id := 1; id <= opts.Brokers; id++ {
		n := node{ID: id, Controller: id <= 3}
		listeners := []*int{&n.Internal, &n.Client}
		if n.Controller {
			listeners = append(listeners, &n.CtrlPort)
		}
		if opts.SASL != "" {
			listeners = append(listeners, &n.SASL)
		}
		if opts.TLS {
			listeners = append(listeners, &n.TLS)
		}
		if metrics {
			listeners = append(listeners, &n.Metrics)
		}
		if opts.Client != nil {
			listeners = append(listeners, &n.Remote, &n.RemoteProxy)
		}
		if opts.Broker != nil {
			listeners = append(listeners, &n.InternalProxy)
		}
		for _, p := range listeners {
			v, err := ports.next()
			if err != nil {
				return nil, err
			}
			*p = v
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// writeFiles writes each node's server.properties, the log4j2 config, TLS material and the
// client properties files, and fills the endpoints.
func (c *Cluster) writeFiles(opts Options, nodes []node) error {
	dir := opts.Dir
	var ca *certAuthority
	if opts.TLS {
		var err error
		if ca, err = newCertAuthority(); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, "tls"), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "tls", "ca.pem"), ca.pem, 0o644); err != nil {
			return fmt.Errorf("write CA certificate: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "log4j2.properties"), []byte(log4j2Properties), 0o644); err != nil {
		return fmt.Errorf("write log4j2.properties: %w", err)
	}
	for _, n := range nodes {
		if err := os.MkdirAll(brokerDir(dir, n.ID), 0o755); err != nil {
			return fmt.Errorf("create broker %d directory: %w", n.ID, err)
		}
		if err := os.MkdirAll(logDir(opts, n.ID), 0o755); err != nil {
			return fmt.Errorf("create broker %d directory: %w", n.ID, err)
		}
		if ca != nil {
			if err := ca.writeKeystore(keystorePath(dir, n.ID), fmt.Sprintf("broker-%d", n.ID), opts.Host); err != nil {
				return err
			}
		}
		conf := serverProperties(n, nodes, dir, opts, opts.BrokerConfig)
		if err := writePrivate(filepath.Join(brokerDir(dir, n.ID), "server.properties"), []byte(conf)); err != nil {
			return fmt.Errorf("write broker %d config: %w", n.ID, err)
		}
	}
	bootstrap := func(port func(node) int) string {
		var s []string
		for _, n := range nodes {
			s = append(s, hostPort(opts.clientHost(), port(n)))
		}
		return strings.Join(s, ",")
	}
	c.state.Endpoints = []Endpoint{{Name: "plain", Protocol: "PLAINTEXT", Bootstrap: bootstrap(func(n node) int { return n.Client })}}
	trust := map[string]string{}
	if opts.TLS {
		trust = map[string]string{"ssl.truststore.type": "PEM", "ssl.truststore.location": filepath.Join(dir, "tls", "ca.pem")}
	}
	if opts.SASL != "" {
		mech := saslMechanism(opts.SASL)
		module := "org.apache.kafka.common.security.scram.ScramLoginModule"
		if mech == "PLAIN" {
			module = "org.apache.kafka.common.security.plain.PlainLoginModule"
		}
		protocol := "SASL_PLAINTEXT"
		if opts.TLS {
			protocol = "SASL_SSL"
		}
		props := map[string]string{
			"security.protocol": protocol,
			"sasl.mechanism":    mech,
			"sasl.jaas.config":  fmt.Sprintf(`%s required username="%s" password="%s";`, module, saslUser, opts.password),
		}
		for k, v := range trust {
			props[k] = v
		}
		e := Endpoint{Name: "sasl", Protocol: protocol, Bootstrap: bootstrap(func(n node) int { return n.SASL }),
			PropertiesFile: filepath.Join(dir, "client-sasl.properties"), Properties: props}
		if err := writeProperties(e.PropertiesFile, props); err != nil {
			return fmt.Errorf("write client properties: %w", err)
		}
		c.state.Endpoints = append(c.state.Endpoints, e)
	}
	if opts.TLS {
		props := map[string]string{"security.protocol": "SSL"}
		for k, v := range trust {
			props[k] = v
		}
		e := Endpoint{Name: "tls", Protocol: "SSL", Bootstrap: bootstrap(func(n node) int { return n.TLS }),
			PropertiesFile: filepath.Join(dir, "client-tls.properties"), Properties: props}
		if err := writeProperties(e.PropertiesFile, props); err != nil {
			return fmt.Errorf("write client properties: %w", err)
		}
		c.state.Endpoints = append(c.state.Endpoints, e)
	}
	return nil
}

// format runs Kafka's storage tool on every node, in parallel (each is a JVM start). SCRAM
// credentials are written into the cluster metadata at format time, as KRaft requires;
// the password reaches the tool through a private argument file, never its command line
// (see formatCommand).
func format(ctx context.Context, kafka *Kafka, opts Options, nodes []node, clusterID string) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, remove, err := formatCommand(ctx, kafka, opts, n, clusterID)
			if err != nil {
				errs[i] = fmt.Errorf("format broker %d storage: %w", n.ID, err)
				return
			}
			defer remove()
			out, err := cmd.CombinedOutput()
			if err != nil {
				// The tool may quote its arguments back when it rejects them.
				text := string(out)
				if opts.password != "" {
					text = strings.ReplaceAll(text, opts.password, redact.Marker)
				}
				errs[i] = fmt.Errorf("format broker %d storage: %v: %s", n.ID, err, lastLines(text, 8))
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// formatCommand is the storage tool's command for node n. With SCRAM it carries the
// password, so its arguments go through a Java @argfile in the broker's directory (mode
// 0600, removed by remove). Kafka 4.1's storage tool takes --add-scram only as an argument;
// creating the credentials later through the admin API would leave the SASL listener
// refusing clients until then, and format time is where KRaft expects them.
func formatCommand(ctx context.Context, kafka *Kafka, opts Options, n node, clusterID string) (*exec.Cmd, func(), error) {
	args := []string{"format", "-t", clusterID, "-c", filepath.Join(brokerDir(opts.Dir, n.ID), "server.properties")}
	// Kafka 4.1 formats share groups off (a preview there); 4.2 and later format them on.
	if strings.HasPrefix(kafka.Version, "4.1.") {
		args = append(args, "--feature", "share.version=1")
	}
	var cmd *exec.Cmd
	remove := func() {}
	if mech := saslMechanism(opts.SASL); opts.SASL != "" && mech != "PLAIN" {
		args = append(args, "--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", mech, saslUser, opts.password))
		var err error
		cmd, remove, err = kafka.commandWithArgFile(ctx, filepath.Join(brokerDir(opts.Dir, n.ID), ".format-args"), "kafka.tools.StorageTool", args...)
		if err != nil {
			return nil, nil, err
		}
	} else {
		cmd = kafka.Command(ctx, "kafka.tools.StorageTool", args...)
	}
	cmd.Env = append(os.Environ(), "KAFKA_LOG4J_OPTS=")
	return cmd, remove, nil
}

// startNode starts one broker JVM; it is stopped by its PID.
func startNode(kafka *Kafka, opts Options, n node, group *flavor.Group) (Broker, error) {
	bdir := brokerDir(opts.Dir, n.ID)
	logPath := filepath.Join(bdir, "server.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return Broker{}, fmt.Errorf("open broker %d log: %w", n.ID, err)
	}
	defer logFile.Close()
	args := []string{
		"-Xmx" + opts.Heap, "-Xms" + opts.Heap,
		// Kafka's own start script uses G1 with a 20 ms pause goal.
		"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
		"-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(opts.Dir, "log4j2.properties"),
		"-Dkafka.logs.dir=" + bdir,
	}
	metricsURL := ""
	if kafka.JMXAgent != "" && n.Metrics != 0 {
		rules := filepath.Join(opts.Dir, "jmx-exporter.yaml")
		if err := os.WriteFile(rules, jmxExporterRules, 0o644); err != nil {
			return Broker{}, fmt.Errorf("write exporter rules: %w", err)
		}
		args = append(args, fmt.Sprintf("-javaagent:%s=127.0.0.1:%d:%s", kafka.JMXAgent, n.Metrics, rules))
		metricsURL = fmt.Sprintf("http://127.0.0.1:%d/metrics", n.Metrics)
	}
	args = append(args, "-cp", kafka.Classpath(), "kafka.Kafka", filepath.Join(bdir, "server.properties"))
	cmd := exec.Command(kafka.Java, args...)
	cmd.Dir = bdir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := startInGroup(cmd, opts.Detach, group); err != nil {
		return Broker{}, fmt.Errorf("start broker %d: %w", n.ID, err)
	}
	pid := cmd.Process.Pid
	// Reap the child when it exits so it does not linger as a zombie while we run.
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	return Broker{ID: n.ID, PID: pid, Port: n.Client, Controller: n.Controller, MetricsURL: metricsURL,
		LogFile: logPath, nodePorts: n, exited: exited}, nil
}

// randomClusterID returns a Kafka cluster ID (a UUID in URL-safe base64). Like Kafka's own
// Uuid.randomUuid it never starts with '-', which the storage tool would read as a flag.
func randomClusterID() string {
	b := make([]byte, 16)
	for {
		_, _ = rand.Read(b)
		if id := base64.RawURLEncoding.EncodeToString(b); id[0] != '-' {
			return id
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
