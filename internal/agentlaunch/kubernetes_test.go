package agentlaunch

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeJob renders o and decodes it strictly (an unknown or misspelt field fails) into the
// Kubernetes API's own Job type, the way the API server reads it.
func decodeJob(t *testing.T, o Options) (batchv1.Job, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(buf.Bytes(), &j); err != nil {
		t.Fatalf("decode into batch/v1 Job: %v\n%s", err, buf.String())
	}
	return j, buf.String()
}

func TestKubernetesIndexedJob(t *testing.T) {
	j, _ := decodeJob(t, Options{Agents: 3, Image: "registry.example.com/kbench:1.0",
		Bootstrap: "kafka-0.kafka:9092,kafka-1.kafka:9092", Namespace: "bench"})

	if j.APIVersion != "batch/v1" || j.Kind != "Job" {
		t.Errorf("apiVersion/kind = %s/%s, want batch/v1 Job", j.APIVersion, j.Kind)
	}
	if j.Name != "kbench-agent" || j.Namespace != "bench" {
		t.Errorf("name/namespace = %s/%s, want kbench-agent/bench", j.Name, j.Namespace)
	}
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode = %v, want Indexed", s.CompletionMode)
	}
	// One pod per agent, all at once: completions = parallelism = --agents.
	if s.Completions == nil || *s.Completions != 3 || s.Parallelism == nil || *s.Parallelism != 3 {
		t.Errorf("completions/parallelism = %v/%v, want 3/3", s.Completions, s.Parallelism)
	}
	// backoffLimit must be written as 0: left out, Kubernetes defaults it to 6 retries.
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 {
		t.Errorf("backoffLimit = %v, want 0", s.BackoffLimit)
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy = %q, want Never", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if c.Image != "registry.example.com/kbench:1.0" {
		t.Errorf("image = %q", c.Image)
	}
	want := []string{"kbench", "agent", "--bootstrap-server", "kafka-0.kafka:9092,kafka-1.kafka:9092",
		"--name", "agent-$(KBENCH_AGENT_INDEX)"}
	if !slices.Equal(c.Command, want) {
		t.Errorf("command = %q, want %q", c.Command, want)
	}
	// Without a Secret there is nothing to mount.
	if len(pod.Volumes) != 0 || len(c.VolumeMounts) != 0 {
		t.Errorf("volumes %v, mounts %v, want none", pod.Volumes, c.VolumeMounts)
	}
	if got := c.Resources.Requests.Cpu().String(); got != "1" {
		t.Errorf("cpu request = %s, want 1", got)
	}
	// 512Mi = 512 * 1024 * 1024 = 536870912 bytes, requested and limited alike.
	if got := c.Resources.Requests.Memory().Value(); got != 536870912 {
		t.Errorf("memory request = %d, want 536870912", got)
	}
	if got := c.Resources.Limits.Memory().Value(); got != 536870912 {
		t.Errorf("memory limit = %d, want 536870912", got)
	}
	if !c.Resources.Limits.Cpu().IsZero() {
		t.Errorf("cpu limit = %s, want none (a CFS quota adds stalls to the measured latency)", c.Resources.Limits.Cpu())
	}
	// The agent runs unprivileged: a non-root user, no escalation, no capabilities.
	psc, csc := pod.SecurityContext, c.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Errorf("pod securityContext = %+v, want a non-root user", psc)
	}
	if csc == nil || csc.AllowPrivilegeEscalation == nil || *csc.AllowPrivilegeEscalation ||
		csc.Capabilities == nil || !slices.Equal(csc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container securityContext = %+v, want no escalation and all capabilities dropped", csc)
	}
	if got := s.Template.Labels["app.kubernetes.io/instance"]; got != "kbench-agent" {
		t.Errorf("pod label app.kubernetes.io/instance = %q", got)
	}
}

