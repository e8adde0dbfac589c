package cli

import (
	"errors"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/settings"
)

// consumeFlags are kbench consume's flags: Kafka's kafka-consumer-perf-test's (4.1 to 4.4
// spellings) and kbench's own.
type consumeFlags struct {
	cfg          load.ConsumerConfig
	props        clientPropertyFlags
	topic        string
	messages     int64
	numRecords   int64
	fetchSize    int
	socketBuffer int
	timeoutMs    int64
	detailed     bool
	interval     int64
	dateFormat   string
	hideHeader   bool
	jsonOut      bool
	printMetrics bool
	threads      int
	bm           brokerMetricsFlags
	share        shareFlags
	tool         toolVersion
	lf           live.Flags
}

func (c *consumeFlags) register(f *pflag.FlagSet) {
	cfg, pf := &c.cfg, &c.props
	f.StringVar(&cfg.Bootstrap, "bootstrap-server", "", "brokers to connect to (overrides bootstrap.servers)")
	f.StringVar(&c.topic, "topic", "", "topic to consume from")
	f.StringVar(&cfg.Include, "include", "", "regular expression of the topics to consume")
	f.StringVar(&cfg.Group, "group", "", "consumer group (default perf-consumer-<random>)")
	f.Int64Var(&c.messages, "messages", 0, "number of records to consume")
	f.Int64Var(&c.numRecords, "num-records", 0, "number of records to consume (Kafka 4.2 spelling)")
	f.IntVar(&c.fetchSize, "fetch-size", 1024*1024, "max.partition.fetch.bytes: bytes fetched per partition per request")
	f.IntVar(&c.socketBuffer, "socket-buffer-size", 2*1024*1024, "receive.buffer.bytes (no franz-go equivalent: warned)")
	f.StringVar(&pf.configFile, "consumer.config", "", "consumer properties file")
	f.StringVar(&pf.cmdConfig, "command-config", "", "consumer properties file (Kafka 4.2 spelling)")
	f.StringArrayVar(&pf.cmdProps, "command-property", nil, "consumer property name=value (repeatable)")
	f.StringArrayVarP(&pf.xProps, "property", "X", nil, "consumer property name=value (short alias)")
	f.BoolVar(&cfg.FromLatest, "from-latest", false, "start a new group at the end of the log instead of the start")
	f.Int64Var(&c.timeoutMs, "timeout", load.DefaultConsumeTimeout.Milliseconds(), "ms without records after which the run ends")
	f.BoolVar(&c.detailed, "show-detailed-stats", false, "print a row every reporting interval instead of the summary")
	f.Int64Var(&c.interval, "reporting-interval", 5000, "ms between detailed rows")
	f.StringVar(&c.dateFormat, "date-format", "yyyy-MM-dd HH:mm:ss:SSS", "java.text.SimpleDateFormat pattern of the time fields")
	f.BoolVar(&c.hideHeader, "hide-header", false, "do not print the header")
	f.BoolVar(&c.printMetrics, "print-metrics", false, "print kbench's measurements as a metric table at the end")
	f.IntVar(&cfg.Consumers, "consumers", 1, "consumer clients in the group")
	f.IntVar(&c.threads, "threads", 0, "alias of --consumers (removed from Kafka's tool; accepted for old scripts)")
	f.DurationVar(&cfg.Duration, "duration", 0, "run for at most this long")
	f.BoolVar(&c.jsonOut, "json", false, "print the whole result as JSON on stdout (rows go to stderr)")
	c.tool = defaultToolVersion
	f.Var(&c.tool, "tool-version", "the Kafka release whose kafka-consumer-perf-test lines to print, 4.0 to 4.4 (4.2 on: the --messages deprecation notice)")
	c.share.register(f)
	c.bm.register(f)
	c.lf.Register(f)
}

// config checks the flags and returns the consumer configuration they describe, its
// properties read and checked against the catalogue before any cluster is contacted. The
// bootstrap servers may still be empty: the embedded cluster's are filled in later.
func (c *consumeFlags) config(cmd *cobra.Command, args []string) (load.ConsumerConfig, error) {
	cfg := c.cfg
	if err := checkConsumeFlags(cmd.Flags()); err != nil {
		return cfg, err
	}
	if err := c.share.check(cmd.Flags()); err != nil {
		return cfg, err
	}
	props, err := c.props.properties(args)
	if err != nil {
		return cfg, err
	}
	if err := checkSecurityTarget(cfg.Bootstrap, props, "consumer.config"); err != nil {
		return cfg, err
	}
	if c.topic != "" {
		cfg.Topics = []string{c.topic}
	}
	switch {
	case c.messages > 0 && c.numRecords > 0 && c.messages != c.numRecords:
		return cfg, errors.New("--messages and --num-records disagree; give one")
	case c.numRecords > 0:
		cfg.Records = c.numRecords
	default:
		cfg.Records = c.messages
	}
	if cfg.Records == 0 && cfg.Duration == 0 {
		return cfg, errors.New("--messages (or --num-records) or --duration is required")
	}
	if c.interval <= 0 {
		return cfg, errors.New("--reporting-interval must be greater than 0")
	}
	// The flags Kafka's tool turns into properties, taking precedence over the file.
	props["max.partition.fetch.bytes"] = strconv.Itoa(c.fetchSize)
	if cmd.Flags().Changed("socket-buffer-size") {
		props["receive.buffer.bytes"] = strconv.Itoa(c.socketBuffer)
	}
	if _, err := load.ParseProperties(settings.Consumer, props); err != nil {
		return cfg, err
	}
	cfg.Properties = props
	if c.threads > 0 && !cmd.Flags().Changed("consumers") {
		cfg.Consumers = c.threads
	}
	cfg.Timeout = time.Duration(c.timeoutMs) * time.Millisecond
	cfg.TickInterval = time.Duration(c.interval) * time.Millisecond
	return cfg, nil
}
