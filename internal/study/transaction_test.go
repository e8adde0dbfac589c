package study

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTransaction(t *testing.T) {
	plan, err := Parse("txn.yaml", []byte(`
name: txn
defaults:
  producers: {transaction_aborts: 10%, properties: {transaction.timeout.ms: 5000}}
  consumers: {count: 1, properties: {isolation.level: read_committed}}
matrix:
  transaction: [100ms, 2s]
scenarios:
  - {producers.transaction_records: 500}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Transaction{
		"transaction=100ms": {Length: 100 * time.Millisecond, AbortShare: 0.1},
		"transaction=2s":    {Length: 2 * time.Second, AbortShare: 0.1},
	}
	for _, sc := range plan.Scenarios {
		if w, ok := want[sc.ID]; ok && sc.Producers.Transaction != w {
			t.Errorf("%s: transaction %+v, want %+v", sc.ID, sc.Producers.Transaction, w)
		}
	}
	if last := plan.Scenarios[len(plan.Scenarios)-1]; last.Producers.Transaction != (Transaction{Records: 500, AbortShare: 0.1}) {
		t.Errorf("listed scenario: transaction %+v, want 500 records, 10%% aborted", last.Producers.Transaction)
	}
}

func TestParseTransactionErrors(t *testing.T) {
	tests := []struct {
		name, yaml, field, msg string
	}{
		{"not a duration", `producers: {transaction: soon}`, "defaults.producers.transaction", `"soon" is not none or a positive duration`},
		{"abort share of one", `producers: {transaction: 1s, transaction_aborts: 100%}`, "defaults.producers.transaction_aborts", "from 0 to below 1"},
		{"aborts without transactions", `producers: {transaction_aborts: 5%}`, "defaults.producers.transaction_aborts", "aborting transactions needs transactions"},
		{"timeout without transactions", `producers: {properties: {transaction.timeout.ms: 1000}}`,
			"defaults.producers.properties.transaction.timeout.ms", "applies to transactional producers only"},
		// 2 s is not shorter than the coordinator's 1000 ms limit.
		{"longer than the timeout", `producers: {transaction: 2s, properties: {transaction.timeout.ms: 1000}}`,
			"defaults.producers.transaction", "would outlive transaction.timeout.ms=1000"},
		// acks=1 turns the default idempotence off, which a transaction cannot run without.
		{"acks=1", `producers: {transaction: 100ms, properties: {acks: "1"}}`, "defaults.producers.transaction", "transactions need an idempotent producer"},
		{"explicit idempotence off", `producers: {transaction_records: 10, properties: {enable.idempotence: false}}`,
			"defaults.producers.transaction_records", "transactions need an idempotent producer"},
		{"consumers only", "producers: {count: 0, transaction: 1s}\n  consumers: {count: 1, records: 10}", "defaults.producers.transaction",
			"transactions are the producers'; this scenario has none"},
		{"aborts under a capacity search with consumers", "producers: {transaction: 100ms, transaction_aborts: 10%}\n  consumers: {count: 1}\n  capacity: {slo: {p99: 50ms}}",
			"defaults.producers.transaction_aborts", "a capacity search's consumers must read every acknowledged record"},
		{"transactional.id is kbench's", `producers: {properties: {transactional.id: mine}}`,
			"defaults.producers.properties.transactional.id", "set producers.transaction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("txn.yaml", []byte("name: txn\ndefaults:\n  "+tt.yaml+"\n"))
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error = %v, want a *study.Error", err)
			}
			if se.Field != tt.field || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error field %q: %s\nwant field %q: ...%s...", se.Field, se.Msg, tt.field, tt.msg)
			}
		})
	}
}
