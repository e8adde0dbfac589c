// Reading a broker's Prometheus endpoint (text exposition format 0.0.4).
//
// The parser is our own: the exposition format is a line per sample, and
// github.com/prometheus/common/expfmt v0.73 pulls in an OpenMetrics grammar module
// (github.com/pandatix/go-abnf) that the Go module proxy does not serve.

package metrics

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// promValues is one scrape flattened to series key -> value. A key is the metric name, plus
// its labels in sorted order when it has any: `name{request="Produce"}`. Summaries and
// histograms appear as their exposed samples (name_sum, name_count, ...).
type promValues map[string]float64

// promKey builds the key of a metric name and label pairs (name, value, name, value...).
func promKey(name string, labels ...string) string {
	if len(labels) == 0 {
		return name
	}
	pairs := make([]string, 0, len(labels)/2)
	for i := 0; i+1 < len(labels); i += 2 {
		pairs = append(pairs, labels[i]+"="+strconv.Quote(labels[i+1]))
	}
	sort.Strings(pairs)
	return name + "{" + strings.Join(pairs, ",") + "}"
}

// sum adds up every series of the metric name, whatever its labels (for example
// jvm_gc_collection_seconds_sum over all collectors). ok is false when there is none.
func (v promValues) sum(name string) (total float64, ok bool) {
	for k, x := range v {
		if k == name || strings.HasPrefix(k, name+"{") {
			total += x
			ok = true
		}
	}
	return total, ok
}

// parsePrometheusText parses the Prometheus text format: per line, a metric name, optional
// {label="value",...}, a value (a Go float, or NaN, +Inf, -Inf) and an optional timestamp.
// Lines starting with # (HELP, TYPE, comments) and blank lines are skipped. A malformed line
// is an error naming its line number.
func parsePrometheusText(r io.Reader) (promValues, error) {
	v := promValues{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		key, value, err := parsePromLine(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		v[key] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

// parsePromLine parses one sample line into its key and value.
func parsePromLine(s string) (string, float64, error) {
	i := 0
	for i < len(s) && isMetricNameChar(s[i], i == 0) {
		i++
	}
	if i == 0 {
		return "", 0, fmt.Errorf("no metric name in %q", s)
	}
	name := s[:i]
	var labels []string
	if i < len(s) && s[i] == '{' {
		var n int
		var err error
		labels, n, err = parsePromLabels(s[i+1:])
		if err != nil {
			return "", 0, fmt.Errorf("labels of %s: %w", name, err)
		}
		i += 1 + n
	}
	f := strings.Fields(s[i:])
	if len(f) < 1 || len(f) > 2 {
		return "", 0, fmt.Errorf("%s: want a value and an optional timestamp, got %q", name, s[i:])
	}
	value, err := parsePromFloat(f[0])
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", name, err)
	}
	return promKey(name, labels...), value, nil
}

// parsePromLabels parses `name="value",...}` (the text after '{') and returns the pairs and
// the number of bytes consumed, including the closing '}'. Values may hold \\, \" and \n.
func parsePromLabels(s string) ([]string, int, error) {
	var labels []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == ',') {
			i++
		}
		if i < len(s) && s[i] == '}' {
			return labels, i + 1, nil
		}
		start := i
		for i < len(s) && isMetricNameChar(s[i], i == start) && s[i] != ':' {
			i++
		}
		if i == start || i+1 >= len(s) || s[i] != '=' || s[i+1] != '"' {
			return nil, 0, fmt.Errorf("want name=\"value\" at %q", s[start:])
		}
		lname := s[start:i]
		i += 2
		var val strings.Builder
		for {
			if i >= len(s) {
				return nil, 0, fmt.Errorf("unterminated value of label %s", lname)
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			if c == '\\' && i+1 < len(s) {
				i++
				switch s[i] {
				case 'n':
					c = '\n'
				case '\\', '"':
					c = s[i]
				default:
					return nil, 0, fmt.Errorf("bad escape \\%c in label %s", s[i], lname)
				}
			}
			val.WriteByte(c)
			i++
		}
		labels = append(labels, lname, val.String())
	}
}

func isMetricNameChar(c byte, first bool) bool {
	return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

// parsePromFloat parses a sample value; the format spells infinities +Inf and -Inf.
func parsePromFloat(s string) (float64, error) {
	switch s {
	case "+Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// scrapePrometheus fetches url and parses it.
func scrapePrometheus(ctx context.Context, client *http.Client, url string) (promValues, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("unable to scrape %s: %w", url, err)
	}
	// Ask for the classic text format: every exporter serves it, and it is what we parse.
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("unable to scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("unable to scrape %s: %s", url, resp.Status)
	}
	v, err := parsePrometheusText(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("unable to parse metrics from %s: %w", url, err)
	}
	return v, nil
}
