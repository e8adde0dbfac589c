// Package agentlaunch writes what starts kbench agents on other hosts: a Kubernetes Indexed
// Job (one pod per agent, its name from the completion index) and a systemd template unit
// (one instance per agent name). Launchers only start processes: agents reach the brokers
// on their own and are coordinated through the cluster, so nothing here opens a port or
// restarts an agent (a restarted agent cannot rejoin a run in progress).
//
// The output is built from small structs of our own, not from the Kubernetes API types,
// which would pull dozens of modules into the binary; the tests decode it into those types.
package agentlaunch

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"net"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Format is an output format of Write.
type Format string

const (
	// Kubernetes is a batch/v1 Job with completionMode Indexed.
	Kubernetes Format = "kubernetes"
	// Systemd is the template unit kbench-agent@.service.
	Systemd Format = "systemd"
)

// Defaults of Options, each overridden by the field of the same name.
const (
	DefaultJobName = "kbench-agent"
	DefaultCPU     = "1"
	DefaultMemory  = "512Mi"
	DefaultBinary  = "/usr/local/bin/kbench"
	// NamePrefix starts every agent name the Job gives: agent-0, agent-1, ...
	NamePrefix = "agent-"
	// SecretKey is the key of the command-config Secret that holds the client properties:
	// kubectl create secret generic NAME --from-file=client.properties=FILE.
	SecretKey = "client.properties"
	// secretDir is where the Secret is mounted in the agent's container.
	secretDir = "/etc/kbench"
	// indexEnv holds the completion index in the container. It is declared from the pod's
	// annotation rather than relying on the JOB_COMPLETION_INDEX the Job controller adds,
	// because $(VAR) in a container's args expands only variables declared before it.
	indexEnv = "KBENCH_AGENT_INDEX"
	// indexAnnotation is where the Job controller writes each pod's completion index.
	indexAnnotation = "batch.kubernetes.io/job-completion-index"
)

// Options describe the agents to launch.
type Options struct {
	// Format is Kubernetes or Systemd.
	Format Format
	// Agents is the number of agents (Kubernetes: completions and parallelism; systemd: the
	// instance names suggested in the unit's header).
	Agents int
	// Bootstrap is the brokers' bootstrap servers as the agents reach them (host:port,...).
	Bootstrap string
	// Image is the container image holding kbench on its PATH (Kubernetes only).
	Image string
	// Namespace is the Job's namespace; empty leaves it to kubectl's context (Kubernetes only).
	Namespace string
	// Secret names the Secret holding the client properties under SecretKey (Kubernetes
	// only). Its value is never read: only its name is written.
	Secret string
	// CommandConfig is the client properties file on each agent host, handed to the agent as
	// a systemd credential so the service needs no access to the file itself (systemd only).
	CommandConfig string
	// JobName is the Job's name, overriding the default DefaultJobName.
	JobName string
	// CPU is each agent's CPU request, overriding the default DefaultCPU.
	CPU string
	// Memory is each agent's memory request (and limit), overriding the default DefaultMemory.
	Memory string
	// Binary is kbench's absolute path on the agent hosts, overriding the default
	// DefaultBinary (systemd only: the container runs kbench from its PATH).
	Binary string
}

// Write renders the launcher o describes to w.
func Write(w io.Writer, o Options) error {
	if err := o.validate(); err != nil {
		return err
	}
	if o.Format == Systemd {
		return writeSystemd(w, o)
	}
	return writeKubernetes(w, o)
}

var (
	// dnsSubdomain is Kubernetes' rule for Secret and Job names (RFC 1123 subdomain).
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	// dnsLabel is Kubernetes' rule for namespaces (RFC 1123 label).
	dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	// quantity is the subset of Kubernetes resource quantities a request needs.
	quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)
	// plainWord is what may go unquoted into a systemd command line: no space, quote,
	// backslash, % specifier or $ variable.
	plainWord = regexp.MustCompile(`^[A-Za-z0-9._:/,\[\]@+=-]+$`)
)

// validate rejects bad values and flags of the other format, naming the flag and what is
// valid, then fills the defaults.
func (o *Options) validate() error {
	if o.Format == "" {
		o.Format = Kubernetes
	}
	if err := checkBootstrap(o.Bootstrap); err != nil {
		return err
	}
	switch o.Format {
	case Kubernetes:
		if err := only(Kubernetes, map[string]string{"--command-config": o.CommandConfig, "--binary": o.Binary}); err != nil {
			return err
		}
		o.JobName = cmp.Or(o.JobName, DefaultJobName)
		o.CPU = cmp.Or(o.CPU, DefaultCPU)
		o.Memory = cmp.Or(o.Memory, DefaultMemory)
		return o.validateKubernetes()
	case Systemd:
		if err := only(Systemd, map[string]string{"--image": o.Image, "--namespace": o.Namespace,
			"--command-config-secret": o.Secret, "--job-name": o.JobName, "--cpu": o.CPU, "--memory": o.Memory}); err != nil {
			return err
		}
		o.Binary = cmp.Or(o.Binary, DefaultBinary)
		return o.validateSystemd()
	default:
		return fmt.Errorf("--format %q: want kubernetes or systemd", o.Format)
	}
}

