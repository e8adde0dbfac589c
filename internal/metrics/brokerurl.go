package metrics

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// BrokerURL is one --metrics-url value (or a study's cluster.external.metrics_urls entry):
// [ID=]URL. Without an ID (ID < 0) the URL goes to the Nth broker, in node-id order, of the
// URLs given without one; every verb reads the flag this way.
type BrokerURL struct {
	ID  int
	URL string
}

// ParseBrokerURL parses [ID=]http(s)://host:port/path.
func ParseBrokerURL(v string) (BrokerURL, error) {
	b, raw := BrokerURL{ID: -1}, strings.TrimSpace(v)
	if before, after, ok := strings.Cut(raw, "="); ok && !strings.Contains(before, "/") {
		n, err := strconv.Atoi(before)
		if err != nil || n < 0 {
			return b, fmt.Errorf("%q: %q is not a broker id; want [ID=]http://host:port/metrics", v, before)
		}
		b.ID, raw = n, after
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return b, fmt.Errorf("%q: want [ID=]http://host:port/metrics", v)
	}
	b.URL = raw
	return b, nil
}

// ParseBrokerURLs parses every value; the first bad one is the error.
func ParseBrokerURLs(values []string) ([]BrokerURL, error) {
	out := make([]BrokerURL, 0, len(values))
	for _, v := range values {
		b, err := ParseBrokerURL(v)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// NeedIDs reports whether some URL has no ID, so pairing them needs the brokers' node ids.
func NeedIDs(urls []BrokerURL) bool {
	return slices.ContainsFunc(urls, func(b BrokerURL) bool { return b.ID < 0 })
}

// AssignBrokerURLs pairs the URLs with the brokers' node ids: a URL with an ID goes to that
// broker, the others to the remaining brokers in node-id order. It returns one target per
// broker (those without a URL have none). ids may be empty when every URL has an ID.
func AssignBrokerURLs(ids []int, urls []BrokerURL) ([]BrokerTarget, error) {
	ids = slices.Sorted(slices.Values(ids))
	if len(ids) == 0 {
		for _, u := range urls {
			ids = append(ids, u.ID)
		}
		slices.Sort(ids)
	}
	byID := map[int]string{}
	var unnamed []string
	for _, u := range urls {
		switch {
		case u.ID < 0:
			unnamed = append(unnamed, u.URL)
		case !slices.Contains(ids, u.ID):
			return nil, fmt.Errorf("%d=%s: the cluster has no broker %d (node ids %s)", u.ID, u.URL, u.ID, joinIDs(ids))
		case byID[u.ID] != "":
			return nil, fmt.Errorf("%d=%s: broker %d is listed twice (also %s)", u.ID, u.URL, u.ID, byID[u.ID])
		default:
			byID[u.ID] = u.URL
		}
	}
	out := make([]BrokerTarget, len(ids))
	for i, id := range ids {
		out[i].ID = id
		if u, ok := byID[id]; ok {
			out[i].MetricsURL = u
		} else if len(unnamed) > 0 {
			out[i].MetricsURL, unnamed = unnamed[0], unnamed[1:]
		}
	}
	if len(unnamed) > 0 {
		return nil, fmt.Errorf("%d metrics URL(s) given but the cluster has %d broker(s) (node ids %s): give one per broker, in node-id order, or as ID=URL",
			len(urls), len(ids), joinIDs(ids))
	}
	return out, nil
}

func joinIDs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ", ")
}
