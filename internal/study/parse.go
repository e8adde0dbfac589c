package study

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/zones"
)

// Defaults a study gets when it does not say otherwise.
const (
	DefaultRepeats      = 3
	DefaultWarmup       = 5 * time.Second
	DefaultCooldown     = 2 * time.Second
	DefaultBrokers      = 3
	DefaultKafkaVersion = "4.4.0"
	DefaultHeap         = "1g" // cluster.DefaultHeap, Kafka's own
	// DefaultJITWarmup bounds an embedded cluster's warm-up: a cold cluster on this 2-core
	// host climbed for 35-55 s under unthrottled load (5,406 to 50,222 records/s in 5 s
	// slices), throttled load no sooner.
	DefaultJITWarmup = time.Minute
	// DefaultDuration is the measured window of a load that gives neither records nor
	// duration.
	DefaultDuration = 10 * time.Second
)

// origin is where a scenario field got its value, for errors found after expansion.
type origin struct {
	node  *yaml.Node
	field string
}

// parsed is a study file on its way to a Plan.
type parsed struct {
	d          *decoder
	plan       Plan
	base       Scenario
	baseOrigin map[string]origin
	params     map[string]*param
	matrix     []axis
	matrixNode *yaml.Node // the matrix section, where a too-large product is reported
	listed     [][]choice
	listedSet  map[int]*yaml.Node // listed scenario index -> its set mapping
	hypotheses *yaml.Node
	reference  *yaml.Node
}

// Parse decodes and validates a study. name is used in error messages: a path, or
// "builtin:<name>".
func Parse(name string, data []byte) (*Plan, error) {
	d := &decoder{file: name}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil, &Error{File: name, Msg: "the study is empty"}
	}
	p := &parsed{d: d, params: map[string]*param{}, baseOrigin: map[string]origin{}, listedSet: map[int]*yaml.Node{}}
	p.plan.File = name
	if err := p.top(root.Content[0]); err != nil {
		return nil, err
	}
	return p.finish()
}

// yamlError turns a yaml.v3 syntax error ("yaml: line 3: ...") into an *Error.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{File: file, Msg: "invalid YAML: " + msg}
	var line int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
		e.Line = line
		e.Msg = "invalid YAML:" + strings.SplitN(msg, ":", 2)[1]
	}
	return e
}

var studyName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func (p *parsed) top(n *yaml.Node) error {
	d := p.d
	pl := &p.plan
	pl.Repeats, pl.Warmup, pl.Cooldown = DefaultRepeats, DefaultWarmup, DefaultCooldown
	pl.Cluster = Cluster{Brokers: DefaultBrokers, KafkaVersion: DefaultKafkaVersion, Heap: DefaultHeap, BrokerConfigs: map[string]string{},
		JITWarmup: DefaultJITWarmup}
	var clusterNode, defaultsNode *yaml.Node
	var nameNode *yaml.Node
	err := d.mapping(n, "", map[string]func(k, v *yaml.Node) error{
		"name": func(_, v *yaml.Node) error {
			nameNode = v
			if err := d.str(v, "name", &pl.Name); err != nil {
				return err
			}
			if !studyName.MatchString(pl.Name) {
				return d.errorf(v, "name", "%q: use lowercase letters, digits and dashes (it names run directories)", pl.Name)
			}
			return nil
		},
		"title":       func(_, v *yaml.Node) error { return d.str(v, "title", &pl.Title) },
		"description": func(_, v *yaml.Node) error { return d.str(v, "description", &pl.Description) },
		"source":      func(_, v *yaml.Node) error { return d.str(v, "source", &pl.Source) },
		"notes":       func(_, v *yaml.Node) error { return p.notes(v) },
		"cluster":     func(_, v *yaml.Node) error { clusterNode = v; return nil },
		"repeats":     func(_, v *yaml.Node) error { return p.repeats(v) },
		"warmup":      func(_, v *yaml.Node) error { return d.duration(v, "warmup", &pl.Warmup) },
		"cooldown":    func(_, v *yaml.Node) error { return d.duration(v, "cooldown", &pl.Cooldown) },
		"defaults":    func(_, v *yaml.Node) error { defaultsNode = v; return nil },
		"parameters":  func(_, v *yaml.Node) error { return p.parameters(v) },
		"matrix":      func(_, v *yaml.Node) error { p.matrixNode = v; return p.matrixSection(v) },
		"scenarios":   func(_, v *yaml.Node) error { return p.scenarioList(v) },
		"hypotheses":  func(_, v *yaml.Node) error { p.hypotheses = v; return nil },
		"reference":   func(_, v *yaml.Node) error { p.reference = v; return nil },
	})
	if err != nil {
		return err
	}
	if nameNode == nil {
		return d.errorf(n, "name", "missing: every study needs a name, e.g. name: my-study")
	}
	if pl.Title == "" {
		pl.Title = pl.Name
	}
	if clusterNode != nil {
		if err := p.cluster(clusterNode); err != nil {
			return err
		}
	}
	p.base = defaultScenario(pl.Cluster.Brokers)
	p.base.Cluster = shapeOf(pl.Cluster)
	if defaultsNode != nil {
		return p.defaults(defaultsNode)
	}
	return nil
}

