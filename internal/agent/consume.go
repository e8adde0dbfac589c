package agent

import "time"

// consumeIdle is how long an agent's consumers may read nothing new, once its producers
// are done, before it stops waiting for the rest (which then show as not consumed).
const consumeIdle = 10 * time.Second

// consumeTick is how often the consumers report their count, so the drain ends promptly.
const consumeTick = 100 * time.Millisecond

// drainIdle is the agent's drain rule: consumeIdle whatever was read.
func drainIdle(int64) time.Duration { return consumeIdle }
