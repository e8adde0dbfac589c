package verify

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/faults"
)

// fullResult has every field of a Result set, and every nested field non-zero in at least
// one entry, so a field lost on the way to verify.json shows in the format test.
func fullResult() *Result {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	kill := faults.Event{Step: 0, Kind: "leader-kill", Broker: 2, Partition: 1, Detail: "SIGKILL broker 2 (pid 4242), leader of t-1",
		At: at(10000), Applied: at(10250), HealAt: at(15000), HealedAt: at(16500), HealDetail: "restarted broker 2 (pid 4300)"}
	// Not healed yet: no heal times.
	truncate := faults.Event{Step: 1, Kind: "truncate", Broker: 3, Partition: 0, Detail: "SIGSTOP broker 3 (pid 4343), follower of t-0",
		At: at(20000), Applied: at(20000)}
	example := func(producer int32, seq int64, detail string) Example {
		return Example{Producer: producer, Seq: seq, Partition: 1, Offset: 100 + seq, Detail: detail}
	}
	return &Result{
		Run:                   42,
		Cluster:               "embedded",
		Topic:                 "kbench-verify-t",
		Partitions:            3,
		Replicas:              3,
		TopicConfigs:          map[string]string{"min.insync.replicas": "2", "unclean.leader.election.enable": "false"},
		EffectiveTopicConfigs: map[string]string{"min.insync.replicas": "2", "unclean.leader.election.enable": "false"},
		Producers:             2,
		Rate:                  1000.5,
		DurationSeconds:       30,
		ProducerSettings:      map[string]string{"acks": "all", "sasl.jaas.config": "[redacted]"},
		Transactions: &TransactionTotals{LengthMs: 100, AbortShare: 0.1, Committed: 270, Aborted: 30,
			AbortedRecords: 1500},
		Totals: Totals{Sent: 30000, Acked: 29000, Failed: 700, Unsent: 250, InFlight: 50,
			Errors: map[string]int64{"NOT_LEADER_OR_FOLLOWER": 600, "REQUEST_TIMED_OUT": 100}},
		Counts: Counts{Lost: 1, Duplicated: 2, Reordered: 3, Inconsistent: 4, Unexpected: 5, UnacknowledgedPresent: 6,
			AbortedVisible: 7, Hidden: 8},
		Examples: Examples{
			Lost:                  []Example{example(0, 1, "acknowledged, never read")},
			Duplicated:            []Example{example(0, 2, "read 2 times")},
			Reordered:             []Example{example(1, 3, "read after seq 4")},
			Inconsistent:          []Example{example(1, 4, "offset holds producer 0 seq 9")},
			Unexpected:            []Example{{Producer: -1, Seq: 5, Partition: 2, Offset: 7, Detail: "not a record of this run"}},
			UnacknowledgedPresent: []Example{example(0, 6, "failed, yet read")},
			AbortedVisible:        []Example{example(1, 7, "aborted, yet read"), example(1, 8, "")},
		},
		Read: ReadStats{Records: 29010, Rounds: 2, Start: map[int32]int64{0: 0, 1: 0, 2: 5},
			End: map[int32]int64{0: 9700, 1: 9600, 2: 9715}, Seconds: 1.25},
		FaultPlan: &faults.Plan{Steps: []faults.Step{
			{At: 10 * time.Second, Action: faults.Kill, Role: faults.Leader, Partition: 1, Hold: 5 * time.Second},
			{At: 20 * time.Second, Action: faults.Truncate, Role: faults.Follower, Partition: 0, Hold: 3 * time.Second,
				Lag: 1500 * time.Millisecond},
		}, Spec: "leader-kill at 10s heal 5s; truncate at 20s"},
		FaultsCutShort: "the load ended before the fault plan: 2 of 3 faults applied",
		Faults:         []faults.Event{kill, truncate},
		FaultPhases: []faults.Phase{
			{Name: faults.PhaseSteady, Start: start, End: at(10000), Fault: -1},
			{Name: faults.PhaseInject, Start: at(10000), End: at(10250), Fault: 0},
			{Name: faults.PhaseImpact, Start: at(10250), End: at(15000), Fault: 0},
		},
		Phases: []PhaseStats{{Phase: faults.PhaseSteady, Seconds: 10, Acked: 10000},
			{Phase: faults.PhaseImpact, Seconds: 5, Acked: 3000, Failed: 700}},
		Recoveries: []Recovery{{Fault: kill, InjectedAt: 10, AppliedAt: 10.25, ResumedAfter: 1.75},
			{Fault: truncate, InjectedAt: 20, AppliedAt: 20, ResumedAfter: -1}},
		Rows: []Row{{At: 1, Seconds: 1, Acked: 1000, Failed: 0, P50Ms: 2.5, P99Ms: 9.75},
			{At: 2, Seconds: 1, Acked: 400, Failed: 12, P50Ms: 30, P99Ms: 1200.5}},
		Files: []string{"acks.tsv.gz", "reads.tsv.gz", "unacknowledged.tsv.gz", "aborted.tsv.gz"},
	}
}

