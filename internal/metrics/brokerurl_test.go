package metrics

import (
	"strings"
	"testing"
)

func TestAssignBrokerURLs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		ids    []int
		values []string
		want   string // id=url per broker, "-" for none
		err    string
	}{
		{"in node-id order", []int{3, 1, 2}, []string{"http://a/m", "http://b/m"}, "1=http://a/m 2=http://b/m 3=-", ""},
		{"by id", []int{1, 2, 3}, []string{"3=http://c/m", "1=http://a/m"}, "1=http://a/m 2=- 3=http://c/m", ""},
		{"mixed: unnamed fill the rest in order", []int{4, 5, 6}, []string{"5=http://b/m", "http://a/m", "http://c/m"}, "4=http://a/m 5=http://b/m 6=http://c/m", ""},
		{"ids only, no metadata", nil, []string{"2=http://b/m", "1=http://a/m"}, "1=http://a/m 2=http://b/m", ""},
		{"too many", []int{1}, []string{"http://a/m", "http://b/m"}, "", "2 metrics URL(s) given but the cluster has 1 broker(s) (node ids 1)"},
		{"unknown id", []int{1, 2}, []string{"7=http://a/m"}, "", "the cluster has no broker 7 (node ids 1, 2)"},
		{"twice", []int{1, 2}, []string{"1=http://a/m", "1=http://b/m"}, "", "broker 1 is listed twice (also http://a/m)"},
		{"https with port", []int{1}, []string{"https://kafka-1:7071/metrics"}, "1=https://kafka-1:7071/metrics", ""},
	} {
		urls, err := ParseBrokerURLs(tt.values)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		targets, err := AssignBrokerURLs(tt.ids, urls)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		var got []string
		for _, b := range targets {
			u := b.MetricsURL
			if u == "" {
				u = "-"
			}
			got = append(got, strings.Join([]string{itoa(b.ID), u}, "="))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, strings.Join(got, " "), tt.want)
		}
	}
}

func itoa(i int) string { return joinIDs([]int{i}) }

func TestParseBrokerURLRefuses(t *testing.T) {
	for _, v := range []string{"kafka-1:7071", "x=http://a/m", "-1=http://a/m", "ftp://a/m", "1=", "http://"} {
		if _, err := ParseBrokerURL(v); err == nil || !strings.Contains(err.Error(), "want [ID=]http://host:port/metrics") && !strings.Contains(err.Error(), "is not a broker id") {
			t.Errorf("%q: error %v", v, err)
		}
	}
}
