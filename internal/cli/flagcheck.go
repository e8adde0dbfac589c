// Flag checks of produce, consume and run: each bad value gets one line naming the flag,
// the value and the valid range, before anything connects or allocates.

package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/load"
)

// flagChecks reads flag values by name, so a verb's check is one call whatever its local
// variables are. The first failed check wins: one line for the user.
type flagChecks struct {
	fs  *pflag.FlagSet
	err error
}

func (c *flagChecks) failf(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

func (c *flagChecks) changed(name string) bool { return c.fs.Changed(name) }

func (c *flagChecks) int64(name string) int64 {
	if f := c.fs.Lookup(name); f != nil {
		v, _ := strconv.ParseInt(f.Value.String(), 10, 64)
		return v
	}
	return 0
}

func (c *flagChecks) float(name string) float64 {
	if f := c.fs.Lookup(name); f != nil {
		v, _ := strconv.ParseFloat(f.Value.String(), 64)
		return v
	}
	return 0
}

func (c *flagChecks) duration(name string) time.Duration {
	if f := c.fs.Lookup(name); f != nil {
		v, _ := time.ParseDuration(f.Value.String())
		return v
	}
	return 0
}

// atLeast refuses a value of name below lowest; what says what the flag counts.
func (c *flagChecks) atLeast(name string, lowest int64, what string) {
	if v := c.int64(name); v < lowest {
		c.failf("--%s %d: must be at least %d %s", name, v, lowest, what)
	}
}

// positiveDuration refuses a negative duration, and zero when the user typed it.
func (c *flagChecks) positiveDuration(name string) {
	if d := c.duration(name); d < 0 || (d == 0 && c.changed(name)) {
		c.failf("--%s %v: must be a positive duration, such as 30s or 5m", name, d)
	}
}

// needs refuses flag when it is given without any of others: it would do nothing.
func (c *flagChecks) needs(flag string, why string, others ...string) {
	if !c.changed(flag) {
		return
	}
	for _, o := range others {
		if c.changed(o) {
			return
		}
	}
	c.failf("--%s %s", flag, why)
}

// checkProduceFlags checks kbench produce's flags on their own (before the properties are
// read).
func checkProduceFlags(fs *pflag.FlagSet) error {
	c := &flagChecks{fs: fs}
	if fs.Lookup("topic").Value.String() == "" {
		c.failf("--topic is required")
	}
	sources := 0
	for _, f := range []string{"record-size", "payload-file", "payload-monotonic"} {
		if c.changed(f) {
			sources++
		}
	}
	if sources != 1 {
		c.failf("give one of --record-size, --payload-file or --payload-monotonic")
	}
	c.atLeast("num-records", 0, "records (0 with --duration: until it ends)")
	if c.changed("record-size") {
		c.atLeast("record-size", 1, "byte")
	}
	if t := c.float("throughput"); math.IsNaN(t) || math.IsInf(t, 0) || (t <= 0 && t != -1) {
		c.failf("--throughput %v: must be -1 (no limit) or a rate above 0 records/s (0 would send nothing, for ever)", t)
	}
	c.atLeast("producers", 1, "producer")
	c.positiveDuration("duration")
	c.positiveDuration("warmup")
	c.atLeast("warmup-records", 0, "records")
	if n, w := c.int64("num-records"), c.int64("warmup-records"); n > 0 && w >= n {
		c.failf("--warmup-records %d: must be fewer than --num-records %d", w, n)
	}
	if d, w := c.duration("duration"), c.duration("warmup"); d > 0 && w >= d {
		c.failf("--warmup %v: must be shorter than --duration %v", w, d)
	}
	if c.changed("warmup") && c.changed("warmup-records") {
		c.failf("--warmup and --warmup-records: give one warm-up, as a duration or as a number of records")
	}
	c.atLeast("reporting-interval", 1, "ms")
	c.atLeast("transaction-duration-ms", 0, "ms (0: 3000 ms when --transactional-id is given)")
	c.atLeast("key-space", 1, "key")
	c.atLeast("record-key-range", 1, "key")
	c.needs("payload-delimiter", "does nothing without --payload-file", "payload-file")
	for _, name := range []string{"key-space", "record-key-range"} {
		if c.changed(name) && fs.Lookup("key-distribution").Value.String() == "none" {
			c.failf("--%s does nothing without --key-distribution random or round-robin (range)", name)
		}
	}
	if c.changed("key-space") && c.changed("record-key-range") {
		c.failf("--key-space and --record-key-range: give the key count once")
	}
	return c.err
}

// checkRecordSize refuses what the producer would reject whole, before any buffer of that
// size is allocated or a cluster contacted: invalid properties, and a record larger than
// max.request.size or buffer.memory (the Java producer's RecordTooLargeException). The rule
// is the load engine's own.
func checkRecordSize(size int, props map[string]string) error {
	return load.CheckProducerProperties(props, size, size)
}

// checkSecurityTarget refuses security settings with no bootstrap server to apply them to:
// kbench would fall back to the embedded cluster's plaintext listener and fail there.
func checkSecurityTarget(bootstrap string, props map[string]string, fileFlag string) error {
	proto := props["security.protocol"]
	if bootstrap != "" || props["bootstrap.servers"] != "" || proto == "" || strings.EqualFold(proto, "PLAINTEXT") {
		return nil
	}
	return fmt.Errorf("--%s or a property sets security.protocol=%s but no --bootstrap-server is given: the settings would reach the embedded cluster's plaintext listener; give --bootstrap-server", fileFlag, proto)
}

// checkConsumeFlags checks kbench consume's flags on their own.
func checkConsumeFlags(fs *pflag.FlagSet) error {
	c := &flagChecks{fs: fs}
	c.atLeast("messages", 0, "records")
	c.atLeast("num-records", 0, "records")
	c.atLeast("fetch-size", 1, "byte")
	if c.changed("socket-buffer-size") {
		c.atLeast("socket-buffer-size", 1, "byte")
	}
	c.atLeast("timeout", 1, "ms")
	c.atLeast("reporting-interval", 1, "ms")
	c.atLeast("consumers", 1, "consumer")
	c.atLeast("threads", 0, "consumers")
	c.positiveDuration("duration")
	topic, include := fs.Lookup("topic").Value.String(), fs.Lookup("include").Value.String()
	switch {
	case topic != "" && include != "":
		c.failf("--topic and --include: give one (a topic, or a regular expression of topics)")
	case topic == "" && include == "":
		c.failf("--topic or --include is required")
	}
	return c.err
}

// checkRunFlags checks kbench run's flags on their own.
func checkRunFlags(fs *pflag.FlagSet) error {
	c := &flagChecks{fs: fs}
	if r := c.float("max-rate"); math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		c.failf("--max-rate %v: must be 0 (no cap) or a rate above 0 records/s", r)
	}
	c.needs("command-config", "does nothing without --bootstrap-server: the embedded cluster's clients need no settings", "bootstrap-server")
	c.needs("metrics-url", "does nothing without --bootstrap-server: an embedded cluster's brokers are sampled directly", "bootstrap-server")
	return c.err
}