// TestKubernetesNameFromIndex checks that every $(VAR) in the command is an env variable the
// container declares (Kubernetes expands only those), and that the one in --name comes from
// the pod's completion-index annotation.
func TestKubernetesNameFromIndex(t *testing.T) {
	j, _ := decodeJob(t, Options{Agents: 2, Image: "kbench:dev", Bootstrap: "10.0.0.1:9092"})
	c := j.Spec.Template.Spec.Containers[0]
	declared := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		declared[e.Name] = e
	}
	refs := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)
	var used []string
	for _, arg := range c.Command {
		for _, m := range refs.FindAllStringSubmatch(arg, -1) {
			used = append(used, m[1])
			if _, ok := declared[m[1]]; !ok {
				t.Errorf("command uses $(%s), which the container does not declare", m[1])
			}
		}
	}
	if !slices.Equal(used, []string{"KBENCH_AGENT_INDEX"}) {
		t.Fatalf("variables used = %v, want [KBENCH_AGENT_INDEX]", used)
	}
	e := declared["KBENCH_AGENT_INDEX"]
	if e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("KBENCH_AGENT_INDEX = %+v, want the job-completion-index annotation", e)
	}
	i := slices.Index(c.Command, "--name")
	if i < 0 || c.Command[i+1] != "agent-$(KBENCH_AGENT_INDEX)" {
		t.Errorf("--name argument missing or wrong in %q", c.Command)
	}
}

func TestKubernetesSecret(t *testing.T) {
	j, text := decodeJob(t, Options{Agents: 1, Image: "kbench:dev", Bootstrap: "b:9093",
		Secret: "kbench-client", CPU: "500m", Memory: "1Gi", JobName: "load-a"})
	pod := j.Spec.Template.Spec
	if len(pod.Volumes) != 1 || pod.Volumes[0].Secret == nil {
		t.Fatalf("volumes = %+v, want one Secret volume", pod.Volumes)
	}
	v := pod.Volumes[0]
	if v.Secret.SecretName != "kbench-client" {
		t.Errorf("secretName = %q", v.Secret.SecretName)
	}
	// 0440 octal = 4*64 + 4*8 = 288: the owner and the group read, nobody else.
	if v.Secret.DefaultMode == nil || *v.Secret.DefaultMode != 288 {
		t.Errorf("defaultMode = %v, want 288 (0440)", v.Secret.DefaultMode)
	}
	// The files' group is fsGroup: it must be the group the agent runs as, or a non-root
	// agent cannot read its own properties.
	sc := pod.SecurityContext
	if sc == nil || sc.FSGroup == nil || sc.RunAsGroup == nil || *sc.FSGroup != *sc.RunAsGroup {
		t.Errorf("pod securityContext %+v: fsGroup must equal runAsGroup", sc)
	}
	c := pod.Containers[0]
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != v.Name || !c.VolumeMounts[0].ReadOnly {
		t.Fatalf("mounts = %+v, want the Secret volume read-only", c.VolumeMounts)
	}
	// A Secret volume without items holds one file per key: mountPath/client.properties.
	wantPath := c.VolumeMounts[0].MountPath + "/client.properties"
	i := slices.Index(c.Command, "--command-config")
	if i < 0 || c.Command[i+1] != wantPath {
		t.Errorf("command = %q, want --command-config %s", c.Command, wantPath)
	}
	if j.Name != "load-a" || c.Resources.Requests.Cpu().MilliValue() != 500 {
		t.Errorf("name %q, cpu %s, want load-a and 500m", j.Name, c.Resources.Requests.Cpu())
	}
	// 1Gi = 1024^3 = 1073741824 bytes.
	if c.Resources.Requests.Memory().Value() != 1073741824 {
		t.Errorf("memory = %s, want 1Gi", c.Resources.Requests.Memory())
	}
	if !strings.Contains(text, "kubectl create secret generic kbench-client --from-file=client.properties=") {
		t.Errorf("header does not say how to create the Secret:\n%s", text)
	}
}
