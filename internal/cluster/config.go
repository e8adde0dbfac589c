package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// node is one Kafka process of the embedded cluster and its ports on 127.0.0.1.
type node struct {
	ID            int
	Controller    bool // also a KRaft controller (the first min(3, N) nodes)
	Internal      int  // inter-broker PLAINTEXT listener
	Client        int  // client PLAINTEXT listener
	CtrlPort      int  // controller listener, 0 on broker-only nodes
	SASL          int  // 0 unless SASL is on
	TLS           int  // 0 unless TLS is on
	Metrics       int  // Prometheus JMX exporter, 0 when the agent is unavailable
	Remote        int  // REMOTE listener (a client in another zone), 0 unless Options.Client
	RemoteProxy   int  // the proxy in front of Remote, REMOTE's advertised port
	InternalProxy int  // the proxy in front of Internal, its advertised port, 0 unless Options.Broker
}

// serverProperties renders server.properties for one node. extra (the user's broker
// configs) is applied last, so it overrides kbench's choices.
func serverProperties(n node, nodes []node, dir string, opts Options, extra map[string]string) string {
	brokers := len(nodes)
	props := map[string]string{
		"node.id":                    fmt.Sprint(n.ID),
		"log.dirs":                   logDir(opts, n.ID),
		"controller.listener.names":  "CONTROLLER",
		"inter.broker.listener.name": "INTERNAL",
		"controller.quorum.voters":   voters(nodes),
		// Internal topics follow the cluster size so a 1-broker cluster works.
		"offsets.topic.replication.factor":                 fmt.Sprint(min(3, brokers)),
		"transaction.state.log.replication.factor":         fmt.Sprint(min(3, brokers)),
		"transaction.state.log.min.isr":                    fmt.Sprint(min(2, brokers)),
		"share.coordinator.state.topic.replication.factor": fmt.Sprint(min(3, brokers)),
		"share.coordinator.state.topic.min.isr":            fmt.Sprint(min(2, brokers)),
		// A benchmark's consumer group should not wait 3 s for more members.
		"group.initial.rebalance.delay.ms": "0",
		"num.partitions":                   "1",
		// A partition keeps at most 4 GiB: a capacity search writes tens of GB to one topic
		// in minutes, and a disk that fills makes every later trial slower, so the answer
		// would drift with how much the search itself wrote.
		"log.retention.bytes": "4294967296",
		// What retention frees goes in small pieces, often: 128 MiB segments checked every
		// 5 s. Freeing a 1 GiB segment took one core 230-520 ms here, and brokers started
		// together check in step, so a trial met all three brokers freeing at once, or
		// none, by its phase against the check (measured: ten 40 s runs at 70,000
		// records/s on three brokers, p99.9 a median 106 ms with 1 GiB segments checked
		// every 30 s, 44 ms with these). The same bytes are freed; rolls cost 1-3 ms.
		// --config overrides any.
		"log.segment.bytes":               "134217728",
		"log.retention.check.interval.ms": "5000",
		// A deleted topic's files, and a segment past retention, go a second after their
		// deletion rather than Kafka's minute: a study deletes each repeat's topic, and the
		// run its warm-up's, as they end, and gigabytes freed a minute later land in a later
		// repeat's measured window (measured: 5.6 GB freed made one 2 s window of a 50,000
		// records/s run reach 221 ms, the others 6-20 ms).
		"log.segment.delete.delay.ms": "1000",
	}
	protocols := []string{"INTERNAL:PLAINTEXT", "CLIENT:PLAINTEXT", "CONTROLLER:PLAINTEXT"}
	listeners := []string{
		fmt.Sprintf("INTERNAL://127.0.0.1:%d", n.Internal),
		"CLIENT://" + hostPort(opts.clientHost(), n.Client),
	}
	if n.SASL != 0 {
		proto := "SASL_PLAINTEXT"
		if opts.TLS {
			proto = "SASL_SSL"
		}
		protocols = append(protocols, "SASL:"+proto)
		listeners = append(listeners, "SASL://"+hostPort(opts.clientHost(), n.SASL))
		mech := saslMechanism(opts.SASL)
		lname := "listener.name.sasl." + strings.ToLower(mech) + ".sasl.jaas.config"
		props["listener.name.sasl.sasl.enabled.mechanisms"] = mech
		if mech == "PLAIN" {
			props[lname] = fmt.Sprintf(`org.apache.kafka.common.security.plain.PlainLoginModule required user_%s="%s";`, saslUser, opts.password)
		} else {
			props[lname] = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
		}
	}
	if n.TLS != 0 {
		protocols = append(protocols, "TLS:SSL")
		listeners = append(listeners, "TLS://"+hostPort(opts.clientHost(), n.TLS))
	}
	if opts.TLS {
		props["ssl.keystore.type"] = "PEM"
		props["ssl.keystore.location"] = keystorePath(dir, n.ID)
	}
	advertised := strings.Join(listeners, ",")
	if n.InternalProxy != 0 {
		// Other brokers reach this one through its proxy: brokers in separate zones.
		advertised = strings.Replace(advertised, fmt.Sprintf("INTERNAL://127.0.0.1:%d", n.Internal),
			fmt.Sprintf("INTERNAL://127.0.0.1:%d", n.InternalProxy), 1)
	}
	if n.Remote != 0 {
		protocol, listener, adv := remoteListener(n)
		protocols = append(protocols, protocol)
		listeners = append(listeners, listener)
		advertised += "," + adv
	}
	roles := "broker"
	if n.Controller {
		roles = "broker,controller"
		listeners = append(listeners, fmt.Sprintf("CONTROLLER://127.0.0.1:%d", n.CtrlPort))
	}
	props["process.roles"] = roles
	props["listeners"] = strings.Join(listeners, ",")
	props["advertised.listeners"] = advertised
	props["listener.security.protocol.map"] = strings.Join(protocols, ",")
	maps.Copy(props, extra)

	var b strings.Builder
	b.WriteString("# Written by kbench for an embedded cluster; see kbench cluster status.\n")
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%s=%s\n", k, props[k])
	}
	return b.String()
}

func voters(nodes []node) string {
	var v []string
	for _, n := range nodes {
		if n.Controller {
			v = append(v, fmt.Sprintf("%d@127.0.0.1:%d", n.ID, n.CtrlPort))
		}
	}
	return strings.Join(v, ",")
}

// saslMechanism maps the --sasl choice to Kafka's mechanism name.
func saslMechanism(choice string) string {
	switch strings.ToLower(choice) {
	case "plain":
		return "PLAIN"
	case "scram-sha-256":
		return "SCRAM-SHA-256"
	default:
		return "SCRAM-SHA-512"
	}
}

// log4j2Properties sends broker logs to standard output, which kbench redirects into the
// broker's log file.
const log4j2Properties = `status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.state.name = state.change.logger
logger.state.level = WARN
logger.request.name = kafka.request.logger
logger.request.level = WARN
`
