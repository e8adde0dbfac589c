package study

// validateEvents checks a scenario's membership events: they act on its consumers while its
// producers keep a backlog coming (a pause is the time a waiting record was not delivered),
// so they need both, producers that run for a duration, and every event inside it.
func validateEvents(s Scenario, fail func(path, format string, args ...any) error) error {
	events := s.Consumers.Events
	if len(events) == 0 {
		return nil
	}
	switch {
	case s.Consumers.Count == 0:
		return fail("consumers.events", "membership events need consumers: set consumers.count")
	case s.Producers.Count == 0 || s.Producers.Records > 0:
		return fail("consumers.events", "membership events need producers that run for a duration (producers.duration), so every partition has records waiting")
	}
	if last := events[len(events)-1]; last.At >= s.Producers.Duration {
		return fail("consumers.events", "event %s is not within the %v the producers run", last, s.Producers.Duration)
	}
	return nil
}
