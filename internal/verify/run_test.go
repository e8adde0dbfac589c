package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/results"
)

// fakeFaults reports one fault half a second in, healed at once.
type fakeFaults struct{ recovered bool }

func (f *fakeFaults) Run(ctx context.Context, on func(faults.Event)) ([]faults.Event, error) {
	select {
	case <-time.After(500 * time.Millisecond):
	case <-ctx.Done():
		return nil, nil
	}
	e := faults.Event{At: time.Now(), Applied: time.Now(), Kind: "leader-kill", Broker: 1, Partition: 0}
	on(e)
	e.HealAt, e.HealedAt = time.Now(), time.Now()
	on(e)
	return []faults.Event{e}, nil
}

func (f *fakeFaults) Recovered(context.Context) error { f.recovered = true; return nil }

func TestRunFake(t *testing.T) {
	_, boot := kfaketest.Start(t, kfake.NumBrokers(3))
	dir := t.TempDir()
	faults := &fakeFaults{}
	var lines []string
	res, err := Run(context.Background(), Config{Bootstrap: boot, Topic: "kbench-verify-fake",
		Partitions: 3, Replicas: 1, Producers: 2, Rate: 1000, Duration: 1500 * time.Millisecond,
		ProducerProps: map[string]string{"acks": "all"}, Faults: faults, Dir: dir,
		Progress: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatal(err)
	}
	// 1000/s for 1.5 s: at most 1500 records due (750 per producer; the last few may miss
	// the deadline on a busy machine); every one sent acknowledged, read back once, no
	// anomaly.
	if s := res.Totals.Sent; s < 1000 || s > 1500 || res.Totals.Acked != s || res.Read.Records != s {
		t.Errorf("sent %d acked %d read %d, want 1000 to 1500 each, all equal", s, res.Totals.Acked, res.Read.Records)
	}
	if !res.Clean() || res.Counts.UnacknowledgedPresent != 0 {
		t.Errorf("counts = %+v, want clean", res.Counts)
	}
	if !faults.recovered || len(res.Faults) != 1 || len(res.Recoveries) != 1 {
		t.Errorf("faults %+v recoveries %+v recovered %v: want one fault, waited for", res.Faults, res.Recoveries, faults.recovered)
	}
	if want := "lost 0, duplicated 0, reordered 0, inconsistent 0, unexpected 0 (of " + n(res.Totals.Acked) + " acknowledged)"; res.Verdict() != want {
		t.Errorf("verdict %q, want %q", res.Verdict(), want)
	}
	for _, f := range []string{results.AcksFile, results.ReadsFile, results.UnackedFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("history file %s: %v", f, err)
		}
	}
	// The topic was deleted: creating it again works.
	if _, err := Run(context.Background(), Config{Bootstrap: boot, Topic: "kbench-verify-fake",
		Partitions: 1, Replicas: 1, Producers: 1, Rate: 100, Duration: 200 * time.Millisecond}); err != nil {
		t.Errorf("second run on the same topic name: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Config{Bootstrap: "b:9092", Topic: "t", Partitions: 1, Replicas: 1, Producers: 1, Rate: 1, Duration: time.Second}
	tests := []struct {
		name string
		edit func(*Config)
		want string // "" valid
	}{
		{"valid", func(*Config) {}, ""},
		{"negative duration", func(c *Config) { c.Duration = -time.Second }, "--duration -1s"},
		{"acks=0", func(c *Config) { c.ProducerProps = map[string]string{"acks": "0"} }, "acks=0"},
		{"no rate", func(c *Config) { c.Rate = 0 }, "--throughput 0"},
		{"zero partitions", func(c *Config) { c.Partitions = 0 }, "--partitions 0"},
		{"unknown property", func(c *Config) { c.ProducerProps = map[string]string{"no.such": "1"} }, "no.such"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			err := c.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}
