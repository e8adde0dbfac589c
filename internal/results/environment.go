package results

// ClusterKind says whether kbench started the cluster or attached to one.
type ClusterKind string

// The kinds of cluster a run can target.
const (
	Embedded ClusterKind = "embedded"
	External ClusterKind = "external"
)

// Environment describes where a run happened: versions, the cluster, how clients were placed,
// and the host kbench ran on.
type Environment struct {
	KbenchVersion string      `json:"kbench_version"`
	KafkaVersion  string      `json:"kafka_version,omitempty"`
	GoVersion     string      `json:"go_version,omitempty"`
	Cluster       ClusterKind `json:"cluster"`
	Brokers       int         `json:"brokers"`
	// Bootstrap is the address the clients used (no credentials).
	Bootstrap string `json:"bootstrap,omitempty"`
	// Security is the client's security.protocol (PLAINTEXT, SASL_SSL, ...).
	Security string `json:"security,omitempty"`
	// BrokerConfig holds the server.properties entries kbench set (embedded) or read back.
	BrokerConfig map[string]string `json:"broker_config,omitempty"`
	// BrokerMetrics says which brokers had a metrics source; nil in runs recorded before it.
	BrokerMetrics *BrokerMetrics `json:"broker_metrics,omitempty"`
	// BrokerCPUs is the CPU allotment of each broker in cores, which a broker's cpu_pct is
	// relative to; 0 when unknown or when the brokers' allotments differ.
	BrokerCPUs float64 `json:"broker_cpus,omitempty"`
	// BrokerCPUBasis says how the allotment was found, in words: the broker's own cgroup
	// CPU quota, a quota or the host's cores shared by the brokers on this host, or
	// unknown (remote brokers seen through their metrics endpoints only).
	BrokerCPUBasis string `json:"broker_cpu_basis,omitempty"`
	// BrokerLimits are the embedded brokers' cgroup limits in words (CPU quota, pinning,
	// disk class), e.g. "0.5 cores (CFS quota), disk writes 50 MiB/s"; "" when unlimited.
	BrokerLimits string `json:"broker_limits,omitempty"`
	// ClientPlacement says where the clients ran relative to the brokers, for example
	// "same host as the brokers" or "same host, behind a 2 ms delay proxy (cross-AZ profile)".
	ClientPlacement string `json:"client_placement"`
	Host            Host   `json:"host"`
}

// Host describes the machine kbench ran on, collected by CollectHost.
type Host struct {
	Hostname    string `json:"hostname,omitempty"`
	OS          string `json:"os,omitempty"`
	Arch        string `json:"arch,omitempty"`
	Kernel      string `json:"kernel,omitempty"`
	CPUModel    string `json:"cpu_model,omitempty"`
	Cores       int    `json:"cores,omitempty"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
	// Disks lists the block devices, for example "nvme0n1 ssd 512 GiB".
	Disks []string `json:"disks,omitempty"`
	// PageReportingOrder is the order of the free blocks a virtual machine's balloon driver
	// gives back to its hypervisor (free page reporting; above MaxPageOrder: none); nil when
	// the kernel has no free page reporting.
	PageReportingOrder *int `json:"page_reporting_order,omitempty"`
}

// BrokerMetrics lists which brokers the run sampled: those with a metrics endpoint or a
// local process. A broker without either is measured from the clients only.
type BrokerMetrics struct {
	// Sampled are the node IDs of the brokers with a source, Missing those without one.
	Sampled []int `json:"sampled"`
	Missing []int `json:"missing,omitempty"`
}

// Absent reports whether no broker was sampled: the run has client-side figures only.
func (b *BrokerMetrics) Absent() bool { return b != nil && len(b.Sampled) == 0 }

// Partial reports whether some brokers were sampled and others not.
func (b *BrokerMetrics) Partial() bool { return b != nil && len(b.Sampled) > 0 && len(b.Missing) > 0 }
