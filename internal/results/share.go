package results

// Share is what a repeat's share consumers (KIP-932) were delivered and how they
// acknowledged it.
type Share struct {
	Group           string `json:"share_group"`
	Consumers       int    `json:"consumers"`
	Acknowledgement string `json:"acknowledgement"`
	// Release and Reject are the shares of deliveries the study asked to release and reject.
	Release float64 `json:"release,omitempty"`
	Reject  float64 `json:"reject,omitempty"`
	// Delivered counts every delivery; Distinct the records delivered at least once;
	// Redelivered the deliveries with a delivery count above 1, of which Unreleased were of
	// records no consumer released (an acquisition lock expired, or its holder left).
	Delivered        int64 `json:"delivered"`
	Distinct         int64 `json:"distinct"`
	Redelivered      int64 `json:"redelivered"`
	Unreleased       int64 `json:"redelivered_unreleased"`
	MaxDeliveryCount int32 `json:"max_delivery_count"`
	// Accepted, Released and Rejected count the acknowledgements by kind.
	Accepted int64 `json:"accepted"`
	Released int64 `json:"released"`
	Rejected int64 `json:"rejected"`
	// RecordsPerSec and MiBPerSec are deliveries over the consumers' run.
	RecordsPerSec float64 `json:"records_per_sec"`
	MiBPerSec     float64 `json:"mib_per_sec"`
}

// RedeliveredShare is Redelivered over Delivered (0 with none delivered).
func (s *Share) RedeliveredShare() float64 {
	if s.Delivered == 0 {
		return 0
	}
	return float64(s.Redelivered) / float64(s.Delivered)
}
