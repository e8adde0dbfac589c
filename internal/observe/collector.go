package observe

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// streamLabels label every stream's series.
var streamLabels = []string{"study", "scenario", "repeat", "role", "agent"}

// names lists every name newDesc made, for MetricNames.
var names []string

func newDesc(name, help string, labels []string) *prometheus.Desc {
	names = append(names, name)
	return prometheus.NewDesc(name, help, labels, nil)
}

func streamDesc(name, help string) *prometheus.Desc { return newDesc(name, help, streamLabels) }

// The series kbench exposes. Names follow Prometheus conventions: base units in the name,
// counters end in _total, latencies are histograms in seconds.
var (
	descSent      = streamDesc("kbench_records_sent_total", "Records that reached an outcome from the cluster (acknowledged or failed).")
	descAcked     = streamDesc("kbench_records_acknowledged_total", "Records acknowledged by the cluster.")
	descFailed    = streamDesc("kbench_records_failed_total", "Records the cluster refused or that timed out after the client's retries.")
	descUnsent    = streamDesc("kbench_records_unsent_total", "Records handed to a producer but aborted unsent when the run stopped waiting (known at the end).")
	descConsumed  = streamDesc("kbench_records_consumed_total", "Records read by the consumers, re-reads included.")
	descAckBytes  = streamDesc("kbench_acknowledged_bytes_total", "Key plus value bytes of acknowledged records.")
	descConBytes  = streamDesc("kbench_consumed_bytes_total", "Key plus value bytes of consumed records.")
	descBuffered  = streamDesc("kbench_producer_buffered_records", "Records in the producers' clients at the last tick, waiting for a batch or in flight.")
	descBufBytes  = streamDesc("kbench_producer_buffered_bytes", "Bytes of the records in the producers' clients at the last tick.")
	descOffered   = streamDesc("kbench_offered_records_per_second", "Target rate of the producers, 0 when unthrottled.")
	descAchieved  = streamDesc("kbench_achieved_records_per_second", "Records acknowledged (producers) or consumed (consumers) per second in the last tick.")
	descDue       = streamDesc("kbench_due_latency_seconds", "Latency from each record's due time (its slot in the schedule) to its acknowledgement.")
	descSend      = streamDesc("kbench_send_latency_seconds", "Latency from each record's hand-over to the client to its acknowledgement.")
	descE2E       = streamDesc("kbench_end_to_end_latency_seconds", "Latency from each record's production to its consumption (at the end of a consume).")
	descInfo      = newDesc("kbench_run_info", "Where the run stands (value 1): study, scenario, repeat and phase.", []string{"study", "scenario", "repeat", "phase"})
	descScenario  = newDesc("kbench_scenario_index", "The running scenario, 1-based.", nil)
	descScenarios = newDesc("kbench_scenarios", "Scenarios in the run.", nil)
	descElapsed   = newDesc("kbench_run_elapsed_seconds", "Time since the run started.", nil)
	descEnded     = newDesc("kbench_run_ended", "1 once the run has ended (its last figures stay until the server closes).", nil)
	descTrials    = newDesc("kbench_capacity_trials_total", "Capacity trials run, by verdict.", []string{"verdict"})
	descTrialRate = newDesc("kbench_capacity_trial_offered_records_per_second", "The last capacity trial's offered rate (0 unthrottled).", nil)
	descTrialAch  = newDesc("kbench_capacity_trial_achieved_records_per_second", "The last capacity trial's achieved rate.", nil)
	descTrialP99  = newDesc("kbench_capacity_trial_p99_latency_seconds", "The last capacity trial's due-time p99 latency.", nil)
	descFaults    = newDesc("kbench_faults_total", "Faults injected by verify's fault plan.", nil)
	descVerified  = newDesc("kbench_verify_records_total", "A verify run's records by outcome (acknowledged, read, lost, duplicated...), once read back.", []string{"outcome"})
	descBrokerCPU = newDesc("kbench_broker_cpu_cores", "A broker's CPU in cores, as kbench last sampled it.", []string{"broker"})
	descBrokerPct = newDesc("kbench_broker_cpu_allotment_ratio", "A broker's CPU as a share of its allotment, as kbench last sampled it.", []string{"broker"})
	descBrokerW   = newDesc("kbench_broker_disk_write_bytes_per_second", "A broker's disk writes, as kbench last sampled them.", []string{"broker"})
)

