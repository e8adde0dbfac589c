package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestConsumeFlagsConfig: Kafka's kafka-consumer-perf-test flags (4.1 to 4.4 spellings) and
// kbench's own, each turned into the consumer configuration by hand's reckoning.
func TestConsumeFlagsConfig(t *testing.T) {
	base := []string{"--bootstrap-server", "k:9092", "--topic", "t"}
	for _, tt := range []struct {
		name  string
		args  []string
		check func(t *testing.T, got consumeConfigView)
		err   string
	}{
		{"messages", []string{"--messages", "500"}, func(t *testing.T, g consumeConfigView) { want(t, g.records, int64(500)) }, ""},
		{"num-records (4.2+)", []string{"--num-records", "700"}, func(t *testing.T, g consumeConfigView) { want(t, g.records, int64(700)) }, ""},
		{"both agree", []string{"--messages", "7", "--num-records", "7"}, func(t *testing.T, g consumeConfigView) { want(t, g.records, int64(7)) }, ""},
		{"both disagree", []string{"--messages", "7", "--num-records", "8"}, nil, "--messages and --num-records disagree"},
		{"fetch-size is max.partition.fetch.bytes", []string{"--messages", "1", "--fetch-size", "65536"},
			func(t *testing.T, g consumeConfigView) { want(t, g.props["max.partition.fetch.bytes"], "65536") }, ""},
		{"fetch-size default 1 MiB", []string{"--messages", "1"},
			func(t *testing.T, g consumeConfigView) { want(t, g.props["max.partition.fetch.bytes"], "1048576") }, ""},
		{"threads is consumers", []string{"--messages", "1", "--threads", "4"}, func(t *testing.T, g consumeConfigView) { want(t, g.consumers, 4) }, ""},
		{"consumers wins over threads", []string{"--messages", "1", "--threads", "4", "--consumers", "2"},
			func(t *testing.T, g consumeConfigView) { want(t, g.consumers, 2) }, ""},
		{"timeout in ms", []string{"--messages", "1", "--timeout", "2500"}, func(t *testing.T, g consumeConfigView) { want(t, g.timeout, 2500*time.Millisecond) }, ""},
		{"reporting interval in ms", []string{"--messages", "1", "--reporting-interval", "1000"},
			func(t *testing.T, g consumeConfigView) { want(t, g.tick, time.Second) }, ""},
		{"group and from-latest", []string{"--messages", "1", "--group", "g1", "--from-latest"},
			func(t *testing.T, g consumeConfigView) { want(t, g.group+" "+boolText(g.fromLatest), "g1 true") }, ""},
		{"command-property", []string{"--messages", "1", "--command-property", "fetch.min.bytes=10"},
			func(t *testing.T, g consumeConfigView) { want(t, g.props["fetch.min.bytes"], "10") }, ""},
		{"duration alone", []string{"--duration", "5s"}, func(t *testing.T, g consumeConfigView) { want(t, g.records, int64(0)) }, ""},
		{"no count, no duration", nil, nil, "--messages (or --num-records) or --duration is required"},
		{"unknown property", []string{"--messages", "1", "--command-property", "fetch.min.byte=10"}, nil, "fetch.min.byte"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var c consumeFlags
			cmd := &cobra.Command{Use: "consume"}
			c.register(cmd.Flags())
			if err := cmd.ParseFlags(append(append([]string{}, base...), tt.args...)); err != nil {
				t.Fatal(err)
			}
			cfg, err := c.config(cmd, nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Bootstrap != "k:9092" || len(cfg.Topics) != 1 || cfg.Topics[0] != "t" {
				t.Errorf("bootstrap %q topics %q", cfg.Bootstrap, cfg.Topics)
			}
			tt.check(t, consumeConfigView{records: cfg.Records, props: cfg.Properties, consumers: cfg.Consumers,
				timeout: cfg.Timeout, tick: cfg.TickInterval, group: cfg.Group, fromLatest: cfg.FromLatest})
		})
	}
}

type consumeConfigView struct {
	records       int64
	props         map[string]string
	consumers     int
	timeout, tick time.Duration
	group         string
	fromLatest    bool
}

func want[T comparable](t *testing.T, got, w T) {
	t.Helper()
	if got != w {
		t.Errorf("got %v, want %v", got, w)
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
