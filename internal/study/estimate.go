package study

import "time"

// Assumptions behind EstimatedDuration. They describe a small machine; the estimate is a
// guide for planning, not a promise.
const (
	// EstimateClusterStart is the time to start an embedded cluster.
	EstimateClusterStart = 20 * time.Second
	// EstimateClusterStop is the time to stop an embedded cluster before the next shape's.
	EstimateClusterStop = 5 * time.Second
	// EstimateTopicSetup is the time to create and delete a scenario's topic.
	EstimateTopicSetup = 3 * time.Second
	// EstimateBytesPerSec is the throughput assumed for record-count scenarios without a
	// rate limit: 20 MiB/s.
	EstimateBytesPerSec = 20 << 20
)

// EstimatedDuration estimates the wall time of the whole study: the embedded cluster's
// start and warm-up (the warm-up at its bound, cluster.jit_warmup; once per cluster
// shape, each cluster but the last stopped before the next starts), then for every
// scenario and repeat the topic setup, warm-up, measured window, capacity search (at most
// its max trials at full length) and cool-down.
func (p *Plan) EstimatedDuration() time.Duration {
	var total time.Duration
	if p.Cluster.External == nil {
		total += p.ClusterOverhead()
	}
	for _, s := range p.Scenarios {
		total += time.Duration(p.Repeats) * p.scenarioDuration(s)
	}
	return total
}

// ClusterOverhead estimates the time spent starting, warming and stopping embedded
// clusters: one per cluster shape. Zero for an external cluster.
func (p *Plan) ClusterOverhead() time.Duration {
	if p.Cluster.External != nil {
		return 0
	}
	n := time.Duration(max(len(p.ShapeGroups()), 1))
	return n*(EstimateClusterStart+p.Cluster.JITWarmup) + (n-1)*EstimateClusterStop
}

// GroupDuration estimates one shape group: its cluster's start and warm-up and its
// scenarios' repeats (the stop before the next group is not included).
func (p *Plan) GroupDuration(g ShapeGroup) time.Duration {
	d := EstimateClusterStart + p.Cluster.JITWarmup
	for _, i := range g.Indexes {
		d += time.Duration(p.Repeats) * p.scenarioDuration(p.Scenarios[i])
	}
	return d
}

// ScenarioDuration estimates one repeat of a scenario, warm-up and cool-down included.
func (p *Plan) ScenarioDuration(s Scenario) time.Duration { return p.scenarioDuration(s) }

func (p *Plan) scenarioDuration(s Scenario) time.Duration {
	return EstimateTopicSetup + p.Warmup + s.MeasuredDuration() + s.Capacity.SearchDuration(p.Warmup) + s.Verify.Estimate() + p.Cooldown
}

// MeasuredDuration estimates the measured window of one repeat: the given duration, or
// the record count at the target rate (or at EstimateBytesPerSec when unlimited). A
// consume-only scenario adds the unmeasured fill of its topic.
func (s Scenario) MeasuredDuration() time.Duration {
	var d time.Duration
	if s.Producers.Count > 0 {
		d = loadDuration(s.Producers.Records, s.Producers.Duration, s.Producers.PacedRate(), s.Producers.RecordSize)
	}
	if s.Consumers.Count > 0 {
		c := loadDuration(s.Consumers.Records, s.Consumers.Duration, 0, s.Producers.RecordSize)
		if s.Producers.Count == 0 {
			c *= 2 // the fill, then the read
		}
		d = max(d, c)
	}
	return d
}

func loadDuration(records int64, d time.Duration, rate, size int) time.Duration {
	if records == 0 {
		return d
	}
	perSec := float64(EstimateBytesPerSec) / float64(max(size, 1))
	if rate > 0 && float64(rate) < perSec {
		perSec = float64(rate)
	}
	return time.Duration(float64(records) / perSec * float64(time.Second)).Round(time.Second)
}
