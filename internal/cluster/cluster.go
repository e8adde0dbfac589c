// Package cluster runs an embedded Apache Kafka cluster (KRaft, one JVM per broker on
// 127.0.0.1) from jars fetched through Maven, and describes it to clients: bootstrap
// servers per listener, client properties (Java names), broker PIDs and metrics URLs.
//
// Layout: the first min(3, N) nodes are combined broker+controller nodes and the rest are
// brokers only. Separate controller processes would cost three more JVMs on machines where
// brokers and load already share few cores; the controllers' own work is small and is
// counted in their broker's CPU, which the report states.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/zones"
)

// DefaultHeap is each broker's Java heap unless told otherwise: Kafka's own
// (kafka-server-start.sh's -Xmx1G -Xms1G). At 512m, under 65,000 records/s on three brokers
// at 0.3 core each, two brokers' old generations sat at the 35% of the heap where G1 starts
// concurrent marking and ran 1-4 cycles in most minutes; at 1g none ran one after start-up
// (docs/capacity.md, "With the compiler rule, and the brokers' heap").
const DefaultHeap = "1g"

// Options configure an embedded cluster.
type Options struct {
	// Brokers is the number of brokers, overriding the default 3.
	Brokers int
	// Dir holds the cluster's configs, data and logs. Empty means a new temporary directory.
	// A directory that holds anything but a kbench cluster is refused.
	Dir string
	// Heap is each broker's Java heap (-Xmx and -Xms), overriding DefaultHeap.
	Heap string
	// SASL adds a SASL listener with this mechanism: scram-sha-512, scram-sha-256 or plain.
	SASL string
	// TLS adds a TLS listener (and makes the SASL listener SASL_SSL), with a CA and broker
	// certificates generated for this cluster.
	TLS bool
	// KafkaVersion is the Apache Kafka version, overriding the default DefaultKafkaVersion.
	KafkaVersion string
	// BrokerConfig holds extra server.properties entries; they override kbench's.
	BrokerConfig map[string]string
	// Keep leaves Dir in place on Stop (logs and data kept for inspection).
	Keep bool
	// Detach lets the brokers outlive this process (`kbench cluster up`). Otherwise they are
	// killed when it exits, even by SIGKILL or a test timeout, so no broker is orphaned.
	Detach bool
	// Limits are each broker's CPU quota, CPU pinning and disk class, applied through a
	// cgroup per broker (internal/flavor); the zero value limits nothing.
	Limits flavor.Limits
	// Log receives progress messages; nil discards them.
	Log io.Writer
	// Client, when set, adds the listener "remote" whose advertised addresses are delay
	// proxies with this link in front of each broker: a client in another zone.
	Client *zones.Link
	// Broker, when set, puts every broker in a zone of its own: each broker's inter-broker
	// listener is advertised at a delay proxy with this link, so replication fetches (and
	// every other broker-to-broker request) cross it. The KRaft controller listener stays
	// direct.
	Broker *zones.Link
	// ProxyCommand runs the remote listener's proxies as a process of their own (kbench's
	// `zones proxy` command, whose flags are appended); empty runs them in this process.
	ProxyCommand []string
	// Host is the address the client listeners (plain, sasl and tls) bind to and are
	// advertised at, overriding the default 127.0.0.1: an address of this machine that
	// clients on other hosts, or in other network namespaces, route to. The inter-broker,
	// controller and metrics listeners, and the remote listener's proxies, stay on 127.0.0.1.
	Host string

	password string // SASL password, generated
	dataRoot string // memory-backed directory holding the log dirs, with the tmpfs disk class
}

// Endpoint is one client listener of the cluster.
type Endpoint struct {
	// Name is "plain", "sasl", "tls" or "remote" (through the zone proxies).
	Name string `json:"name"`
	// Protocol is Kafka's security protocol: PLAINTEXT, SASL_PLAINTEXT, SASL_SSL or SSL.
	Protocol string `json:"protocol"`
	// Bootstrap is the comma-separated bootstrap servers of this listener.
	Bootstrap string `json:"bootstrap"`
	// PropertiesFile is a client properties file (Java client names) for this listener,
	// readable by kbench and Kafka's own tools; "" for the plain listener.
	PropertiesFile string `json:"properties_file,omitempty"`
	// Properties are the same properties as a map. They hold the SASL password.
	Properties map[string]string `json:"-"`
}

// Broker is one running broker.
type Broker struct {
	ID int `json:"id"`
	// PID is the broker's Java process.
	PID int `json:"pid"`
	// Port is the broker's PLAINTEXT client port.
	Port int `json:"port"`
	// Controller is true on combined broker+controller nodes.
	Controller bool `json:"controller"`
	// MetricsURL is the Prometheus JMX exporter endpoint, "" when the agent is unavailable.
	MetricsURL string `json:"metrics_url,omitempty"`
	// LogFile is where the broker's output goes.
	LogFile   string `json:"log_file"`
	nodePorts node
	// exited is closed when the broker process this kbench started has exited (nil for a
	// broker read from a cluster directory): its own child is judged by that, not by /proc.
	exited <-chan struct{}
}

