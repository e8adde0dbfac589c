package verify

import (
	"fmt"
	"strconv"

	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/numfmt"
)

// ResultVersion is the version of verify.json's format.
const ResultVersion = 1

// Result is the outcome of a verify run, written as verify.json and printed by --json.
type Result struct {
	Version int    `json:"version"`
	Run     uint64 `json:"run"`
	// Cluster says which cluster was verified.
	Cluster string `json:"cluster,omitempty"`
	// The settings applied: the topic and its configs, the producers and their effective
	// client properties, the load.
	Topic        string            `json:"topic"`
	Partitions   int               `json:"partitions"`
	Replicas     int               `json:"replicas"`
	TopicConfigs map[string]string `json:"topic_configs"`
	// EffectiveTopicConfigs are min.insync.replicas and unclean.leader.election.enable as
	// the cluster applied them to the topic (read back after creating it), set or default.
	EffectiveTopicConfigs map[string]string `json:"effective_topic_configs,omitempty"`
	Producers             int               `json:"producers"`
	Rate                  float64           `json:"rate"`
	DurationSeconds       float64           `json:"duration_seconds"`
	ProducerSettings      map[string]string `json:"producer_settings"`
	// Transactions counts a transactional run's transactions (nil otherwise).
	Transactions *TransactionTotals `json:"transactions,omitempty"`
	// Totals counts the records by outcome; Counts the anomalies, Examples a few of each.
	Totals   Totals    `json:"totals"`
	Counts   Counts    `json:"counts"`
	Examples Examples  `json:"examples"`
	Read     ReadStats `json:"read_back"`
	// Faults, the phases around them and how soon writes resumed after each; Rows the
	// per-second timeline.
	FaultPlan *faults.Plan `json:"fault_plan,omitempty"`
	// FaultsCutShort says why fewer faults were applied than planned, "" when all were.
	FaultsCutShort string         `json:"faults_cut_short,omitempty"`
	Faults         []faults.Event `json:"faults,omitempty"`
	FaultPhases    []faults.Phase `json:"fault_phases,omitempty"`
	Phases         []PhaseStats   `json:"phases,omitempty"`
	Recoveries     []Recovery     `json:"recoveries,omitempty"`
	Rows           []Row          `json:"rows"`
	// Files are the history files beside verify.json, from which the counts can be
	// recomputed.
	Files []string `json:"files,omitempty"`
}

// Clean reports whether no anomaly was found.
func (r *Result) Clean() bool { return r.Counts.Anomalies() == 0 }

// Verdict is the final line: the anomalies and the acknowledged records they are out of.
func (r *Result) Verdict() string {
	c := r.Counts
	v := fmt.Sprintf("lost %s, duplicated %s, reordered %s, inconsistent %s, unexpected %s", n(c.Lost), n(c.Duplicated),
		n(c.Reordered), n(c.Inconsistent), n(c.Unexpected))
	if r.Transactions != nil {
		v += fmt.Sprintf(", aborted but visible %s", n(c.AbortedVisible))
	}
	return v + fmt.Sprintf(" (of %s acknowledged)", n(r.Totals.Acked))
}

// Accounting is the line before the verdict: every record sent, by outcome, and the
// unacknowledged records found present.
func (r *Result) Accounting() string {
	t := r.Totals
	a := fmt.Sprintf("%s sent: %s acknowledged, %s failed, %s unsent; %s unacknowledged but present; %s read back",
		n(t.Sent), n(t.Acked), n(t.Failed), n(t.Unsent), n(r.Counts.UnacknowledgedPresent), n(r.Read.Records))
	if r.Transactions != nil {
		a += fmt.Sprintf(" (read_committed); %s; %s acknowledged records hidden by their aborted transaction", r.Transactions, n(r.Counts.Hidden))
	}
	return a
}

func n(v int64) string { return numfmt.Digits(strconv.FormatInt(v, 10)) }
