package runner

import (
	"fmt"

	"github.com/kbench/kbench/internal/results"
)

// maxUnsentShare is the share of a repeat's acknowledged records that may go unsent (aborted
// unacknowledged once the run stopped waiting for them) in a valid repeat. At 0.1%, even if
// every unsent record had been acknowledged slower than all the others, the reported p99 is
// still between the true p98.9 and p99.1 (the true p99 is the record of rank 0.99(a+u) <=
// 0.991a of the a acknowledged ones) and the records/s is off by at most 0.1%; more unsent
// records hide a stall.
const maxUnsentShare = 0.001

// records accounts for every record of the repeat, warm-up included: acknowledged, failed,
// unsent, and consumed where the scenario consumes. filled is a consume-only scenario's fill.
func (m *measurement) records(filled int64) *results.Records {
	r := &results.Records{}
	switch {
	case m.prod != nil:
		p := m.prod
		r.Acked, r.Failed, r.Unsent, r.AckedAfterEnd = p.Total.Acked, p.Total.Failed, p.Unsent, p.Drained
		r.Hidden = m.hidden
	case m.consumeOnly:
		r.Acked = filled
	}
	if m.cons != nil {
		c := m.cons.Records - m.cons.Rereads
		r.Consumed, r.Reread = &c, m.cons.Rereads
	}
	return r
}

// accountingReasons says why a repeat's record counts make it invalid: too many unsent
// records, or consumers that did not read exactly what the cluster acknowledged.
func accountingReasons(r *results.Records) []string {
	var reasons []string
	if r.Unsent > 0 && float64(r.Unsent) > maxUnsentShare*float64(r.Acked) {
		reasons = append(reasons, fmt.Sprintf("%d records unsent (aborted unacknowledged when the run stopped waiting for them), more than %g%% of the %d acknowledged",
			r.Unsent, maxUnsentShare*100, r.Acked))
	}
	if r.Consumed == nil {
		return reasons
	}
	c := *r.Consumed
	// Records of aborted transactions are acknowledged, and hidden from read_committed
	// consumers.
	visible := r.Acked - r.Hidden
	// Failed and unsent records may still have reached the topic (a request whose response
	// was lost), so with some of them the consumers may read up to that many more.
	spare := r.Failed + r.Unsent
	switch {
	case c < visible:
		reasons = append(reasons, fmt.Sprintf("%d acknowledged records were not consumed (%d of %d read)", visible-c, c, visible))
	case c > visible+spare && spare == 0:
		reasons = append(reasons, fmt.Sprintf("%d records consumed that were never acknowledged (%d read, %d acknowledged)", c-visible, c, visible))
	case c > visible+spare:
		reasons = append(reasons, fmt.Sprintf("%d records consumed beyond the %d acknowledged and %d failed or unsent", c-visible-spare, visible, spare))
	}
	return reasons
}