// Cluster is a started (or reopened) embedded cluster.
type Cluster struct {
	state state
	keep  bool
	owned bool // Dir was created by Start as a temporary directory
	// firstDir is where the cluster was started when Open found it elsewhere (a copied or
	// moved directory), "" otherwise.
	firstDir    string
	proxy       *zones.Proxy // the remote listener's proxies when they run in this process
	brokerProxy *zones.Proxy // the inter-broker listener's proxies, likewise
	// detached is Options.Detach of the start: a restarted broker keeps its cluster's
	// lifetime (see Restart).
	detached bool
	// mu guards state.Brokers, which Restart replaces (never edits in place) while others
	// read it: a fault schedule restarts brokers while samplers list them.
	mu sync.Mutex
	// cutRoutes are the routes a proxy process was last told to keep cut (see Cut), under
	// cutMu, held while the process applies a change.
	cutMu     sync.Mutex
	cutRoutes map[string]bool
}

// ErrRunning is returned by Start when Dir already holds a running cluster.
var ErrRunning = errors.New("a cluster is already running")

// Dir returns the cluster directory.
func (c *Cluster) Dir() string { return c.state.Dir }

// KafkaVersion returns the version of Kafka the brokers run.
func (c *Cluster) KafkaVersion() string { return c.state.KafkaVersion }

// Bootstrap returns the PLAINTEXT listener's bootstrap servers.
func (c *Cluster) Bootstrap() string { return c.state.Endpoints[0].Bootstrap }

// Endpoints returns the client listeners: "plain" first, then "sasl" and "tls" if enabled.
func (c *Cluster) Endpoints() []Endpoint { return c.state.Endpoints }

// Endpoint returns the listener named name ("plain", "sasl", "tls").
func (c *Cluster) Endpoint(name string) (Endpoint, bool) {
	for _, e := range c.state.Endpoints {
		if e.Name == name {
			return e, true
		}
	}
	return Endpoint{}, false
}

// Brokers returns the brokers, ordered by ID. A broker restarted since (Restart) has a
// new PID: call Brokers again rather than keeping the slice.
func (c *Cluster) Brokers() []Broker {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Brokers
}

// StartedIn returns the directory the cluster was started in when its directory has since
// been copied or moved (Dir is then where it is now), "" otherwise.
func (c *Cluster) StartedIn() string { return c.firstDir }

// BrokerConfig returns the server.properties entries the user added.
func (c *Cluster) BrokerConfig() map[string]string { return c.state.BrokerConfig }

// Alive reports, per broker ID, whether its process is running.
func (c *Cluster) Alive() map[int]bool {
	brokers := c.Brokers()
	alive := make(map[int]bool, len(brokers))
	for _, b := range brokers {
		alive[b.ID] = c.processAlive(b)
	}
	return alive
}

// Stop stops every broker by its PID (SIGTERM, then SIGKILL after a grace period) and
// removes the cluster directory unless Options.Keep was set.
func (c *Cluster) Stop() error {
	return c.StopWithin(30 * time.Second)
}

// StopWithin is Stop with the grace period given.
func (c *Cluster) StopWithin(grace time.Duration) error {
	var pids []int
	for _, b := range c.Brokers() {
		if c.processAlive(b) {
			pids = append(pids, b.PID)
		}
	}
	if pid := c.stopProxies(); pid != 0 {
		pids = append(pids, pid)
	}
	if err := stopProcesses(pids, grace); err != nil {
		return err
	}
	// Cgroups and memory-backed log dirs go even when the directory stays: they hold the
	// host's resources, not anything to inspect.
	if err := c.releaseFlavor(); err != nil {
		return err
	}
	if c.keep {
		return nil
	}
	return c.removeDir()
}

// removeDir deletes the cluster directory, but only if it still looks like one of ours.
func (c *Cluster) removeDir() error {
	dir := c.state.Dir
	if _, err := os.Stat(filepath.Join(dir, stateFile)); err != nil && !c.owned {
		return fmt.Errorf("not removing %s: it has no %s", dir, stateFile)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove cluster directory: %w", err)
	}
	return nil
}