func (p *parsed) notes(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		var s string
		if err := p.d.str(v, "notes", &s); err != nil {
			return err
		}
		p.plan.Notes = append(p.plan.Notes, strings.TrimSpace(s))
		return nil
	}
	return p.d.list(v, "notes", func(i int, item *yaml.Node) error {
		var s string
		if err := p.d.str(item, index("notes", i), &s); err != nil {
			return err
		}
		p.plan.Notes = append(p.plan.Notes, strings.TrimSpace(s))
		return nil
	})
}

// brokerConfigName is a server.properties name. Unlike client property names it may hold
// '_' and '-': per-listener configs embed the listener and mechanism
// (listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config).
var brokerConfigName = regexp.MustCompile(`^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$`)

var (
	kafkaVersion = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	heapSize     = regexp.MustCompile(`^\d+[kmgKMG]$`)
	saslChoices  = []string{"scram-sha-512", "scram-sha-256", "plain"}
)

func (p *parsed) cluster(n *yaml.Node) error {
	d := p.d
	c := &p.plan.Cluster
	var embeddedOnly []*yaml.Node
	brokersSet := false
	// The fields a parameter may set too are set through the field table, as a shape.
	shapeField := func(v *yaml.Node, path string) error {
		value, err := d.scalar(v, path)
		if err != nil {
			return err
		}
		sh := Shape{Brokers: c.Brokers, KafkaVersion: c.KafkaVersion, Heap: c.Heap, Limits: c.Limits}
		if err := sh.setField(path, value); err != nil {
			return d.wrap(v, path, err)
		}
		c.Brokers, c.KafkaVersion, c.Heap, c.Limits = sh.Brokers, sh.KafkaVersion, sh.Heap, sh.Limits
		return nil
	}
	err := d.mapping(n, "cluster", map[string]func(k, v *yaml.Node) error{
		"brokers": func(_, v *yaml.Node) error {
			brokersSet = true
			return shapeField(v, "cluster.brokers")
		},
		"kafka_version": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return shapeField(v, "cluster.kafka_version")
		},
		"heap": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return shapeField(v, "cluster.heap")
		},
		"jit_warmup": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return d.duration(v, "cluster.jit_warmup", &c.JITWarmup)
		},
		"broker_configs": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return d.pairs(v, "cluster.broker_configs", func(k, v *yaml.Node) error {
				field := "cluster.broker_configs." + k.Value
				if !brokerConfigName.MatchString(k.Value) {
					return d.errorf(k, field, "%q is not a Kafka config name (lowercase words joined by dots, e.g. num.io.threads or listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config)", k.Value)
				}
				s, err := d.scalar(v, field)
				c.BrokerConfigs[k.Value] = s
				return err
			})
		},
		"sasl": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			if err := d.str(v, "cluster.sasl", &c.SASL); err != nil {
				return err
			}
			if c.SASL == "none" {
				c.SASL = ""
			}
			if c.SASL != "" && !contains(saslChoices, c.SASL) {
				return d.errorf(v, "cluster.sasl", "%q is not valid %s", c.SASL, choices(append([]string{"none"}, saslChoices...)))
			}
			return nil
		},
		"tls": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return d.boolean(v, "cluster.tls", &c.TLS)
		},
		"broker_cpus": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return shapeField(v, "cluster.broker_cpus")
		},
		"cpuset": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return shapeField(v, "cluster.cpuset")
		},
		"disk": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return p.disk(v, "cluster.disk", &c.Limits.Disk)
		},
		"network": func(k, v *yaml.Node) error {
			embeddedOnly = append(embeddedOnly, k)
			return p.network(v, "cluster.network", c)
		},
		"external": func(_, v *yaml.Node) error {
			c.External = &External{}
			return p.external(v, c.External)
		},
	})
	if err != nil {
		return err
	}
	if c.External != nil {
		if len(embeddedOnly) > 0 {
			k := embeddedOnly[0]
			return d.errorf(k, "cluster."+k.Value, "applies only to the embedded cluster, not with cluster.external (security settings of an external cluster go in its command_config file)")
		}
		if !brokersSet {
			c.Brokers = 0
		}
		c.KafkaVersion, c.Heap = "", ""
	}
	return nil
}

