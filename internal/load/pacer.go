package load

import (
	"math"
	"time"
)

// Pacer is a constant-rate schedule: record n (counting from 0) is due n/Rate seconds after the
// start. It is a pure function of its arguments: it reads no clock and never sleeps; the caller
// owns time. A Rate of 0 or less means unlimited: every record is due at once.
type Pacer struct {
	// Rate is records per second.
	Rate float64
}

// Due returns when record n is due, as an offset from the start.
func (p Pacer) Due(n int64) time.Duration {
	if p.Rate <= 0 || n <= 0 {
		return 0
	}
	d := float64(n) / p.Rate * float64(time.Second)
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d)
}

// Wait returns how long to wait, elapsed after the start with sent records already sent,
// before the next record is due; 0 when it is due already (the producer is behind schedule).
func (p Pacer) Wait(elapsed time.Duration, sent int64) time.Duration {
	if w := p.Due(sent) - elapsed; w > 0 {
		return w
	}
	return 0
}
