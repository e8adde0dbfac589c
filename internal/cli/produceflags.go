package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/load"
)

// produceFlags are the flags of kbench produce (Kafka's kafka-producer-perf-test's, and
// kbench's own), and the one step from them to a load.ProducerConfig; kbench capacity takes
// the same flags through the same step.
type produceFlags struct {
	cfg            load.ProducerConfig
	props          clientPropertyFlags
	payloadFile    string
	payloadDelim   string
	throughput     float64
	keys           string
	txDurationMs   int64
	reportInterval int64
	noCreate       bool
	tool           toolVersion
}

func (p *produceFlags) register(f *pflag.FlagSet) {
	cfg, pf := &p.cfg, &p.props
	f.StringVar(&cfg.Topic, "topic", "", "produce records to this topic")
	f.Int64Var(&cfg.Records, "num-records", 0, "number of records to produce (0 with --duration: until it ends)")
	f.IntVar(&cfg.RecordSize, "record-size", 0, "record value size in bytes (random A-Z, as Kafka's tool)")
	f.StringVar(&p.payloadFile, "payload-file", "", "file of UTF-8 payloads; each record takes one at random")
	f.StringVar(&p.payloadDelim, "payload-delimiter", `\n`, "delimiter of --payload-file entries")
	f.BoolVar(&cfg.PayloadMonotonic, "payload-monotonic", false, "payload is the record's sequence number")
	f.Float64Var(&p.throughput, "throughput", -1, "target records/s in total (-1: unlimited); latency is then measured from due time")
	f.StringArrayVar(&pf.props, "producer-props", nil, "producer properties name=value (several may follow the flag)")
	f.StringArrayVar(&pf.cmdProps, "command-property", nil, "producer property name=value (Kafka 4.2 spelling; repeatable)")
	f.StringArrayVarP(&pf.xProps, "property", "X", nil, "producer property name=value (short alias, as rpk and kcat)")
	f.StringVar(&pf.configFile, "producer.config", "", "producer properties file")
	f.StringVar(&pf.cmdConfig, "command-config", "", "producer properties file (Kafka 4.2 spelling)")
	f.StringVar(&cfg.Bootstrap, "bootstrap-server", "", "brokers to connect to (overrides bootstrap.servers)")
	f.Int64Var(&cfg.WarmupRecords, "warmup-records", 0, "records left out of the steady-state summary")
	f.StringVar(&cfg.TransactionalID, "transactional-id", "", "produce in transactions under this id")
	f.Int64Var(&p.txDurationMs, "transaction-duration-ms", 0, "commit each transaction after this many ms (default 3000 with transactions)")
	f.IntVar(&cfg.Producers, "producers", 1, "independent producer clients; records and throughput are split between them")
	f.DurationVar(&cfg.Duration, "duration", 0, "run for this long (with or instead of --num-records)")
	f.DurationVar(&cfg.Warmup, "warmup", 0, "leave records due in this first stretch out of the steady-state summary")
	f.StringVar(&p.keys, "key-distribution", "none", "record keys: none, random or round-robin (range: Kafka 4.4's word for round-robin)")
	f.IntVar(&cfg.KeySpace, "key-space", load.DefaultKeySpace, "number of distinct keys")
	f.IntVar(&cfg.KeySpace, "record-key-range", load.DefaultKeySpace, "number of distinct keys (Kafka 4.4 spelling of --key-space)")
	f.Uint64Var(&cfg.Seed, "random-seed", 0, "seed of the random keys and payloads; 0, the default, repeats the same sequence every run (as Kafka's tool)")
	f.BoolVar(&cfg.TimestampHeader, "timestamp-header", true, "add a kbench-ts header so kbench consume measures end-to-end latency in microseconds")
	f.Int64Var(&p.reportInterval, "reporting-interval", 5000, "ms between window lines")
	p.tool = defaultToolVersion
	f.Var(&p.tool, "tool-version", "the Kafka release whose kafka-producer-perf-test lines to print, 4.0 to 4.4 (4.2 on: six decimals in the summary, deprecation notices)")
	f.BoolVar(&p.noCreate, "no-create", false, "refuse to run when the topic does not exist, instead of letting the broker create it")
}

// config checks the flags and returns the producer configuration they describe (reading
// the properties and the payload file). The bootstrap servers may still be empty: the
// embedded cluster's are filled in later.
func (p *produceFlags) config(cmd *cobra.Command, args []string) (load.ProducerConfig, error) {
	out := cmd.OutOrStdout()
	if err := checkProduceFlags(cmd.Flags()); err != nil {
		return load.ProducerConfig{}, err
	}
	cfg := p.cfg
	props, err := p.props.properties(args)
	if err != nil {
		return cfg, err
	}
	if err := checkSecurityTarget(cfg.Bootstrap, props, "producer.config"); err != nil {
		return cfg, err
	}
	if err := checkRecordSize(cfg.RecordSize, props); err != nil {
		return cfg, err
	}
	cfg.Properties = props
	if p.payloadFile != "" {
		delim := p.payloadDelim
		if delim == `\n` {
			delim = "\n"
		}
		abs, _ := filepath.Abs(p.payloadFile)
		fmt.Fprintf(out, "Reading payloads from: %s\n", abs)
		if cfg.Payloads, err = load.ReadPayloadFile(p.payloadFile, delim); err != nil {
			return cfg, err
		}
		fmt.Fprintf(out, "Number of messages read: %d\n", len(cfg.Payloads))
	}
	if p.throughput > 0 {
		cfg.Rate = p.throughput
	}
	if cfg.Keys, err = load.ParseKeyDistribution(p.keys); err != nil {
		return cfg, err
	}
	if p.txDurationMs < 0 {
		return cfg, errors.New("--transaction-duration-ms should be greater than zero")
	}
	cfg.TransactionDuration = time.Duration(p.txDurationMs) * time.Millisecond
	cfg.TickInterval = time.Duration(p.reportInterval) * time.Millisecond
	return cfg, nil
}
