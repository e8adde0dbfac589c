package load

import (
	"errors"
	"fmt"
	"time"
)

// ProducerConfig describes one produce run. The zero value of each optional field is its
// documented default; validate checks the fields together.
type ProducerConfig struct {
	// Bootstrap is the comma-separated broker list; it overrides bootstrap.servers in
	// Properties.
	Bootstrap string
	// Topic receives the records (auto-created by the broker if it allows, as the Java
	// producer requests).
	Topic string
	// Properties are Java client properties (see ParseProperties), overriding the Java
	// client's defaults.
	Properties map[string]string
	// Producers is the number of independent clients, overriding the default 1. Records and
	// Rate are split between them, as N copies of Kafka's tool would be given.
	Producers int
	// RecordSize is the value size in bytes of random A-Z payloads.
	RecordSize int
	// Payloads, when set, replaces random payloads: each record takes one at random
	// (--payload-file).
	Payloads [][]byte
	// PayloadMonotonic makes each value the record's sequence number in decimal.
	PayloadMonotonic bool
	// Source, when set, makes every record (key, value, headers, partition) and hears its
	// outcome, instead of the random or file payloads: the sequenced records of kbench
	// verify.
	Source RecordSource
	// Records is the total to send; 0 means until Duration ends.
	Records int64
	// Duration bounds the run; 0 means until Records are sent.
	Duration time.Duration
	// Rate is the total target in records/s; 0 or less means unlimited.
	Rate float64
	// WarmupRecords are the first records (split between producers) left out of the steady
	// statistics, as Kafka's --warmup-records.
	WarmupRecords int64
	// Warmup leaves out records due in this first stretch of the run instead.
	Warmup time.Duration
	// Keys chooses record keys, overriding the default KeysNone.
	Keys KeyDistribution
	// KeySpace is the number of distinct keys, overriding the default 1024.
	KeySpace int
	// TimestampHeader adds a "kbench-ts" header (8 bytes, big-endian Unix microseconds of
	// the send) so a consumer measures end-to-end latency to the microsecond.
	TimestampHeader bool
	// TransactionalID makes the producers transactional (suffixed "-i" with several);
	// TransactionDuration is the age at which a transaction is committed, overriding the
	// default 3 s of Kafka's tool, and TransactionRecords, when set, commits one after that
	// many records of its producer, whichever comes first (then TransactionDuration has no
	// default). A TransactionDuration or TransactionRecords alone enables transactions too.
	TransactionalID     string
	TransactionDuration time.Duration
	TransactionRecords  int64
	// AbortShare is the share of transactions aborted on purpose instead of committed, each
	// chosen at random (seeded by Seed), as a failing application's would be.
	AbortShare float64
	// TickInterval is the period of progress ticks, overriding the default 1 s.
	TickInterval time.Duration
	// DrainTimeout is how long, after a run bounded by Duration has ended, the wait for the
	// acknowledgements of the records already handed to the clients may go without one,
	// overriding the default DefaultDrainTimeout; the whole wait is at most six of them.
	// Records still unacknowledged then are aborted and counted as unsent.
	DrainTimeout time.Duration
	// Partitions, when set, restricts the producers to these partitions of Topic (an
	// agent's share: its own consumers then read exactly what it wrote). Within them records
	// are spread by kgo's sticky key partitioner, not Java's adaptive default.
	Partitions []int32 `json:",omitempty"`
	// Seed seeds the payload and key generators, overriding the default 0 (as Kafka's tool).
	Seed uint64
}

// Defaults of ProducerConfig.
const (
	DefaultKeySpace            = 1024
	DefaultTickInterval        = time.Second
	DefaultTransactionDuration = 3 * time.Second
	// DefaultDrainTimeout: a healthy cluster acknowledges something every few milliseconds,
	// so 10 s without an acknowledgement is a stall, which then shows as unsent records; a
	// full buffer.memory on a slow cluster (32 MiB at 1 MiB/s) still drains within the
	// 60 s cap.
	DefaultDrainTimeout = 10 * time.Second
	// TimestampHeaderKey names the header carrying the send time (see TimestampHeader).
	TimestampHeaderKey = "kbench-ts"
)

func (c *ProducerConfig) withDefaults() ProducerConfig {
	d := *c
	if d.Producers == 0 {
		d.Producers = 1
	}
	if d.Keys == "" {
		d.Keys = KeysNone
	}
	if d.KeySpace == 0 {
		d.KeySpace = DefaultKeySpace
	}
	if d.TickInterval == 0 {
		d.TickInterval = DefaultTickInterval
	}
	if d.DrainTimeout == 0 {
		d.DrainTimeout = DefaultDrainTimeout
	}
	if (d.TransactionDuration > 0 || d.TransactionRecords > 0) && d.TransactionalID == "" {
		d.TransactionalID = fmt.Sprintf("performance-producer-%d", time.Now().UnixNano())
	}
	if d.TransactionalID != "" && d.TransactionDuration == 0 && d.TransactionRecords == 0 {
		d.TransactionDuration = DefaultTransactionDuration
	}
	return d
}

