package runner

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// resumedRun reads the incomplete run in dir; nil when dir is empty (a new run).
func resumedRun(dir string) (*results.Run, error) {
	if dir == "" {
		return nil, nil
	}
	rd, err := results.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	if rd.Run.Status.State == results.Complete {
		return nil, fmt.Errorf("resume %s: the run is already complete", dir)
	}
	return &rd.Run, nil
}

// resumeTarget points a resume at the cluster the run was on: the recorded bootstrap
// servers, command config and metrics URLs where the caller gave none, and the recorded
// rate cap. A different rate cap, or an external run resumed on an embedded cluster or the
// reverse, would mix two set-ups' figures in one run and is refused.
func resumeTarget(opts Options, prev *results.Run) (Options, error) {
	rec := prev.Target
	if rec.Bootstrap == "" && rec.ClusterID == "" {
		return opts, nil // recorded before the target was: nothing to check against
	}
	dir := opts.ResumeDir
	switch {
	case opts.MaxRate == 0:
		opts.MaxRate = rec.MaxRate
	case opts.MaxRate != rec.MaxRate:
		return opts, fmt.Errorf("resume %s: --max-rate %g differs from the run's %s; resume without --max-rate", dir, opts.MaxRate, rateCap(rec.MaxRate))
	}
	external := prev.Environment.Cluster == results.External
	if !external {
		if opts.External != nil {
			return opts, fmt.Errorf("resume %s: the run was on an embedded cluster; resume it without --bootstrap-server", dir)
		}
		return opts, nil
	}
	if opts.Cluster != nil {
		return opts, fmt.Errorf("resume %s: the run was on the external cluster at %s, not on an embedded one", dir, rec.Bootstrap)
	}
	if opts.External == nil {
		opts.External = &External{Bootstrap: rec.Bootstrap}
	} else {
		ext := *opts.External
		opts.External = &ext
	}
	ext := opts.External
	if len(ext.MetricsURLs) == 0 {
		ext.MetricsURLs = rec.MetricsURLs
	}
	if ext.Properties == nil && ext.CommandConfig == "" && rec.CommandConfig != "" {
		props, err := cluster.ReadProperties(rec.CommandConfig)
		if err != nil {
			return opts, fmt.Errorf("resume %s: read the command config recorded in run.json: %w", dir, err)
		}
		ext.Properties, ext.CommandConfig = props, rec.CommandConfig
	}
	return opts, nil
}

func rateCap(r float64) string {
	if r == 0 {
		return "none"
	}
	return fmt.Sprintf("%g", r)
}

// checkSameCluster refuses to resume an external run on a cluster with another ID: its
// medians would mix two clusters' repeats.
func checkSameCluster(prev *results.Run, t *target) error {
	if prev == nil || prev.Environment.Cluster != results.External {
		return nil
	}
	want := prev.Target.ClusterID
	if want == "" || t.clusterID == want {
		return nil
	}
	return fmt.Errorf("resume: the cluster at %s has cluster ID %s, but the run measured cluster %s; resume it against the same cluster", t.bootstrap, t.clusterID, want)
}

// recordTarget is the run.json record of how the run reached its cluster.
func recordTarget(t *target, maxRate float64) results.Target {
	rec := results.Target{MaxRate: maxRate, ClusterID: t.clusterID}
	if ext := t.external; ext != nil {
		rec.Bootstrap, rec.CommandConfig = ext.Bootstrap, absPath(ext.CommandConfig)
		for _, u := range ext.MetricsURLs {
			rec.MetricsURLs = append(rec.MetricsURLs, withoutUserinfo(u))
		}
	}
	return rec
}

// withoutUserinfo drops a user:password from a URL: run.json never holds a secret.
func withoutUserinfo(raw string) string {
	prefix := ""
	if b, err := metrics.ParseBrokerURL(raw); err == nil {
		raw = b.URL
		if b.ID >= 0 {
			prefix = strconv.Itoa(b.ID) + "="
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return prefix + raw
	}
	u.User = nil
	return prefix + u.String()
}