// only refuses the flags among set that the format f does not use, rather than ignoring
// them: a Secret named for systemd would leave the agents without their credentials.
func only(f Format, set map[string]string) error {
	for _, flag := range slices.Sorted(maps.Keys(set)) {
		if set[flag] == "" {
			continue
		}
		if f == Kubernetes && flag == "--command-config" {
			return fmt.Errorf("--command-config applies to --format systemd; on Kubernetes put the file in a Secret and pass --command-config-secret")
		}
		if f == Systemd && flag == "--command-config-secret" {
			return fmt.Errorf("--command-config-secret applies to --format kubernetes; with systemd pass the file as --command-config")
		}
		other := Kubernetes
		if f == Kubernetes {
			other = Systemd
		}
		return fmt.Errorf("%s applies to --format %s only", flag, other)
	}
	return nil
}

func (o *Options) validateKubernetes() error {
	if o.Agents == 0 {
		return fmt.Errorf("--agents is required: the number of agent pods, 1 to 1000")
	}
	// 1000 pods is far beyond any benchmark and keeps a typo from flooding a cluster.
	if o.Agents < 1 || o.Agents > 1000 {
		return fmt.Errorf("--agents %d: want 1 to 1000", o.Agents)
	}
	if o.Image == "" || strings.ContainsAny(o.Image, " \t\n\"'") {
		return fmt.Errorf("--image %q: want a container image holding kbench, e.g. registry.example.com/kbench:1.0", o.Image)
	}
	// A Job's pods are named after it with a suffix, so its name stays within a DNS label.
	if len(o.JobName) > 52 || !dnsLabel.MatchString(o.JobName) {
		return fmt.Errorf("--job-name %q: want at most 52 lowercase letters, digits and '-'", o.JobName)
	}
	if o.Namespace != "" && (len(o.Namespace) > 63 || !dnsLabel.MatchString(o.Namespace)) {
		return fmt.Errorf("--namespace %q: want at most 63 lowercase letters, digits and '-'", o.Namespace)
	}
	if o.Secret != "" && (len(o.Secret) > 253 || !dnsSubdomain.MatchString(o.Secret)) {
		return fmt.Errorf("--command-config-secret %q: want a Secret name (lowercase letters, digits, '-' and '.')", o.Secret)
	}
	if !quantity.MatchString(o.CPU) {
		return fmt.Errorf("--cpu %q: want a Kubernetes quantity such as 1, 2 or 500m", o.CPU)
	}
	if !quantity.MatchString(o.Memory) {
		return fmt.Errorf("--memory %q: want a Kubernetes quantity such as 512Mi or 2Gi", o.Memory)
	}
	return nil
}

func (o *Options) validateSystemd() error {
	// --agents only sizes the unit's header here; 0 leaves the count out.
	if o.Agents < 0 || o.Agents > 1000 {
		return fmt.Errorf("--agents %d: want 1 to 1000", o.Agents)
	}
	if !path.IsAbs(o.Binary) || !plainWord.MatchString(o.Binary) {
		return fmt.Errorf("--binary %q: want an absolute path without spaces, quotes, %% or $", o.Binary)
	}
	if o.CommandConfig != "" && (!path.IsAbs(o.CommandConfig) || !plainWord.MatchString(o.CommandConfig)) {
		return fmt.Errorf("--command-config %q: want an absolute path without spaces, quotes, %% or $", o.CommandConfig)
	}
	return nil
}

// checkBootstrap accepts host:port[,host:port...]: the agents' only way to the cluster.
func checkBootstrap(s string) error {
	if s == "" {
		return fmt.Errorf("--bootstrap-server is required: the brokers as the agents reach them, host:port[,host:port]")
	}
	if !plainWord.MatchString(s) {
		return fmt.Errorf("--bootstrap-server %q: want host:port[,host:port] without spaces or quotes", s)
	}
	for _, hp := range strings.Split(s, ",") {
		if _, port, err := net.SplitHostPort(hp); err != nil || port == "" {
			return fmt.Errorf("--bootstrap-server %q: %q is not host:port", s, hp)
		}
	}
	return nil
}
