package cli

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/load"
)

// TestConsumeShareGroup runs kbench consume --share-group on a fake cluster: 6 share
// consumers on a 3-partition topic read all 5,000 records, and the text lines agree with
// the JSON result and with each other.
func TestConsumeShareGroup(t *testing.T) {
	boot := fakeBootstrap(t, "share-cli")
	if _, e, code := runKbench("produce", "--bootstrap-server", boot, "--topic", "share-cli", "--num-records", "5000",
		"--record-size", "50", "--throughput", "-1"); code != 0 {
		t.Fatalf("produce: %s", e)
	}
	args := []string{"consume", "--bootstrap-server", boot, "--topic", "share-cli", "--messages", "5000",
		"--share-group", "sg-cli", "--consumers", "6", "--release-share", "0.02", "--broker-metrics=false"}
	out, e, code := runKbench(args...)
	if code != 0 {
		t.Fatalf("consume --share-group: exit %d: %s", code, e)
	}
	deliveries := regexp.MustCompile(`(?m)^(\d+) deliveries of (\d+) distinct records in [0-9.]+ s: [0-9.]+ records/s, [0-9.]+ MB/s\.$`).FindStringSubmatch(out)
	redelivered := regexp.MustCompile(`(?m)^Redelivered (\d+) \(([0-9.]+)% of deliveries; (\d+) of records no consumer released\), largest delivery count \d+; accepted (\d+), released (\d+), rejected 0\.$`).FindStringSubmatch(out)
	if deliveries == nil || redelivered == nil || !strings.Contains(out, "Share group sg-cli (created by kbench and deleted after): 6 consumers, explicit acknowledgement.") {
		t.Fatalf("lines do not match:\n%s", out)
	}
	// ShareConsumerPerformance's lines (Kafka 4.4 printed "2026-11-25 10:16:57:900, ..., 9.5367,
	// 1.3016, 13648.1507, 100000, 7327"): its records are the deliveries.
	total := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(shareHeader) + `\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, [0-9.]+, [0-9.]+, [0-9.]+, (\d+), \d+$`).FindStringSubmatch(out)
	if total == nil || total[1] != deliveries[1] {
		t.Errorf("no ShareConsumerPerformance lines, or their records are not the deliveries %s:\n%s", deliveries[1], out)
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	delivered, distinct, redel, accepted, released := n(deliveries[1]), n(deliveries[2]), n(redelivered[1]), n(redelivered[4]), n(redelivered[5])
	if distinct != 5000 || accepted+released != delivered || redel != released {
		t.Errorf("delivered %d distinct %d redelivered %d accepted %d released %d", delivered, distinct, redel, accepted, released)
	}
	if pct, _ := strconv.ParseFloat(redelivered[2], 64); pct < 100*float64(redel)/float64(delivered)-0.01 || pct > 100*float64(redel)/float64(delivered)+0.01 {
		t.Errorf("redelivered %s%%, want %d of %d", redelivered[2], redel, delivered)
	}

	jsonOut, e, code := runKbench(append(args, "--json", "--share-group", "sg-json")...)
	if code != 0 {
		t.Fatalf("--json: %s", e)
	}
	var res load.ShareResult
	if err := json.Unmarshal([]byte(jsonOut), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, jsonOut)
	}
	if res.Distinct != 5000 || res.Settings["share.acknowledgement.mode"] != "explicit" || res.Settings["auto.offset.reset"] != "" {
		t.Errorf("json: distinct %d, settings %v", res.Distinct, res.Settings)
	}
}

func TestConsumeShareFlagsRefused(t *testing.T) {
	boot := fakeBootstrap(t, "share-bad")
	base := []string{"consume", "--bootstrap-server", boot, "--topic", "share-bad", "--messages", "10"}
	for _, tt := range []struct {
		extra []string
		says  string
	}{
		{[]string{"--release-share", "0.1"}, "--release-share needs --share-group"},
		{[]string{"--share-group", "g", "--group", "h"}, "--group and --share-group"},
		{[]string{"--share-group", "g", "--share-acknowledgement", "implicit", "--reject-share", "0.1"}, "needs explicit acknowledgement"},
		{[]string{"--share-group", "g", "--share-acknowledgement", "later"}, `acknowledgement "later" is not valid (valid: implicit, explicit)`},
		{[]string{"--share-group", "g", "--command-property", "auto.offset.reset=earliest"}, "auto.offset.reset does not apply to a share consumer"},
	} {
		_, e, code := runKbench(append(base, tt.extra...)...)
		if code == 0 || !strings.Contains(e, tt.says) || strings.Count(strings.TrimRight(e, "\n"), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", tt.extra, code, e, tt.says)
		}
	}
}
