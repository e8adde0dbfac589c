// Reading a broker's Prometheus endpoint (text exposition format 0.0.4), parsed by
// github.com/prometheus/common/expfmt and flattened to one value per exposed sample.

package metrics

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
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

// parsePrometheusText parses the Prometheus text format with expfmt (metric names as the
// classic format spells them) and flattens the families into promValues. A malformed line is
// an error naming its line number.
func parsePrometheusText(r io.Reader) (promValues, error) {
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, err
	}
	v := promValues{}
	for name, mf := range families {
		for _, m := range mf.GetMetric() {
			flattenMetric(v, name, mf.GetType(), m)
		}
	}
	return v, nil
}

// flattenMetric adds the samples one metric exposed: its value, or for a summary its
// quantiles, _sum and _count, and for a histogram its buckets, _sum and _count.
func flattenMetric(v promValues, name string, kind dto.MetricType, m *dto.Metric) {
	labels := make([]string, 0, 2*len(m.GetLabel())+2)
	for _, l := range m.GetLabel() {
		labels = append(labels, l.GetName(), l.GetValue())
	}
	switch kind {
	case dto.MetricType_COUNTER:
		v[promKey(name, labels...)] = m.GetCounter().GetValue()
	case dto.MetricType_GAUGE:
		v[promKey(name, labels...)] = m.GetGauge().GetValue()
	case dto.MetricType_SUMMARY:
		s := m.GetSummary()
		for _, q := range s.GetQuantile() {
			v[promKey(name, append(labels, model.QuantileLabel, formatPromFloat(q.GetQuantile()))...)] = q.GetValue()
		}
		v[promKey(name+"_sum", labels...)] = s.GetSampleSum()
		v[promKey(name+"_count", labels...)] = float64(s.GetSampleCount())
	case dto.MetricType_HISTOGRAM:
		h := m.GetHistogram()
		for _, b := range h.GetBucket() {
			v[promKey(name+"_bucket", append(labels, model.BucketLabel, formatPromFloat(b.GetUpperBound()))...)] = float64(b.GetCumulativeCount())
		}
		v[promKey(name+"_sum", labels...)] = h.GetSampleSum()
		v[promKey(name+"_count", labels...)] = float64(h.GetSampleCount())
	default:
		v[promKey(name, labels...)] = m.GetUntyped().GetValue()
	}
}

// formatPromFloat spells a quantile or bucket bound as the exposition format does.
func formatPromFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
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
