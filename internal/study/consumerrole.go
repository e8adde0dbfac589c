package study

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/stats"
)

// acknowledgementChoices are the share consumers' acknowledgement modes, as Java's
// share.acknowledgement.mode names them.
var acknowledgementChoices = []string{"implicit", "explicit"}

// minBacklog is the smallest catch-up backlog: below a second of a modest producer's
// output the drain is too short to time.
const minBacklog = 1 << 20

func parseBacklog(v string) (int64, error) {
	n, err := ParseSize(v)
	if err == nil && n < minBacklog {
		err = fmt.Errorf("backlog %s is less than 1MiB, too short a drain to time", v)
	}
	return n, err
}

func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
}

// parseDeliveryShare parses a share of deliveries from 0 to below 1, such as 1% or 0.01.
func parseDeliveryShare(v string) (float64, error) {
	if f, ok := stats.ParseFraction(v); ok {
		return f, nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
		return 0, nil
	}
	return 0, fmt.Errorf("%q is not a share of deliveries from 0 to below 1, such as 1%% or 0.01", v)
}

// validateConsumerRole checks the catch-up and share-group fields against the rest of the
// scenario.
func validateConsumerRole(s Scenario, fail func(path, format string, args ...any) error) error {
	c, p := s.Consumers, s.Producers
	if c.Backlog > 0 {
		switch {
		case c.Count == 0:
			return fail("consumers.backlog", "a backlog is read by consumers; set consumers.count")
		case p.Count == 0:
			return fail("consumers.backlog", "a catch-up read drains a backlog while producers keep writing; set producers.count (a consume-only scenario reads a filled topic instead)")
		case p.PacedRate() == 0:
			return fail("consumers.backlog", "the consumers can only catch up with paced producers; set producers.rate")
		case p.Duration == 0:
			return fail("consumers.backlog", "a catch-up read needs producers.duration (the producers keep their rate through the drain), not producers.records")
		}
		perSec := float64(p.PacedRate()) * float64(p.RecordSize)
		build := time.Duration(float64(c.Backlog) / perSec * float64(time.Second))
		if build >= p.Duration {
			return fail("consumers.backlog", "%s of backlog takes %s to write at %d records/s of %d bytes, longer than producers.duration %s: lengthen it past the build and the drain",
				FormatSize(c.Backlog), build.Round(time.Second), p.PacedRate(), p.RecordSize, p.Duration)
		}
	}
	if !c.Share {
		for _, f := range []struct {
			path string
			set  bool
		}{{"consumers.acknowledgement", c.Acknowledgement != ""}, {"consumers.release", c.Release > 0}, {"consumers.reject", c.Reject > 0}} {
			if f.set {
				return fail(f.path, "%s applies to share consumers; set consumers.share_group: true", f.path)
			}
		}
		return nil
	}
	switch {
	case c.Release+c.Reject >= 1:
		return fail("consumers.release", "release %g and reject %g add up to all deliveries or more", c.Release, c.Reject)
	case c.Acknowledgement == "implicit" && c.Release+c.Reject > 0:
		return fail("consumers.acknowledgement", "releasing or rejecting records needs acknowledgement: explicit")
	case c.Group != "":
		return fail("consumers.group", "share consumers get a share group kbench creates per repeat and deletes after; consumers.group names a consumer group")
	case c.Release > 0 && p.Count > 0:
		// The drain counts deliveries; released records are delivered twice.
		return fail("consumers.release", "released records are delivered again, so only a consume-only scenario (consumers.records, no producers) knows when every record came")
	}
	if err := settings.CheckShare(c.Properties); err != nil {
		path := "consumers.properties"
		if se := (*settings.Error)(nil); errors.As(err, &se) {
			path += "." + se.Property
		}
		return fail(path, "%v", err)
	}
	return nil
}
