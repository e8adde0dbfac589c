package runner

import "time"

// consumeIdleTimeout stops the consumers once no record came for this long after the
// producers stopped (or, consume-only, after the last record).
const consumeIdleTimeout = 5 * time.Second

// consumeJoinTimeout is how long consumers that have read nothing yet may take to join their
// group: the first group of a fresh cluster waits for __consumer_offsets to be created, which
// takes several seconds on a busy machine, so an idle timeout counted from their start would
// end them before they read anything. It is also the consumers' own idle timeout, a safety
// net should the drain not stop them.
const consumeJoinTimeout = time.Minute

// drainIdle is how long a repeat's consumers may read nothing new, once the producers
// finished, before the drain stops them (records lost or never acknowledged).
func drainIdle(read int64) time.Duration {
	if read == 0 {
		return consumeJoinTimeout
	}
	return consumeIdleTimeout
}
