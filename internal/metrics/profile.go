// Reading the CPU time per goroutine label from a Go CPU profile (runtime/pprof's gzipped
// profile.proto), with github.com/google/pprof's own profile reader.

package metrics

import (
	"bytes"
	"fmt"

	"github.com/google/pprof/profile"
)

// ProfileCPUByLabel sums a CPU profile's CPU time (nanoseconds, each sample's last value)
// by the value of the goroutine label key; samples without the label count under "".
// Goroutines inherit their creator's labels (runtime/pprof.Do), so the client goroutines a
// labelled goroutine starts count under its label too.
func ProfileCPUByLabel(data []byte, key string) (map[string]int64, error) {
	p, err := profile.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	out := map[string]int64{}
	for _, s := range p.Sample {
		if len(s.Value) == 0 {
			continue
		}
		value := ""
		if v := s.Label[key]; len(v) > 0 {
			value = v[0]
		}
		out[value] += s.Value[len(s.Value)-1]
	}
	return out, nil
}
