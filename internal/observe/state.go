package observe

import (
	"maps"
	"strconv"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// Status is where the run stands, as the page shows it.
type Status struct {
	Study string `json:"study,omitempty"`
	// Group is the cluster group running (a study of several cluster shapes).
	Group     string `json:"group,omitempty"`
	Scenario  string `json:"scenario,omitempty"`
	Index     int    `json:"index"` // 1-based
	Scenarios int    `json:"scenarios"`
	Repeat    int    `json:"repeat"`
	Repeats   int    `json:"repeats"`
	Phase     string `json:"phase"`
	// ElapsedSeconds runs from the start of the run; ScenarioLeftSeconds is the estimate for
	// the repeat running (-1 unknown); StudyLeft the study's, as the terminal prints it.
	ElapsedSeconds      float64 `json:"elapsed_s"`
	ScenarioLeftSeconds float64 `json:"scenario_left_s"`
	StudyLeft           string  `json:"study_left,omitempty"`
	Ended               bool    `json:"ended"`
	Outcome             string  `json:"outcome,omitempty"`
	Report              string  `json:"report,omitempty"`
}

// Point is one tick of one role, as the page plots it.
type Point struct {
	Seq  int     `json:"seq"`
	T    float64 `json:"t"` // seconds since the run started
	Role string  `json:"role"`
	// Agent names the agent of a RoleAgent point.
	Agent string `json:"agent,omitempty"`
	// Offered and Achieved are records/s; Offered is 0 when unthrottled.
	Offered  float64 `json:"offered"`
	Achieved float64 `json:"achieved"`
	// P50, P99 and P999 are the interval's latency in ms: due-time for producers,
	// end-to-end for consumers; SendP99 the producers' send-time p99.
	P50     float64 `json:"p50_ms"`
	P99     float64 `json:"p99_ms"`
	P999    float64 `json:"p999_ms"`
	SendP99 float64 `json:"send_p99_ms,omitempty"`
	// Failed is the stream's failed records so far.
	Failed int64 `json:"failed"`
	// Lag is, on a consumer's point, the records acknowledged but not yet consumed.
	Lag *int64 `json:"lag,omitempty"`
	// BrokerCPU is the brokers' CPU in cores as last sampled; absent when unknown.
	BrokerCPU *float64 `json:"broker_cpu_cores,omitempty"`
	Warmup    bool     `json:"warmup,omitempty"`
}

// Trial is one capacity trial, as the ladder shows it.
type Trial struct {
	N        int     `json:"n"`
	Phase    string  `json:"phase"`
	Offered  float64 `json:"offered"`
	Achieved float64 `json:"achieved"`
	P99      float64 `json:"p99_ms"`
	Pass     bool    `json:"pass"`
}

// Mark is an event on the time axis: a fault injected or healed.
type Mark struct {
	T      float64 `json:"t"`
	Kind   string  `json:"kind"`
	Detail string  `json:"detail"`
}

// Broker is a broker's latest sampled figures.
type Broker struct {
	ID         string   `json:"id"`
	CPUCores   *float64 `json:"cpu_cores,omitempty"`
	CPUPercent *float64 `json:"cpu_pct,omitempty"`
	DiskWrite  *float64 `json:"disk_write_bytes_per_sec,omitempty"`
}

// State is what the page reads: the status, the points after a sequence number, the
// capacity trials, the brokers and the streams' totals.
type State struct {
	Status  Status   `json:"status"`
	Points  []Point  `json:"points"`
	Trials  []Trial  `json:"trials"`
	Brokers []Broker `json:"brokers"`
	Marks   []Mark   `json:"marks"`
	// Verified counts a verify run's records by outcome, once known.
	Verified map[string]int64 `json:"verified,omitempty"`
	// Unsent is the records handed over but never sent, over every stream (known at the end).
	Unsent int64 `json:"unsent"`
}

// Snapshot returns the state with the points after sequence number since (0: all).
func (s *Series) Snapshot(since int) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Status: s.status, Trials: append([]Trial{}, s.trials...), Brokers: append([]Broker{}, s.brokers...),
		Marks: append([]Mark{}, s.marks...), Verified: maps.Clone(s.verified)}
	st.Status.ElapsedSeconds = time.Since(s.start).Seconds()
	st.Status.ScenarioLeftSeconds = -1
	if left := s.scenario.Expected - time.Since(s.began); s.scenario.Expected > 0 && left > 0 && !s.status.Ended {
		st.Status.ScenarioLeftSeconds = left.Seconds()
	}
	first := len(s.points)
	for first > 0 && s.points[first-1].Seq > since {
		first--
	}
	st.Points = append([]Point{}, s.points[first:]...)
	for _, k := range s.order {
		st.Unsent += s.streams[k].done.unsent + s.streams[k].run.unsent
	}
	return st
}

// addPoint appends p, numbered and timed; s.mu is held.
func (s *Series) addPoint(p Point) {
	s.seq++
	p.Seq, p.T = s.seq, time.Since(s.start).Seconds()
	if total, ok := brokerCores(s.brokers); ok {
		p.BrokerCPU = &total
	}
	if len(s.points) == maxPoints {
		s.points = append(s.points[:0], s.points[maxPoints/2:]...)
	}
	s.points = append(s.points, p)
}

// setBrokers keeps each broker's latest figures from the sampler's series; s.mu is held.
func (s *Series) setBrokers(series *metrics.Series) {
	if series == nil {
		return
	}
	s.brokers = s.brokers[:0]
	for _, b := range series.Brokers {
		out := Broker{ID: strconv.Itoa(b.ID)}
		if n := len(b.Rows); n > 0 {
			v := b.Rows[n-1].Values
			out.CPUCores = value(v, metrics.FieldCPUCores)
			out.CPUPercent = value(v, metrics.FieldCPUPercent)
			out.DiskWrite = value(v, metrics.FieldDiskWriteBytesSec)
		}
		s.brokers = append(s.brokers, out)
	}
}

func brokerCores(brokers []Broker) (float64, bool) {
	total, known := 0.0, false
	for _, b := range brokers {
		if b.CPUCores != nil {
			total, known = total+*b.CPUCores, true
		}
	}
	return total, known
}

func value(v map[string]float64, field string) *float64 {
	if x, ok := v[field]; ok {
		return &x
	}
	return nil
}

func ms(us int64) float64 { return float64(us) / 1000 }