// MetricNames lists the names kbench's own collector exposes (histograms by their base name).
func MetricNames() []string { return append([]string{}, names...) }

// latencies are the stream's latency histograms as metrics, converted again only when they
// changed since the last scrape.
func (st *stream) latencies(k Key) []prometheus.Metric {
	if st.cachedOK && st.cachedAt == st.version {
		return st.cached
	}
	f, l := st.total(), k.values()
	var out []prometheus.Metric
	switch {
	// An agent's own ticks on its coordinator carry counts only, no latencies.
	case k.Role == RoleProducer && (k.Agent == "" || f.due.Count() > 0):
		out = append(out, newLatencyMetric(descDue, f.due, l...), newLatencyMetric(descSend, f.send, l...))
	case k.Role == RoleConsumer && f.e2e.Count() > 0:
		out = append(out, newLatencyMetric(descE2E, f.e2e, l...))
	}
	st.cached, st.cachedAt, st.cachedOK = out, st.version, true
	return out
}

// collector exposes a Series. It describes nothing in advance (an unchecked collector): its
// label values come and go with the run's scenarios.
type collector struct{ s *Series }

func (collector) Describe(chan<- *prometheus.Desc) {}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	for _, k := range s.order {
		st, l := s.streams[k], k.values()
		f := st.counts()
		if k.Role == RoleProducer {
			counter(descSent, f.acked+f.failed, l...)
			counter(descAcked, f.acked, l...)
			counter(descFailed, f.failed, l...)
			counter(descUnsent, f.unsent, l...)
			counter(descAckBytes, f.bytes, l...)
			gauge(descOffered, st.offered, l...)
			gauge(descBuffered, float64(st.buffered), l...)
			gauge(descBufBytes, float64(st.bufferedBytes), l...)
		} else {
			counter(descConsumed, f.consumed, l...)
			counter(descConBytes, f.consumedBytes, l...)
		}
		gauge(descAchieved, st.achieved, l...)
		for _, m := range st.latencies(k) {
			ch <- m
		}
	}
	repeat := ""
	if s.status.Repeat > 0 {
		repeat = strconv.Itoa(s.status.Repeat)
	}
	gauge(descInfo, 1, s.status.Study, s.status.Scenario, repeat, s.status.Phase)
	gauge(descScenario, float64(s.status.Index))
	gauge(descScenarios, float64(s.status.Scenarios))
	gauge(descElapsed, time.Since(s.start).Seconds())
	ended := 0.0
	if s.status.Ended {
		ended = 1
	}
	gauge(descEnded, ended)
	if len(s.trials) > 0 {
		pass, fail := 0, 0
		for _, t := range s.trials {
			if t.Pass {
				pass++
			} else {
				fail++
			}
		}
		counter(descTrials, int64(pass), "pass")
		counter(descTrials, int64(fail), "fail")
		last := s.trials[len(s.trials)-1]
		gauge(descTrialRate, last.Offered)
		gauge(descTrialAch, last.Achieved)
		gauge(descTrialP99, last.P99/1000)
	}
	if len(s.marks) > 0 {
		counter(descFaults, int64(s.faults))
	}
	for _, outcome := range slices.Sorted(maps.Keys(s.verified)) {
		counter(descVerified, s.verified[outcome], outcome)
	}
	for _, b := range s.brokers {
		for _, f := range []struct {
			d *prometheus.Desc
			v *float64
			k float64
		}{{descBrokerCPU, b.CPUCores, 1}, {descBrokerPct, b.CPUPercent, 0.01}, {descBrokerW, b.DiskWrite, 1}} {
			if f.v != nil {
				gauge(f.d, *f.v*f.k, b.ID)
			}
		}
	}
}