// validate checks the fields together and names the offending value and its limit.
func (c *ProducerConfig) validate() error {
	return errors.Join(c.validateClients(), c.schedule().validate())
}

// validateClients checks what the clients and records need, whatever the schedule.
func (c *ProducerConfig) validateClients() error {
	var errs []error
	if c.Topic == "" {
		errs = append(errs, errors.New("topic is required"))
	}
	if c.Producers < 1 {
		errs = append(errs, fmt.Errorf("producers %d is less than 1", c.Producers))
	}
	sources := 0
	if c.RecordSize > 0 {
		sources++
	}
	if c.Payloads != nil {
		sources++
	}
	if c.PayloadMonotonic {
		sources++
	}
	if c.Source != nil {
		sources++
	}
	if sources != 1 {
		errs = append(errs, errors.New("exactly one of record size, payload file, monotonic payload or record source is required"))
	}
	if c.RecordSize < 0 {
		errs = append(errs, fmt.Errorf("record size %d is negative", c.RecordSize))
	}
	if c.KeySpace < 1 {
		errs = append(errs, fmt.Errorf("key space %d is less than 1", c.KeySpace))
	}
	if _, err := ParseKeyDistribution(string(c.Keys)); err != nil {
		errs = append(errs, err)
	}
	if c.DrainTimeout < 0 {
		errs = append(errs, fmt.Errorf("drain timeout %v is negative", c.DrainTimeout))
	}
	if c.TransactionDuration < 0 {
		errs = append(errs, fmt.Errorf("transaction duration %v is negative", c.TransactionDuration))
	}
	if c.TransactionRecords < 0 {
		errs = append(errs, fmt.Errorf("records per transaction %d is negative", c.TransactionRecords))
	}
	if !(c.AbortShare >= 0 && c.AbortShare < 1) {
		errs = append(errs, fmt.Errorf("abort share %v is not from 0 to below 1", c.AbortShare))
	}
	if c.AbortShare > 0 && c.TransactionalID == "" {
		errs = append(errs, errors.New("an abort share needs transactions"))
	}
	return errors.Join(errs...)
}

// Schedule is what one trial sends: its offered rate, its length and its warm-up. It is the
// part of a ProducerConfig that may change between the trials of one set of clients.
type Schedule struct {
	// Rate is the total offered rate in records/s; 0 or less means unlimited.
	Rate float64 `json:"rate,omitempty"`
	// Records is the total to send; 0 means until Duration ends.
	Records int64 `json:"records,omitempty"`
	// Duration bounds the trial; 0 means until Records are sent.
	Duration time.Duration `json:"duration,omitempty"`
	// WarmupRecords or Warmup is left out of the steady statistics (see ProducerConfig).
	WarmupRecords int64         `json:"warmup_records,omitempty"`
	Warmup        time.Duration `json:"warmup,omitempty"`
}

// schedule is the schedule c describes.
func (c *ProducerConfig) schedule() Schedule {
	return Schedule{Rate: c.Rate, Records: c.Records, Duration: c.Duration,
		WarmupRecords: c.WarmupRecords, Warmup: c.Warmup}
}

// apply sets c's schedule to s.
func (s Schedule) apply(c *ProducerConfig) {
	c.Rate, c.Records, c.Duration = s.Rate, s.Records, s.Duration
	c.WarmupRecords, c.Warmup = s.WarmupRecords, s.Warmup
}

// validate checks the schedule's fields together.
func (s Schedule) validate() error {
	var errs []error
	if s.Records < 0 {
		errs = append(errs, fmt.Errorf("records %d is negative", s.Records))
	}
	if s.Records == 0 && s.Duration <= 0 {
		errs = append(errs, errors.New("a number of records or a duration is required"))
	}
	if s.Records > 0 && s.WarmupRecords >= s.Records {
		errs = append(errs, fmt.Errorf("warm-up records %d is not fewer than the %d records of the run", s.WarmupRecords, s.Records))
	}
	if s.WarmupRecords > 0 && s.Warmup > 0 {
		errs = append(errs, errors.New("warm-up is given both as records and as a duration"))
	}
	if s.Duration > 0 && s.Warmup >= s.Duration {
		errs = append(errs, fmt.Errorf("warm-up %v is not shorter than the run's %v", s.Warmup, s.Duration))
	}
	return errors.Join(errs...)
}

// share returns worker i's part of total split between n workers (the first total%n get one
// more).
func share(total int64, n, i int) int64 {
	s := total / int64(n)
	if int64(i) < total%int64(n) {
		s++
	}
	return s
}
