package runner

import (
	"bytes"
	"context"
	"runtime/pprof"

	"github.com/kbench/kbench/internal/metrics"
)

// roleLabel is the goroutine label (runtime/pprof) that marks each client role's goroutines,
// which the clients' own goroutines inherit.
const roleLabel = "kbench_role"

// The role label's values.
const (
	roleProducer = "producer"
	roleConsumer = "consumer"
)

// withRole runs fn with the goroutine label of role, so CPU profile samples of fn and of
// the goroutines it starts are attributed to the role.
func withRole(ctx context.Context, role string, fn func(context.Context)) {
	pprof.Do(ctx, pprof.Labels(roleLabel, role), fn)
}

// roleProfile splits the client process's CPU between producers and consumers running in
// it at once: the process's CPU time cannot tell them apart, a CPU profile of the labelled
// goroutines can.
type roleProfile struct {
	buf     bytes.Buffer
	running bool
}

// startRoleProfile starts the CPU profiler; when it is busy (another profile is running),
// the split is not measured.
func startRoleProfile() *roleProfile {
	p := &roleProfile{}
	p.running = pprof.StartCPUProfile(&p.buf) == nil
	return p
}

// stop ends the profile and returns the producers' share of the CPU attributed to either
// role (0..1); ok is false when nothing was measured. CPU outside both roles (garbage
// collection, the sampler) is shared in the same proportion.
func (p *roleProfile) stop() (producerShare float64, ok bool) {
	if p == nil || !p.running {
		return 0, false
	}
	pprof.StopCPUProfile()
	p.running = false
	ns, err := metrics.ProfileCPUByLabel(p.buf.Bytes(), roleLabel)
	if err != nil {
		return 0, false
	}
	prod, cons := ns[roleProducer], ns[roleConsumer]
	if prod+cons == 0 {
		return 0, false
	}
	return float64(prod) / float64(prod+cons), true
}
