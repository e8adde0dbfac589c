package study

import (
	"errors"
	"strings"
	"testing"
)

// TestConsumerRoleFields parses the catch-up and share-group fields and refuses their bad
// values and combinations with one line naming the field.
func TestConsumerRoleFields(t *testing.T) {
	const catchUp = `name: t
defaults:
  producers: {rate: 10000, record_size: 1KiB, duration: 2m}
  consumers: {count: 2, backlog: 100MiB}
`
	const share = `name: t
defaults:
  producers: {count: 0}
  consumers: {count: 6, records: 1000, share_group: true, release: 1%}
`
	plan, err := Parse("t.yaml", []byte(catchUp))
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Scenarios[0].Consumers.Backlog; got != 100<<20 {
		t.Errorf("backlog %d, want %d", got, 100<<20)
	}
	plan, err = Parse("t.yaml", []byte(share))
	if err != nil {
		t.Fatal(err)
	}
	if c := plan.Scenarios[0].Consumers; !c.Share || c.Release != 0.01 || c.Reject != 0 || c.Acknowledgement != "" {
		t.Errorf("share consumers %+v", c)
	}
	tests := []struct {
		name, from, to, field, msg string
	}{
		// 100 MiB at 10,000 records/s of 1 KiB is 10.24 s: by hand.
		{"build longer than the run", "duration: 2m", "duration: 10s", "defaults.consumers.backlog", "100MiB of backlog takes 10s to write at 10000 records/s of 1024 bytes, longer than producers.duration 10s"},
		{"backlog too small", "backlog: 100MiB", "backlog: 100KiB", "defaults.consumers.backlog", "less than 1MiB"},
		{"unpaced producers", "rate: 10000, ", "", "defaults.consumers.backlog", "set producers.rate"},
		{"records not duration", "duration: 2m", "records: 1000000", "defaults.consumers.backlog", "needs producers.duration"},
		{"not a size", "backlog: 100MiB", "backlog: lots", "defaults.consumers.backlog", `"lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRoleError(t, strings.Replace(catchUp, tt.from, tt.to, 1), tt.field, tt.msg)
		})
	}
	shareTests := []struct {
		name, from, to, field, msg string
	}{
		{"release with implicit acknowledgement", "release: 1%", "release: 1%, acknowledgement: implicit", "defaults.consumers.acknowledgement", "needs acknowledgement: explicit"},
		{"bad acknowledgement", "release: 1%", "acknowledgement: auto", "defaults.consumers.acknowledgement", `"auto" is not valid (valid: implicit, explicit)`},
		{"release and reject all", "release: 1%", "release: 60%, reject: 40%", "defaults.consumers.release", "add up to all deliveries"},
		{"share of 1 or more", "release: 1%", "reject: 150%", "defaults.consumers.reject", `"150%" is not a share of deliveries`},
		{"release without a share group", "share_group: true, ", "", "defaults.consumers.release", "set consumers.share_group: true"},
		{"a consumer group property", "release: 1%", "properties: {session.timeout.ms: 10000}", "defaults.consumers.properties.session.timeout.ms", "session.timeout.ms does not apply to a share consumer"},
		{"a named group", "release: 1%", "group: mine", "defaults.consumers.group", "consumers.group names a consumer group"},
		{"release while producing", "producers: {count: 0}", "producers: {count: 1, duration: 10s}", "defaults.consumers.release", "only a consume-only scenario"},
		{"not a boolean", "share_group: true", "share_group: maybe", "defaults.consumers.share_group", `"maybe" is not true or false`},
	}
	for _, tt := range shareTests {
		t.Run(tt.name, func(t *testing.T) {
			checkRoleError(t, strings.Replace(share, tt.from, tt.to, 1), tt.field, tt.msg)
		})
	}
}

func checkRoleError(t *testing.T, text, field, msg string) {
	t.Helper()
	_, err := Parse("t.yaml", []byte(text))
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v, want a *study.Error\n%s", err, text)
	}
	if se.Field != field || !strings.Contains(se.Msg, msg) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q (field %s), want field %s and %q on one line", err, se.Field, field, msg)
	}
}

// TestIDCharacters refuses at load a value a run directory could not be named after, with
// the way to write it.
func TestIDCharacters(t *testing.T) {
	text := `name: t
defaults:
  producers: {count: 0}
  consumers: {count: 6, records: 1000, share_group: true}
matrix:
  release: [0, 1%]
`
	checkRoleError(t, text, "matrix.release[1]", `"1%" may not contain "%": a scenario ID names a run directory, so values hold letters, digits, '.', '_', '+' and '-' (write 1% as 0.01)`)
	if _, err := Parse("t.yaml", []byte(strings.Replace(text, "1%", "0.01", 1))); err != nil {
		t.Errorf("0.01: %v", err)
	}
}
