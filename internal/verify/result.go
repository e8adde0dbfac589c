package verify

import (
	"fmt"
	"strconv"

	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/numfmt"
	"github.com/kbench/kbench/internal/results"
)

// Result is the outcome of a verify run. Record converts it to verify.json's form, which
// --json prints too.
type Result struct {
	// Run identifies the run: its records carry it, so a read-back tells them from others'.
	Run uint64
	// Cluster says which cluster was verified.
	Cluster string
	// The settings applied: the topic and its configs, the producers and their effective
	// client properties, the load.
	Topic        string
	Partitions   int
	Replicas     int
	TopicConfigs map[string]string
	// EffectiveTopicConfigs are min.insync.replicas and unclean.leader.election.enable as
	// the cluster applied them to the topic (read back after creating it), set or default.
	EffectiveTopicConfigs map[string]string
	Producers             int
	Rate                  float64
	DurationSeconds       float64
	ProducerSettings      map[string]string
	// Transactions counts a transactional run's transactions (nil otherwise).
	Transactions *TransactionTotals
	// Totals counts the records by outcome; Counts the anomalies, Examples a few of each.
	Totals   Totals
	Counts   Counts
	Examples Examples
	Read     ReadStats
	// Faults, the phases around them and how soon writes resumed after each; Rows the
	// per-second timeline.
	FaultPlan *faults.Plan
	// FaultsCutShort says why fewer faults were applied than planned, "" when all were.
	FaultsCutShort string
	Faults         []faults.Event
	FaultPhases    []faults.Phase
	Phases         []PhaseStats
	Recoveries     []Recovery
	Rows           []Row
	// Files are the history files beside verify.json, from which the counts can be
	// recomputed.
	Files []string
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

// Record is the result as the run directory's verify.json and kbench verify --json keep
// it: the one conversion from verify's and faults' types to results'.
func (r *Result) Record() *results.Verify {
	out := &results.Verify{Version: results.VerifyVersion, Run: r.Run, Cluster: r.Cluster, Topic: r.Topic,
		Partitions: r.Partitions, Replicas: r.Replicas, TopicConfigs: r.TopicConfigs,
		EffectiveTopicConfigs: r.EffectiveTopicConfigs, Producers: r.Producers, Rate: r.Rate,
		DurationSeconds: r.DurationSeconds, ProducerSettings: r.ProducerSettings,
		Totals: results.VerifyTotals(r.Totals), Counts: results.VerifyCounts(r.Counts),
		Examples: results.VerifyExamples{
			Lost:                  convertAll(r.Examples.Lost, toVerifyExample),
			Duplicated:            convertAll(r.Examples.Duplicated, toVerifyExample),
			Reordered:             convertAll(r.Examples.Reordered, toVerifyExample),
			Inconsistent:          convertAll(r.Examples.Inconsistent, toVerifyExample),
			Unexpected:            convertAll(r.Examples.Unexpected, toVerifyExample),
			UnacknowledgedPresent: convertAll(r.Examples.UnacknowledgedPresent, toVerifyExample),
			AbortedVisible:        convertAll(r.Examples.AbortedVisible, toVerifyExample),
		},
		Read:           results.VerifyRead(r.Read),
		FaultsCutShort: r.FaultsCutShort,
		Faults:         convertAll(r.Faults, toFaultEvent),
		FaultPhases:    convertAll(r.FaultPhases, func(p faults.Phase) results.FaultPhase { return results.FaultPhase(p) }),
		Phases:         convertAll(r.Phases, func(p PhaseStats) results.VerifyPhase { return results.VerifyPhase(p) }),
		Recoveries: convertAll(r.Recoveries, func(rec Recovery) results.VerifyRecovery {
			return results.VerifyRecovery{Fault: toFaultEvent(rec.Fault), InjectedAt: rec.InjectedAt,
				AppliedAt: rec.AppliedAt, ResumedAfter: rec.ResumedAfter}
		}),
		Rows:  convertAll(r.Rows, func(row Row) results.VerifyRow { return results.VerifyRow(row) }),
		Files: r.Files,
	}
	if r.Transactions != nil {
		t := results.VerifyTransactions(*r.Transactions)
		out.Transactions = &t
	}
	if p := r.FaultPlan; p != nil {
		out.FaultPlan = &results.FaultPlan{Spec: p.Spec, Steps: convertAll(p.Steps, func(s faults.Step) results.FaultStep {
			return results.FaultStep{At: s.At, Action: string(s.Action), Role: string(s.Role), Partition: s.Partition,
				Hold: s.Hold, Lag: s.Lag}
		})}
	}
	return out
}

func toVerifyExample(e Example) results.VerifyExample { return results.VerifyExample(e) }

func toFaultEvent(e faults.Event) results.FaultEvent { return results.FaultEvent(e) }

// convertAll converts each element of in; nil stays nil, so a field that verify.json
// writes as null when unset still does.
func convertAll[T, U any](in []T, convert func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = convert(v)
	}
	return out
}

func n(v int64) string { return numfmt.Digits(strconv.FormatInt(v, 10)) }
