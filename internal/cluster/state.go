package cluster

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/atomicfile"
	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/redact"
)

// stateFile in the cluster directory describes a cluster so that later commands (status,
// down, produce) can find it. It holds no passwords: those stay in the 0600 client
// properties and server.properties files, and secret broker configs are redacted.
const stateFile = "cluster.json"

var heapPattern = regexp.MustCompile(`^[0-9]+[kKmMgG]$`)

type state struct {
	Format       int           `json:"format"`
	Dir          string        `json:"dir"`
	KafkaVersion string        `json:"kafka_version"`
	Started      time.Time     `json:"started"`
	SASL         string        `json:"sasl,omitempty"`
	TLS          bool          `json:"tls,omitempty"`
	Heap         string        `json:"heap"`
	ClusterID    string        `json:"cluster_id,omitempty"`
	Limits       flavor.Limits `json:"limits,omitzero"`
	// Cgroups are the brokers' cgroup directories, TmpfsDir the memory-backed log dirs'
	// parent: removed when the cluster stops.
	Cgroups      []string          `json:"cgroups,omitempty"`
	TmpfsDir     string            `json:"tmpfs_dir,omitempty"`
	BrokerConfig map[string]string `json:"broker_config,omitempty"`
	Endpoints    []Endpoint        `json:"endpoints"`
	Brokers      []Broker          `json:"brokers"`
	Network      *network          `json:"network,omitempty"`
	// Host is Options.Host: where the client listeners are, "" for 127.0.0.1.
	Host string `json:"host,omitempty"`
}

// DefaultDir is the directory `kbench cluster up` uses without --dir:
// <cache>/cluster.
func DefaultDir() (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "cluster"), nil
}

// Open describes the cluster recorded in dir, running or not. The endpoints' Properties are
// read back from their properties files.
func Open(dir string) (*Cluster, error) {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("no kbench cluster in %s (start one with `kbench cluster up`)", dir)
		}
		return nil, fmt.Errorf("read cluster state: %w", err)
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, stateFile), err)
	}
	firstDir, err := relocate(&s, dir)
	if err != nil {
		return nil, err
	}
	for i, e := range s.Endpoints {
		if e.PropertiesFile == "" {
			continue
		}
		props, err := ReadProperties(e.PropertiesFile)
		if err != nil {
			return nil, err
		}
		s.Endpoints[i].Properties = props
	}
	return &Cluster{state: s, keep: false, firstDir: firstDir}, nil
}

// relocate points s at dir, where its cluster.json was found, when the cluster was started
// elsewhere: a copied or moved cluster directory keeps the first directory's paths and
// PIDs, and acting on those would stop, or delete, another cluster. It returns the first
// directory then, "" when dir is that directory (perhaps through a symbolic link).
func relocate(s *state, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if abs == s.Dir {
		return "", nil
	}
	here, err1 := filepath.EvalSymlinks(abs)
	there, err2 := filepath.EvalSymlinks(s.Dir)
	if err1 == nil && err2 == nil && here == there {
		return "", nil
	}
	first := s.Dir
	move := func(p string) string {
		if rest, ok := strings.CutPrefix(p, first+string(filepath.Separator)); ok {
			return filepath.Join(abs, rest)
		}
		return p
	}
	for i := range s.Endpoints {
		s.Endpoints[i].PropertiesFile = move(s.Endpoints[i].PropertiesFile)
	}
	for i := range s.Brokers {
		s.Brokers[i].LogFile = move(s.Brokers[i].LogFile)
	}
	s.Dir = abs
	return first, nil
}

func (c *Cluster) save() error {
	s := c.state
	// The user's broker configs may hold passwords (ssl.keystore.password, a listener's
	// JAAS config): they are in the 0600 server.properties files, not in this 0644 file.
	s.BrokerConfig = redact.Map(s.BrokerConfig)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(c.state.Dir, stateFile)
	if err := atomicfile.Write(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write cluster state: %w", err)
	}
	return nil
}
