package kafka

import (
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/settings"
)

// TestEngineAppliesStudyProperties proves the engine and the catalogue agree: every property
// a study may set parses with its default and its example, is recorded in force with the
// value given, and yields options franz-go accepts (kgo.NewClient validates them); and the
// builder reads exactly the properties the catalogue says it applies.
// inForceOnlyWith names the properties a setting is in force only beside: a study's
// transactional producers get a transactional.id of kbench's, and transaction.timeout.ms is
// recorded only then (settings.Resolve drops it, with a warning, elsewhere).
var inForceOnlyWith = map[string]map[string]string{
	"transaction.timeout.ms": {"transactional.id": "t"},
}

func TestEngineAppliesStudyProperties(t *testing.T) {
	for _, role := range []settings.Role{settings.Producer, settings.Consumer} {
		for _, p := range settings.All() {
			if !p.For(role) || !p.Studyable() {
				continue
			}
			for _, v := range []string{p.Default, p.Example} {
				if v == "" {
					continue
				}
				props := p.Alone(v)
				for k, cv := range inForceOnlyWith[p.Name] {
					props[k] = cv
				}
				s, err := ParseProperties(role, props)
				if err != nil {
					t.Errorf("%s %s=%s: %v", role, p.Name, v, err)
					continue
				}
				if got := s.Effective[p.Name]; got != v {
					t.Errorf("%s %s=%s recorded as %q", role, p.Name, v, got)
				}
				opts := append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1")}, s.Opts...)
				if role == settings.Consumer {
					opts = append(opts, kgo.ConsumerGroup("g"), kgo.ConsumeTopics("t"))
				}
				cl, err := kgo.NewClient(opts...)
				if err != nil {
					t.Errorf("%s %s=%s: franz-go refuses the options: %v", role, p.Name, v, err)
					continue
				}
				cl.Close()
			}
		}
	}
}

func TestBuilderReadsWhatTheCatalogueApplies(t *testing.T) {
	for _, role := range []settings.Role{settings.Producer, settings.Consumer} {
		// gzip so that its level is read; a transactional id so that its timeout is.
		props := map[string]string{"group.id": "g"}
		if role == settings.Producer {
			props = map[string]string{"compression.type": "gzip", "transactional.id": "t"}
		}
		r, err := settings.Resolve(role, props)
		if err != nil {
			t.Fatal(err)
		}
		b := &settingsBuilder{r: r, used: map[string]bool{}}
		if err := b.build(role, &ClientSettings{}); err != nil {
			t.Fatal(err)
		}
		for _, p := range settings.All() {
			if !p.For(role) {
				continue // another role's; the loop below catches a builder reading one
			}
			if applied := p.Applies != ""; applied != b.used[p.Name] {
				t.Errorf("%s %s: catalogue says applied=%v, builder read it=%v", role, p.Name, applied, b.used[p.Name])
			}
		}
		for name := range b.used {
			if _, ok := settings.Lookup(role, name); !ok {
				t.Errorf("%s: builder reads %s, which the catalogue does not list", role, name)
			}
		}
	}
}

func TestIgnoredPropertiesAreNotRecorded(t *testing.T) {
	for _, p := range settings.All() {
		if p.Ignored == "" {
			continue
		}
		role := settings.Producer
		if p.Role == settings.Consumer {
			role = settings.Consumer
		}
		s, err := ParseProperties(role, map[string]string{p.Name: "x"})
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if v, ok := s.Effective[p.Name]; ok {
			t.Errorf("%s recorded in force as %q though not applied", p.Name, v)
		}
		if !slices.ContainsFunc(s.Warnings, func(w string) bool { return len(w) > len(p.Name) && w[:len(p.Name)] == p.Name }) {
			t.Errorf("%s: no warning says it was ignored (%q)", p.Name, s.Warnings)
		}
	}
}

// TestAppliedOptionValues reads back, through franz-go's own view of its configuration
// (Client.OptValue), that a property is applied with the value recorded for it.
func TestAppliedOptionValues(t *testing.T) {
	tests := []struct {
		role  settings.Role
		props map[string]string
		opt   any
		want  any
	}{
		// One request in flight: idempotence off (kgo would keep 5), and kgo's limit at 1.
		{settings.Producer, map[string]string{"max.in.flight.requests.per.connection": "1"}, kgo.DisableIdempotentWrite, true},
		{settings.Producer, map[string]string{"max.in.flight.requests.per.connection": "1"}, kgo.MaxProduceRequestsInflightPerBroker, 1},
		{settings.Producer, map[string]string{"enable.idempotence": "false"}, kgo.MaxProduceRequestsInflightPerBroker, 5},
		{settings.Producer, nil, kgo.DisableIdempotentWrite, false},
		{settings.Producer, map[string]string{"acks": "1"}, kgo.RequiredAcks, kgo.LeaderAck()},
		{settings.Producer, nil, kgo.ProducerLinger, 5 * time.Millisecond},
		{settings.Producer, map[string]string{"linger.ms": "0"}, kgo.ProducerLinger, time.Duration(0)},
		{settings.Producer, map[string]string{"batch.size": "65536"}, kgo.ProducerBatchMaxBytes, int32(65536)},
		// kgo's floor; Produce raises it to one record when a record is larger.
		{settings.Producer, map[string]string{"batch.size": "1"}, kgo.ProducerBatchMaxBytes, int32(512)},
		{settings.Producer, map[string]string{"buffer.memory": "67108864"}, kgo.MaxBufferedBytes, int64(67108864)},
		{settings.Producer, map[string]string{"max.request.size": "2097152"}, kgo.BrokerMaxWriteBytes, int32(2097152)},
		{settings.Producer, map[string]string{"delivery.timeout.ms": "300000"}, kgo.RecordDeliveryTimeout, 300 * time.Second},
		{settings.Producer, map[string]string{"request.timeout.ms": "60000"}, kgo.ProduceRequestTimeout, time.Minute},
		{settings.Producer, map[string]string{"retries": "10"}, kgo.RecordRetries, int64(10)},
		{settings.Producer, nil, kgo.ConnIdleTimeout, 540 * time.Second},
		{settings.Consumer, map[string]string{"fetch.max.wait.ms": "100"}, kgo.FetchMaxWait, 100 * time.Millisecond},
		{settings.Consumer, map[string]string{"max.poll.interval.ms": "60000"}, kgo.RebalanceTimeout, time.Minute},
		{settings.Consumer, map[string]string{"client.rack": "rack-a"}, kgo.Rack, "rack-a"},
		{settings.Consumer, map[string]string{"request.timeout.ms": "60000"}, kgo.RequestTimeoutOverhead, time.Minute},
		{settings.Consumer, map[string]string{"fetch.max.bytes": "209715200"}, kgo.BrokerMaxReadBytes, int32(209715200)},
	}
	for _, tt := range tests {
		s, err := ParseProperties(tt.role, tt.props)
		if err != nil {
			t.Fatalf("%v: %v", tt.props, err)
		}
		opts := append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1")}, s.Opts...)
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatalf("%v: %v", tt.props, err)
		}
		if got := cl.OptValue(tt.opt); got != tt.want {
			t.Errorf("%s %v: option %T = %v (%T), want %v (%T)", tt.role, tt.props, tt.opt, got, got, tt.want, tt.want)
		}
		cl.Close()
	}
}
