package study

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/stats"
)

// Transaction is how a scenario's producers run transactions: each producer, under a
// transactional.id of kbench's own, commits a transaction once it is Length old or holds
// Records records, whichever comes first, and aborts a share of them on purpose.
type Transaction struct {
	// Length is a transaction's age at which it is committed (0: by Records only).
	Length time.Duration
	// Records is the records per transaction and producer (0: by Length only).
	Records int64
	// AbortShare is the share of transactions aborted instead of committed, as a failing
	// application would (0: none).
	AbortShare float64
}

// Enabled says whether the producers run transactions.
func (t Transaction) Enabled() bool { return t.Length > 0 || t.Records > 0 }

// String is the transaction in words for a workload line: "100ms transactions".
func (t Transaction) String() string {
	if !t.Enabled() {
		return "no transactions"
	}
	var parts []string
	if t.Length > 0 {
		parts = append(parts, t.Length.String())
	}
	if t.Records > 0 {
		parts = append(parts, fmt.Sprintf("%d records", t.Records))
	}
	s := strings.Join(parts, " or ") + " transactions"
	if t.AbortShare > 0 {
		s += fmt.Sprintf(", %g%% aborted", t.AbortShare*100)
	}
	return s
}

// parseTransactionLength parses producers.transaction: "none" (or 0) for no transactions,
// else a duration.
func parseTransactionLength(s string) (time.Duration, error) {
	if t := strings.TrimSpace(s); t == "none" || t == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not none or a positive duration such as 100ms", s)
	}
	return d, nil
}

// parseAbortShare parses producers.transaction_aborts: a share from 0 to below 1.
func parseAbortShare(s string) (float64, error) {
	if v, ok := stats.ParseFraction(s); ok {
		return v, nil
	}
	if t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")); t == "0" {
		return 0, nil
	}
	return 0, fmt.Errorf("%q is not a share of transactions from 0 to below 1, such as 10%% or 0.1", s)
}

// validateTransaction checks the transactions against the rest of the scenario: producers
// to run them, the properties a transactional producer needs, and a length within
// transaction.timeout.ms (the coordinator aborts a transaction older than it).
func validateTransaction(s Scenario, fail func(path, format string, args ...any) error) error {
	t := s.Producers.Transaction
	if !t.Enabled() {
		if t.AbortShare > 0 {
			return fail("producers.transaction_aborts", "aborting transactions needs transactions: set producers.transaction or producers.transaction_records")
		}
		if _, ok := s.Producers.Properties["transaction.timeout.ms"]; ok {
			return fail("producers.properties.transaction.timeout.ms", "transaction.timeout.ms applies to transactional producers only: set producers.transaction too")
		}
		return nil
	}
	path := "producers.transaction"
	if t.Length == 0 {
		path = "producers.transaction_records"
	}
	if s.Producers.Count == 0 {
		return fail(path, "transactions are the producers'; this scenario has none")
	}
	if t.AbortShare > 0 && s.Capacity.Enabled() && s.Consumers.Count > 0 {
		// A search's trial fails when its consumers read fewer records than were acknowledged.
		return fail("producers.transaction_aborts", "a capacity search's consumers must read every acknowledged record; with aborted transactions they cannot: drop the aborts or the consumers")
	}
	props := maps.Clone(s.Producers.Properties)
	props["transactional.id"] = "kbench" // a stand-in for the id kbench gives each producer
	r, err := settings.Resolve(settings.Producer, props)
	var se *settings.Error
	switch {
	case errors.As(err, &se) && se.Property == "transactional.id":
		return fail(path, "transactions need an idempotent producer (acks=all, retries > 0, 5 requests in flight); the scenario's producer properties turn idempotence off")
	case errors.As(err, &se):
		return fail("producers.properties."+se.Property, "%v", err)
	case err != nil:
		return fail(path, "%v", err)
	}
	if timeout := time.Duration(r.Int("transaction.timeout.ms")) * time.Millisecond; t.Length >= timeout {
		return fail(path, "a %v transaction would outlive transaction.timeout.ms=%d, after which the coordinator aborts it", t.Length, timeout.Milliseconds())
	}
	return nil
}