// disk decodes a disk class: the scalar tmpfs, or a mapping of flavor.DiskKeys.
func (p *parsed) disk(n *yaml.Node, field string, dst *flavor.Disk) error {
	d := p.d
	if n.Kind == yaml.ScalarNode {
		if n.Value != "tmpfs" {
			return d.errorf(n, field, "%q is not tmpfs or a mapping such as {write_mib_per_sec: 50, write_iops: 2000}", n.Value)
		}
		*dst = flavor.Disk{Tmpfs: true}
		return nil
	}
	handlers := map[string]func(k, v *yaml.Node) error{}
	for _, key := range flavor.DiskKeys {
		handlers[key] = func(_, v *yaml.Node) error {
			s, err := d.scalar(v, field+"."+key)
			if err != nil {
				return err
			}
			if err := dst.Set(key, s); err != nil {
				return d.errorf(v, field+"."+key, "%q is not a positive number", s)
			}
			return nil
		}
	}
	if err := d.mapping(n, field, handlers); err != nil {
		return err
	}
	if !dst.Throttled() {
		return d.errorf(n, field, "empty: give tmpfs or at least one of %s", strings.Join(flavor.DiskKeys, ", "))
	}
	return nil
}

// network decodes the client's zone link: {client_rtt: 10ms, client_bandwidth: 100MiB}.
// broker_rtt, which puts each broker in a zone of its own, sets c.BrokerNetwork.
func (p *parsed) network(n *yaml.Node, field string, c *Cluster) error {
	d := p.d
	dst := &zones.Link{}
	rttSet := false
	err := d.mapping(n, field, map[string]func(k, v *yaml.Node) error{
		"broker_rtt": func(_, v *yaml.Node) error {
			s, err := d.scalar(v, field+".broker_rtt")
			if err != nil {
				return err
			}
			rtt, err := parseRTT(s, "2ms")
			if err != nil {
				return d.wrap(v, field+".broker_rtt", err)
			}
			c.BrokerNetwork = &zones.Link{RTT: rtt}
			return nil
		},
		"client_rtt": func(_, v *yaml.Node) error {
			s, err := d.scalar(v, field+".client_rtt")
			if err != nil {
				return err
			}
			rtt, err := parseRTT(s, "10ms")
			if err != nil {
				return d.wrap(v, field+".client_rtt", err)
			}
			dst.RTT, rttSet = rtt, true
			return nil
		},
		"client_bandwidth": func(_, v *yaml.Node) error {
			s, err := d.scalar(v, field+".client_bandwidth")
			if err != nil {
				return err
			}
			b, perr := zones.ParseBandwidth(s)
			if perr == nil {
				dst.Bandwidth = b
				perr = dst.Validate()
			}
			return d.wrap(v, field+".client_bandwidth", perr)
		},
	})
	if err != nil {
		return err
	}
	switch {
	case rttSet || dst.Bandwidth != 0:
		c.Network = dst
	case c.BrokerNetwork == nil:
		return d.errorf(n, field, "empty: give client_rtt (e.g. 10ms), client_bandwidth (e.g. 100MiB), broker_rtt (e.g. 2ms)")
	}
	return nil
}