// TestResultRecordKeepsFormat pins verify.json's bytes: the record of a fully populated
// result, and of a minimal one (every omitempty field left out), encode as they always have.
func TestResultRecordKeepsFormat(t *testing.T) {
	minimal := &Result{Run: 7, Topic: "kbench-verify-t",
		Totals: Totals{Sent: 10, Acked: 9, Failed: 1}}
	for _, tt := range []struct {
		name string
		res  *Result
		want string
	}{
		{"full", fullResult(), wantFull},
		{"minimal", minimal, wantMinimal},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.MarshalIndent(tt.res.Record(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if got := string(b); got != tt.want {
				t.Errorf("verify.json changed:\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// wantFull is verify.json of fullResult, as kbench has always written it.
const wantFull = `{
  "version": 1,
  "run": 42,
  "cluster": "embedded",
  "topic": "kbench-verify-t",
  "partitions": 3,
  "replicas": 3,
  "topic_configs": {
    "min.insync.replicas": "2",
    "unclean.leader.election.enable": "false"
  },
  "effective_topic_configs": {
    "min.insync.replicas": "2",
    "unclean.leader.election.enable": "false"
  },
  "producers": 2,
  "rate": 1000.5,
  "duration_seconds": 30,
  "producer_settings": {
    "acks": "all",
    "sasl.jaas.config": "[redacted]"
  },
  "transactions": {
    "length_ms": 100,
    "abort_share": 0.1,
    "committed": 270,
    "aborted": 30,
    "aborted_records": 1500
  },
  "totals": {
    "sent": 30000,
    "acknowledged": 29000,
    "failed": 700,
    "unsent": 250,
    "in_flight": 50,
    "errors": {
      "NOT_LEADER_OR_FOLLOWER": 600,
      "REQUEST_TIMED_OUT": 100
    }
  },
  "counts": {
    "lost": 1,
    "duplicated": 2,
    "reordered": 3,
    "inconsistent": 4,
    "unexpected": 5,
    "unacknowledged_present": 6,
    "aborted_visible": 7,
    "hidden": 8
  },
  "examples": {
    "lost": [
      {
        "producer": 0,
        "seq": 1,
        "partition": 1,
        "offset": 101,
        "detail": "acknowledged, never read"
      }
    ],
    "duplicated": [
      {
        "producer": 0,
        "seq": 2,
        "partition": 1,
        "offset": 102,
        "detail": "read 2 times"
      }
    ],
    "reordered": [
      {
        "producer": 1,
        "seq": 3,
        "partition": 1,
        "offset": 103,
        "detail": "read after seq 4"
      }
    ],
    "inconsistent": [
      {
        "producer": 1,
        "seq": 4,
        "partition": 1,
        "offset": 104,
        "detail": "offset holds producer 0 seq 9"
      }
    ],
    "unexpected": [
      {
        "producer": -1,
        "seq": 5,
        "partition": 2,
        "offset": 7,
        "detail": "not a record of this run"
      }
    ],
    "unacknowledged_present": [
      {
        "producer": 0,
        "seq": 6,
        "partition": 1,
        "offset": 106,
        "detail": "failed, yet read"
      }
    ],
    "aborted_visible": [
      {
        "producer": 1,
        "seq": 7,
        "partition": 1,
        "offset": 107,
        "detail": "aborted, yet read"
      },
      {
        "producer": 1,
        "seq": 8,
        "partition": 1,
        "offset": 108
      }
    ]
  },
  "read_back": {
    "records": 29010,
    "rounds": 2,
    "start_offsets": {
      "0": 0,
      "1": 0,
      "2": 5
    },
    "end_offsets": {
      "0": 9700,
      "1": 9600,
      "2": 9715
    },
    "seconds": 1.25
  },
  "fault_plan": {
    "steps": [
      {
        "at": 10000000000,
        "action": "kill",
        "role": "leader",
        "partition": 1,
        "hold": 5000000000
      },
      {
        "at": 20000000000,
        "action": "truncate",
        "role": "follower",
        "partition": 0,
        "hold": 3000000000,
        "lag": 1500000000
      }
    ],
    "spec": "leader-kill at 10s heal 5s; truncate at 20s"
  },
  "faults_cut_short": "the load ended before the fault plan: 2 of 3 faults applied",
  "faults": [
    {
      "step": 0,
      "kind": "leader-kill",
      "broker": 2,
      "partition": 1,
      "detail": "SIGKILL broker 2 (pid 4242), leader of t-1",
      "at": "2026-01-02T03:04:15Z",
      "applied": "2026-01-02T03:04:15.25Z",
      "heal_at": "2026-01-02T03:04:20Z",
      "healed_at": "2026-01-02T03:04:21.5Z",
      "heal_detail": "restarted broker 2 (pid 4300)"
    },
    {
      "step": 1,
      "kind": "truncate",
      "broker": 3,
      "partition": 0,
      "detail": "SIGSTOP broker 3 (pid 4343), follower of t-0",
      "at": "2026-01-02T03:04:25Z",
      "applied": "2026-01-02T03:04:25Z"
    }
  ],
  "fault_phases": [
    {
      "name": "steady",
      "start": "2026-01-02T03:04:05Z",
      "end": "2026-01-02T03:04:15Z",
      "fault": -1
    },
    {
      "name": "inject",
      "start": "2026-01-02T03:04:15Z",
      "end": "2026-01-02T03:04:15.25Z",
      "fault": 0
    },
    {
      "name": "impact",
      "start": "2026-01-02T03:04:15.25Z",
      "end": "2026-01-02T03:04:20Z",
      "fault": 0
    }
  ],
  "phases": [
    {
      "phase": "steady",
      "seconds": 10,
      "acked": 10000,
      "failed": 0
    },
    {
      "phase": "impact",
      "seconds": 5,
      "acked": 3000,
      "failed": 700
    }
  ],
  "recoveries": [
    {
      "fault": {
        "step": 0,
        "kind": "leader-kill",
        "broker": 2,
        "partition": 1,
        "detail": "SIGKILL broker 2 (pid 4242), leader of t-1",
        "at": "2026-01-02T03:04:15Z",
        "applied": "2026-01-02T03:04:15.25Z",
        "heal_at": "2026-01-02T03:04:20Z",
        "healed_at": "2026-01-02T03:04:21.5Z",
        "heal_detail": "restarted broker 2 (pid 4300)"
      },
      "injected_at": 10,
      "applied_at": 10.25,
      "resumed_after": 1.75
    },
    {
      "fault": {
        "step": 1,
        "kind": "truncate",
        "broker": 3,
        "partition": 0,
        "detail": "SIGSTOP broker 3 (pid 4343), follower of t-0",
        "at": "2026-01-02T03:04:25Z",
        "applied": "2026-01-02T03:04:25Z"
      },
      "injected_at": 20,
      "applied_at": 20,
      "resumed_after": -1
    }
  ],
  "rows": [
    {
      "at": 1,
      "seconds": 1,
      "acked": 1000,
      "failed": 0,
      "p50_ms": 2.5,
      "p99_ms": 9.75
    },
    {
      "at": 2,
      "seconds": 1,
      "acked": 400,
      "failed": 12,
      "p50_ms": 30,
      "p99_ms": 1200.5
    }
  ],
  "files": [
    "acks.tsv.gz",
    "reads.tsv.gz",
    "unacknowledged.tsv.gz",
    "aborted.tsv.gz"
  ]
}`

// wantMinimal is verify.json of a result with only its run, topic and totals.
const wantMinimal = `{
  "version": 1,
  "run": 7,
  "topic": "kbench-verify-t",
  "partitions": 0,
  "replicas": 0,
  "topic_configs": null,
  "producers": 0,
  "rate": 0,
  "duration_seconds": 0,
  "producer_settings": null,
  "totals": {
    "sent": 10,
    "acknowledged": 9,
    "failed": 1,
    "unsent": 0
  },
  "counts": {
    "lost": 0,
    "duplicated": 0,
    "reordered": 0,
    "inconsistent": 0,
    "unexpected": 0,
    "unacknowledged_present": 0
  },
  "examples": {},
  "read_back": {
    "records": 0,
    "rounds": 0,
    "start_offsets": null,
    "end_offsets": null,
    "seconds": 0
  },
  "rows": null
}`
