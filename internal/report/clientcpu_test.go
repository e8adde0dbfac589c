package report

import "testing"

func TestClientCPUText(t *testing.T) {
	one := func(v float64) *Stat { return &Stat{N: 1, Median: v, Min: v, Max: v} }
	r := Row{ClientCPUPerM: *one(3)}
	if got, want := clientCPUText(r), medianText(*one(3)); got != want {
		t.Errorf("unsplit: %q, want %q", got, want)
	}
	r.ProducerCPUPerM, r.ConsumerCPUPerM = one(2.25), one(1)
	if got, want := clientCPUText(r), medianText(*one(2.25))+" / "+medianText(*one(1)); got != want {
		t.Errorf("split: %q, want %q", got, want)
	}
}