func (p *parsed) external(n *yaml.Node, e *External) error {
	d := p.d
	err := d.mapping(n, "cluster.external", map[string]func(k, v *yaml.Node) error{
		"bootstrap":      func(_, v *yaml.Node) error { return d.str(v, "cluster.external.bootstrap", &e.Bootstrap) },
		"command_config": func(_, v *yaml.Node) error { return d.str(v, "cluster.external.command_config", &e.CommandConfig) },
		"metrics_urls": func(_, v *yaml.Node) error {
			return d.list(v, "cluster.external.metrics_urls", func(i int, item *yaml.Node) error {
				var u string
				if err := d.str(item, index("cluster.external.metrics_urls", i), &u); err != nil {
					return err
				}
				if _, err := metrics.ParseBrokerURL(u); err != nil {
					return d.wrap(item, index("cluster.external.metrics_urls", i), err)
				}
				e.MetricsURLs = append(e.MetricsURLs, u)
				return nil
			})
		},
	})
	if err != nil {
		return err
	}
	if e.Bootstrap == "" {
		return d.errorf(n, "cluster.external.bootstrap", "missing: an external cluster needs its bootstrap servers, e.g. bootstrap: kafka-1:9092,kafka-2:9092")
	}
	return nil
}

// defaults decodes the defaults section into the base scenario, field by field.
func (p *parsed) defaults(n *yaml.Node) error {
	d := p.d
	sections := map[string]func(k, v *yaml.Node) error{}
	sections["listener"] = func(_, v *yaml.Node) error { return p.setBase("listener", v) }
	for _, section := range []string{"topic", "producers", "consumers", "capacity", "verify"} {
		sections[section] = func(_, v *yaml.Node) error {
			handlers := map[string]func(k, v *yaml.Node) error{}
			for _, f := range fields {
				if f.shape != nil {
					continue
				}
				sub, ok := strings.CutPrefix(f.path, section+".")
				if !ok {
					continue
				}
				if m, isMap := strings.CutSuffix(f.path, ".<name>"); isMap {
					handlers[strings.TrimSuffix(sub, ".<name>")] = func(_, v *yaml.Node) error {
						return d.pairs(v, "defaults."+m, func(k, v *yaml.Node) error {
							return p.setBase(m+"."+k.Value, v)
						})
					}
					continue
				}
				handlers[sub] = func(_, v *yaml.Node) error {
					return p.setBase(f.path, v)
				}
			}
			field := "defaults." + section
			if err := d.mapping(v, field, handlers); err != nil {
				return err
			}
			return p.recordsOrDuration(v, field)
		}
	}
	return d.mapping(n, "defaults", sections)
}

// recordsOrDuration rejects a section that sets both records and duration.
func (p *parsed) recordsOrDuration(n *yaml.Node, field string) error {
	var records, duration *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "records":
			records = n.Content[i]
		case "duration":
			duration = n.Content[i]
		}
	}
	if records != nil && duration != nil {
		return p.d.errorf(duration, field, "set records or duration, not both")
	}
	return nil
}

func (p *parsed) setBase(path string, v *yaml.Node) error {
	field := "defaults." + path
	s, err := p.d.scalar(v, field)
	if err != nil {
		return err
	}
	if err := p.base.setField(path, s); err != nil {
		return p.d.wrap(v, field, err)
	}
	p.baseOrigin[path] = origin{v, field}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// repeats reads "repeats: 5" (a fixed count) or "repeats: {min: 3, max: 10}": rounds are added
// after min while a hypothesis is undecided, up to max (see Plan.MinRepeats).
func (p *parsed) repeats(v *yaml.Node) error {
	d, pl := p.d, &p.plan
	if v.Kind != yaml.MappingNode {
		return d.integer(v, "repeats", 1, &pl.Repeats)
	}
	var lo, hi int
	err := d.mapping(v, "repeats", map[string]func(_, v *yaml.Node) error{
		"min": func(_, v *yaml.Node) error { return d.integer(v, "repeats.min", 1, &lo) },
		"max": func(_, v *yaml.Node) error { return d.integer(v, "repeats.max", 1, &hi) },
	})
	switch {
	case err != nil:
		return err
	case lo == 0 || hi == 0:
		return d.errorf(v, "repeats", "a range needs both min and max, e.g. {min: 3, max: 10}")
	case hi < lo:
		return d.errorf(v, "repeats.max", "%d is below min %d", hi, lo)
	}
	pl.Repeats, pl.MinRepeats = hi, lo
	return nil
}