// processAlive reports whether b's PID runs that broker of this cluster directory: a Kafka
// broker JVM whose working directory is b's directory under Dir. A reused PID that now
// belongs to another program does not count, nor does the original's broker when Dir is a
// copy of another cluster directory (its cluster.json holds the original's PIDs). The
// working directory, not the command line, is compared because it follows the directory
// if it is moved or reached through a symbolic link.
func (c *Cluster) processAlive(b Broker) bool {
	if b.exited != nil {
		// A child of this process is alive until its Wait returns: no other program can
		// hold its PID before then, and its /proc entries may not yet show the broker's
		// command line and directory while it starts, which must not orphan it.
		select {
		case <-b.exited:
			return false
		default:
			return true
		}
	}
	return ownsProcess(b.PID, brokerDir(c.state.Dir, b.ID))
}

// ownsProcess reports whether pid is a kafka.Kafka JVM running in dir.
func ownsProcess(pid int, dir string) bool {
	if pid <= 0 || !running(pid) {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !slices.Contains(strings.Split(string(cmdline), "\x00"), "kafka.Kafka") {
		return false
	}
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		return false
	}
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return filepath.Clean(cwd) == want
}

// Start starts an embedded cluster and returns once every broker is registered and a topic
// replicated on all of them can be created. On failure it stops what it started.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	owned := false
	if opts.Dir == "" {
		dir, err := os.MkdirTemp("", "kbench-cluster-")
		if err != nil {
			return nil, fmt.Errorf("create cluster directory: %w", err)
		}
		opts.Dir, owned = dir, true
	} else if err := prepareDir(opts.Dir); err != nil {
		return nil, err
	}
	kafka, err := Install(ctx, opts.KafkaVersion, log)
	if err != nil {
		if owned {
			os.RemoveAll(opts.Dir)
		}
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		c := &Cluster{keep: opts.Keep, owned: owned, detached: opts.Detach}
		err := c.launch(ctx, kafka, opts, log)
		if err == nil {
			return c, nil
		}
		// Stop what started but keep the directory: the error points at its logs, and the
		// next `cluster up` or `cluster down` clears it.
		c.keep = true
		_ = c.StopWithin(5 * time.Second)
		if !errors.Is(err, errPortTaken) || attempt == startAttempts {
			return nil, err
		}
		fmt.Fprintf(log, "another process took a port before its broker bound it; starting again on new ports\n")
		if err := prepareDir(opts.Dir); err != nil {
			return nil, err
		}
	}
}

// startAttempts bounds the starts Start makes when a chosen port is taken under it.
const startAttempts = 3

func (o *Options) validate() error {
	if o.Brokers == 0 {
		o.Brokers = 3
	}
	if o.Brokers < 1 || o.Brokers > 32 {
		return fmt.Errorf("brokers %d: want 1 to 32", o.Brokers)
	}
	if o.Heap == "" {
		o.Heap = DefaultHeap
	}
	if !heapPattern.MatchString(o.Heap) {
		return fmt.Errorf("heap %q: want a Java size such as 512m or 2g", o.Heap)
	}
	switch strings.ToLower(o.SASL) {
	case "", "plain", "scram-sha-256", "scram-sha-512":
	default:
		return fmt.Errorf("sasl %q: want one of scram-sha-512, scram-sha-256, plain", o.SASL)
	}
	if o.Client != nil {
		if err := o.Client.Validate(); err != nil {
			return fmt.Errorf("client link: %w", err)
		}
	}
	if o.Broker != nil {
		if err := o.Broker.Validate(); err != nil {
			return fmt.Errorf("broker link: %w", err)
		}
	}
	if err := checkHost(o.Host); err != nil {
		return err
	}
	if o.KafkaVersion == "" {
		o.KafkaVersion = DefaultKafkaVersion
	}
	if err := o.Limits.Validate("cluster"); err != nil {
		return err
	}
	return checkWriteThrottle(*o)
}

// prepareDir makes dir ready for a new cluster. It refuses a directory holding a running
// cluster (ErrRunning) or anything that is not a kbench cluster; the remains of a stopped
// kbench cluster are cleared.
func prepareDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("cluster directory %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	old, err := Open(dir)
	if err != nil {
		return fmt.Errorf("cluster directory %s holds other files (no %s): choose an empty or new --dir", dir, stateFile)
	}
	for id, alive := range old.Alive() {
		if alive {
			return fmt.Errorf("%w in %s (broker %d is up): use it, or run `kbench cluster down` first", ErrRunning, dir, id)
		}
	}
	if err := old.releaseFlavor(); err != nil {
		return fmt.Errorf("clear stopped cluster in %s: %w", dir, err)
	}
	// Proxies whose brokers are gone would keep their ports and outlive the directory.
	if pid := old.stopProxies(); pid != 0 {
		if err := stopProcesses([]int{pid}, 5*time.Second); err != nil {
			return err
		}
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clear stopped cluster in %s: %w", dir, err)
		}
	}
	return nil
}

// StopKeep stops the brokers and keeps the cluster directory.
func (c *Cluster) StopKeep() error {
	c.keep = true
	return c.Stop()
}
