package agentlaunch

import (
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// The structs below mirror the few fields of batch/v1 Job that the manifest sets, with the
// API's JSON names; kubernetes_test.go decodes the output strictly into the real types.

type job struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       jobSpec    `yaml:"spec"`
}

type objectMeta struct {
	Name      string            `yaml:"name,omitempty"`
	Namespace string            `yaml:"namespace,omitempty"`
	Labels    map[string]string `yaml:"labels,omitempty"`
}

type jobSpec struct {
	CompletionMode string          `yaml:"completionMode"`
	Completions    int             `yaml:"completions"`
	Parallelism    int             `yaml:"parallelism"`
	BackoffLimit   int             `yaml:"backoffLimit"`
	Template       podTemplateSpec `yaml:"template"`
}

type podTemplateSpec struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     podSpec    `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy             string                     `yaml:"restartPolicy"`
	SecurityContext           podSecurityContext         `yaml:"securityContext"`
	TopologySpreadConstraints []topologySpreadConstraint `yaml:"topologySpreadConstraints"`
	Containers                []container                `yaml:"containers"`
	Volumes                   []volume                   `yaml:"volumes,omitempty"`
}

type podSecurityContext struct {
	RunAsNonRoot bool `yaml:"runAsNonRoot"`
	RunAsUser    int  `yaml:"runAsUser"`
	RunAsGroup   int  `yaml:"runAsGroup"`
	FSGroup      int  `yaml:"fsGroup"`
}

type securityContext struct {
	AllowPrivilegeEscalation bool `yaml:"allowPrivilegeEscalation"`
	Capabilities             struct {
		Drop []string `yaml:"drop"`
	} `yaml:"capabilities"`
}

type topologySpreadConstraint struct {
	MaxSkew           int           `yaml:"maxSkew"`
	TopologyKey       string        `yaml:"topologyKey"`
	WhenUnsatisfiable string        `yaml:"whenUnsatisfiable"`
	LabelSelector     labelSelector `yaml:"labelSelector"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type container struct {
	Name            string          `yaml:"name"`
	Image           string          `yaml:"image"`
	Command         []string        `yaml:"command"`
	Env             []envVar        `yaml:"env"`
	Resources       resources       `yaml:"resources"`
	SecurityContext securityContext `yaml:"securityContext"`
	VolumeMounts    []volumeMount   `yaml:"volumeMounts,omitempty"`
}

type envVar struct {
	Name      string       `yaml:"name"`
	ValueFrom envVarSource `yaml:"valueFrom"`
}

type envVarSource struct {
	FieldRef struct {
		FieldPath string `yaml:"fieldPath"`
	} `yaml:"fieldRef"`
}

type resources struct {
	Requests map[string]string `yaml:"requests"`
	Limits   map[string]string `yaml:"limits"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly"`
}

type volume struct {
	Name   string `yaml:"name"`
	Secret struct {
		SecretName  string `yaml:"secretName"`
		DefaultMode int    `yaml:"defaultMode"`
	} `yaml:"secret"`
}

// agentUser is the user and group the agent's container runs as.
const agentUser = 65532

// agentCommand is the container's command line: the agent named from its completion index.
func agentCommand(o Options) []string {
	cmd := []string{"kbench", "agent", "--bootstrap-server", o.Bootstrap,
		"--name", NamePrefix + "$(" + indexEnv + ")"}
	if o.Secret != "" {
		cmd = append(cmd, "--command-config", secretDir+"/"+SecretKey)
	}
	return cmd
}

func kubernetesJob(o Options) job {
	labels := map[string]string{
		"app.kubernetes.io/name":      "kbench",
		"app.kubernetes.io/component": "agent",
		"app.kubernetes.io/instance":  o.JobName,
	}
	c := container{
		Name:    "agent",
		Image:   o.Image,
		Command: agentCommand(o),
		Env:     []envVar{{Name: indexEnv}},
		// No CPU limit: a CFS quota stalls the process for the rest of each period once it
		// is spent, which shows up as latency the brokers did not cause. Memory is limited
		// at its request so an agent is never the pod a node evicts first.
		Resources: resources{
			Requests: map[string]string{"cpu": o.CPU, "memory": o.Memory},
			Limits:   map[string]string{"memory": o.Memory},
		},
	}
	// The agent needs no privilege: no escalation, no capabilities.
	c.SecurityContext.Capabilities.Drop = []string{"ALL"}
	c.Env[0].ValueFrom.FieldRef.FieldPath = fmt.Sprintf("metadata.annotations['%s']", indexAnnotation)
	spec := podSpec{
		// A restarted agent cannot rejoin a run in progress: a failed agent stays failed
		// and the coordinator reports it by name.
		RestartPolicy: "Never",
		// Any image's user is replaced by an unprivileged one (65532, "nonroot" in
		// distroless images); the Secret's files belong to its group (fsGroup), which is
		// how a user other than root reads them.
		SecurityContext: podSecurityContext{RunAsNonRoot: true, RunAsUser: agentUser, RunAsGroup: agentUser, FSGroup: agentUser},
		// Agents on separate nodes are separate client hosts, which is why there are agents;
		// ScheduleAnyway still runs them all when there are fewer nodes than agents.
		TopologySpreadConstraints: []topologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: "ScheduleAnyway",
			LabelSelector: labelSelector{MatchLabels: map[string]string{"app.kubernetes.io/instance": o.JobName}},
		}},
	}
	if o.Secret != "" {
		c.VolumeMounts = []volumeMount{{Name: "command-config", MountPath: secretDir, ReadOnly: true}}
		v := volume{Name: "command-config"}
		v.Secret.SecretName = o.Secret
		// Readable by the owner and the agent's group (fsGroup), nobody else: it holds passwords.
		v.Secret.DefaultMode = 0o440
		spec.Volumes = []volume{v}
	}
	spec.Containers = []container{c}
	return job{
		APIVersion: "batch/v1",
		Kind:       "Job",
		Metadata:   objectMeta{Name: o.JobName, Namespace: o.Namespace, Labels: labels},
		Spec: jobSpec{
			CompletionMode: "Indexed",
			Completions:    o.Agents,
			Parallelism:    o.Agents,
			// No retries for the same reason as restartPolicy Never.
			BackoffLimit: 0,
			Template:     podTemplateSpec{Metadata: objectMeta{Labels: labels}, Spec: spec},
		},
	}
}

func writeKubernetes(w io.Writer, o Options) error {
	ns := ""
	if o.Namespace != "" {
		ns = " -n " + o.Namespace
	}
	fmt.Fprintf(w, "# %d kbench agents, one pod each, named %s0 to %s%d from the completion index.\n",
		o.Agents, NamePrefix, NamePrefix, o.Agents-1)
	fmt.Fprintf(w, "# Apply with: kubectl apply -f FILE; remove with: kubectl delete job%s %s\n", ns, o.JobName)
	if o.Secret != "" {
		fmt.Fprintf(w, "# The client properties come from Secret %s, key %s:\n", o.Secret, SecretKey)
		fmt.Fprintf(w, "#   kubectl create secret generic%s %s --from-file=%s=client.properties\n", ns, o.Secret, SecretKey)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(kubernetesJob(o)); err != nil {
		return fmt.Errorf("write kubernetes job: %w", err)
	}
	return enc.Close()
}
