package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/kbench/kbench/internal/results"
)

// Chart geometry and type sizes, chosen to stay legible when a browser scales the SVG to a
// page column of about 800 px.
const (
	chartWidth   = 20 * vg.Centimeter
	chartHeight  = 10 * vg.Centimeter
	titleSize    = 14
	labelSize    = 12
	tickSize     = 11
	legendSize   = 11
	maxLines     = 8 // lines per chart before a chart is split
	lineWidthPts = 2
)

// palette is a colour-blind-safe qualitative palette (Okabe-Ito).
var palette = []color.RGBA{
	{0, 114, 178, 255}, {230, 159, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
	{86, 180, 233, 255}, {213, 94, 0, 255}, {240, 228, 66, 255}, {0, 0, 0, 255},
}

func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
	}
	p.Legend.TextStyle.Font = sans(legendSize)
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// familyRE finds the font family vgsvg writes, to add fallbacks for viewers without
// Liberation Sans (Arial has the same metrics).
var familyRE = regexp.MustCompile(`font-family:Liberation Sans;`)

// render draws p to SVG without the XML prelude, so it can be inlined in HTML as is.
func render(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("unable to render chart %q: %w", p.Title.Text, err)
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:]
	}
	out = familyRE.ReplaceAll(out, []byte(`font-family:'Liberation Sans',Arial,Helvetica,sans-serif;`))
	return out, nil
}

// buildCharts draws every chart of the report.
func buildCharts(rd *results.RunDir, m *Model) ([]Chart, error) {
	var charts []Chart
	add := func(c Chart, err error) error {
		if err != nil {
			return err
		}
		if c.SVG != nil {
			charts = append(charts, c)
		}
		return nil
	}
	if err := add(barChart(m.Rows, "throughput-records", "Records/s per scenario", "records/s",
		func(r Row) Stat { return r.RecordsPerSec })); err != nil {
		return nil, err
	}
	if err := add(barChart(m.Rows, "throughput-mib", "MiB/s per scenario", "MiB/s",
		func(r Row) Stat { return r.MiBPerSec })); err != nil {
		return nil, err
	}
	for di, dim := range m.ParamNames {
		if err := add(sweepChart(m.Rows, m.ParamNames, di, dim)); err != nil {
			return nil, err
		}
	}
	lat, err := latencyCharts(m.Rows)
	if err != nil {
		return nil, err
	}
	charts = append(charts, lat...)
	capCharts, err := capacityCharts(rd)
	if err != nil {
		return nil, err
	}
	charts = append(charts, capCharts...)
	for _, r := range m.Rows {
		if err := add(cpuChart(r)); err != nil {
			return nil, err
		}
	}
	return charts, nil
}

// errorBars holds medians with their ranges for plotter.NewYErrorBars.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

// barChart draws one bar per scenario (the median over valid repeats) with the range of the
// repeats as an error bar.
func barChart(rows []Row, name, title, unit string, get func(Row) Stat) (Chart, error) {
	var labels []string
	var vals plotter.Values
	var eb errorBars
	any := false
	for i, r := range rows {
		s := get(r)
		labels = append(labels, r.ID)
		vals = append(vals, s.Median)
		eb.XYs = append(eb.XYs, plotter.XY{X: float64(i), Y: s.Median})
		eb.YErrors = append(eb.YErrors, struct{ Low, High float64 }{s.Median - s.Min, s.Max - s.Median})
		any = any || s.N > 0
	}
	if !any {
		return Chart{}, nil
	}
	p := newPlot(title, "", unit)
	width := vg.Points(math.Min(40, 400/float64(len(rows))))
	bars, err := plotter.NewBarChart(vals, width)
	if err != nil {
		return Chart{}, fmt.Errorf("unable to draw %s: %w", name, err)
	}
	bars.Color = palette[0]
	bars.LineStyle.Width = 0
	errs, err := plotter.NewYErrorBars(eb)
	if err != nil {
		return Chart{}, fmt.Errorf("unable to draw %s: %w", name, err)
	}
	errs.LineStyle.Width = vg.Points(1.5)
	p.Add(bars, errs)
	p.NominalX(labels...)
	if len(labels) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 5
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.Y.Min = 0
	svg, err := render(p, chartWidth, chartHeight)
	return Chart{Name: name, Title: title, SVG: svg,
		Caption: "Median over valid repeats; the whisker spans the lowest to the highest repeat."}, err
}

// sweepChart draws records/s against a numeric parameter with three or more values, one
// line per combination of the other parameters.
func sweepChart(rows []Row, names []string, di int, dim string) (Chart, error) {
	vals := distinct(rows, di)
	if len(vals) < 3 {
		return Chart{}, nil
	}
	for _, v := range vals {
		if _, ok := parseNumber(v); !ok {
			return Chart{}, nil
		}
	}
	groups := map[string][]Row{}
	var order []string
	for _, r := range rows {
		if r.Params[di] == "" || r.RecordsPerSec.N == 0 {
			continue
		}
		key := paramContext(r, names, dim)
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
	}
	p := newPlot("Records/s as "+dim+" varies", dim, "records/s")
	p.Legend.Left = true // rates usually rise with the swept value, leaving the top left free
	lines := 0
	var minX, maxX = math.Inf(1), math.Inf(-1)
	for _, key := range order {
		g := groups[key]
		if len(g) < 2 {
			continue
		}
		sortByValue(g, di)
		var xys plotter.XYs
		for _, r := range g {
			x, _ := parseNumber(r.Params[di])
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			xys = append(xys, plotter.XY{X: x, Y: r.RecordsPerSec.Median})
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return Chart{}, fmt.Errorf("unable to draw sweep of %s: %w", dim, err)
		}
		c := palette[lines%len(palette)]
		l.Color, l.Width = c, vg.Points(lineWidthPts)
		pts.Color, pts.Radius = c, vg.Points(3.5)
		p.Add(l, pts)
		label := key
		if label == "" {
			label = dim
		}
		p.Legend.Add(label, l, pts)
		lines++
		if lines == maxLines {
			break
		}
	}
	if lines == 0 {
		return Chart{}, nil
	}
	if minX > 0 && maxX/minX >= 16 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = valueTicks(vals)
	}
	p.Y.Min = 0
	svg, err := render(p, chartWidth, chartHeight)
	return Chart{Name: "sweep-" + slug(dim), Title: "Records/s as " + dim + " varies", SVG: svg,
		Caption: "Median records/s over valid repeats; one line per setting of the other parameters."}, err
}

// valueTicks puts a tick at each swept value, labelled as the study wrote it.
func valueTicks(vals []string) plot.Ticker {
	var ticks plot.ConstantTicks
	for _, v := range vals {
		x, _ := parseNumber(v)
		ticks = append(ticks, plot.Tick{Value: x, Label: v})
	}
	return ticks
}

// nines are the percentile ticks of a latency curve; x is 1/(1-q) on a log axis, so each
// added nine takes the same width.
var nines = plot.ConstantTicks{
	{Value: 1, Label: "0%"}, {Value: 2, Label: "50%"}, {Value: 10, Label: "90%"}, {Value: 100, Label: "99%"},
	{Value: 1000, Label: "99.9%"}, {Value: 10000, Label: "99.99%"}, {Value: 100000, Label: "99.999%"},
}

// latencyCharts draws latency against percentile, one line per scenario, from the
// histograms of the valid repeats merged. A paced scenario also gets its send-time curve,
// dashed in the same colour: where the two part, the producer fell behind its schedule.
func latencyCharts(rows []Row) ([]Chart, error) {
	type curve struct {
		id        string
		due, send plotter.XYs
	}
	var curves []curve
	withSend := false
	for _, r := range rows {
		due := percentileCurve(mergeBuckets(r.repeatsForPlot, results.LatencyDue))
		if len(due) == 0 {
			continue
		}
		c := curve{id: r.ID, due: due}
		if r.TargetRate > 0 {
			c.send = percentileCurve(mergeBuckets(r.repeatsForPlot, results.LatencySend))
			withSend = withSend || len(c.send) > 0
		}
		curves = append(curves, c)
	}
	// Scenarios per chart: each may draw two lines.
	per := maxLines
	if withSend {
		per = maxLines / 2
	}
	parts := (len(curves) + per - 1) / per
	var charts []Chart
	for part := range parts {
		chunk := curves[part*per : min(len(curves), (part+1)*per)]
		title := "Produce latency by percentile"
		name := "latency"
		if parts > 1 {
			title = fmt.Sprintf("%s (%d of %d)", title, part+1, parts)
			name = fmt.Sprintf("latency-%d", part+1)
		}
		p := newPlot(title, "percentile", "latency (ms, log scale)")
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = nines
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Left = true
		legendLines := 0
		for i, c := range chunk {
			col := palette[i%len(palette)]
			l, err := plotter.NewLine(c.due)
			if err != nil {
				return nil, fmt.Errorf("unable to draw latency of %s: %w", c.id, err)
			}
			l.Color, l.Width = col, vg.Points(lineWidthPts)
			p.Add(l)
			label := c.id
			if withSend {
				label += " (due)"
			}
			p.Legend.Add(label, l)
			legendLines++
			if len(c.send) == 0 {
				continue
			}
			ls, err := plotter.NewLine(c.send)
			if err != nil {
				return nil, fmt.Errorf("unable to draw send latency of %s: %w", c.id, err)
			}
			ls.Color, ls.Width = col, vg.Points(lineWidthPts)
			ls.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			p.Add(ls)
			p.Legend.Add(c.id+" (send)", ls)
			legendLines++
		}
		// Headroom keeps the legend (top left) clear of the curves: a decade, and one more
		// for every four legend lines past the first four.
		p.Y.Max *= math.Pow(10, 1+float64(max(0, legendLines-1)/4))
		svg, err := render(p, chartWidth, chartHeight)
		if err != nil {
			return nil, err
		}
		caption := "Latency from the moment each record was due to its acknowledgement, all valid repeats together."
		if withSend {
			caption = "Solid: latency from the moment each record was due to its acknowledgement; dashed: from its actual send " +
				"(paced scenarios). Where they part, records waited for a slot the producer could not keep. All valid repeats together."
		}
		charts = append(charts, Chart{Name: name, Title: title, SVG: svg, Caption: caption})
	}
	return charts, nil
}

// mergeBuckets adds the histograms of kind over repeats, bucket by bucket.
func mergeBuckets(reps []results.Repeat, kind string) []results.Bucket {
	var order []int64
	counts := map[int64]int64{}
	for _, r := range reps {
		for _, b := range r.Latency[kind] {
			if _, ok := counts[b.UpperUs]; !ok {
				order = append(order, b.UpperUs)
			}
			counts[b.UpperUs] += b.Count
		}
	}
	slices.Sort(order)
	out := make([]results.Bucket, 0, len(order))
	for _, u := range order {
		out = append(out, results.Bucket{UpperUs: u, Count: counts[u]})
	}
	return out
}

// percentileCurve turns buckets into points (1/(1-q), latency ms); the last bucket, where
// q reaches 1, is drawn at the next decade so the maximum stays visible.
func percentileCurve(buckets []results.Bucket) plotter.XYs {
	var total int64
	for _, b := range buckets {
		total += b.Count
	}
	if total == 0 {
		return nil
	}
	var xys plotter.XYs
	var cum int64
	for _, b := range buckets {
		if b.Count == 0 || b.UpperUs <= 0 {
			continue
		}
		cum += b.Count
		q := float64(cum) / float64(total)
		x := 1 / (1 - q)
		if cum == total {
			x = math.Pow(10, math.Ceil(math.Log10(float64(total))))
		}
		if len(xys) == 0 {
			xys = append(xys, plotter.XY{X: 1, Y: float64(b.UpperUs) / 1000})
		}
		xys = append(xys, plotter.XY{X: x, Y: float64(b.UpperUs) / 1000})
	}
	return xys
}

// cpuChart draws each broker's CPU over time in the first valid repeat, the view a
// monitoring console gives.
func cpuChart(r Row) (Chart, error) {
	if len(r.repeatsForPlot) == 0 {
		return Chart{}, nil
	}
	rep := r.repeatsForPlot[0]
	series := map[string]plotter.XYs{}
	var order []string
	for _, s := range rep.Brokers {
		field := results.FieldCPUPct
		if s.Broker == results.HostSeries {
			field = results.FieldHostCPUPct
		}
		v, ok := s.Fields[field]
		if !ok {
			continue
		}
		if _, seen := series[s.Broker]; !seen {
			order = append(order, s.Broker)
		}
		series[s.Broker] = append(series[s.Broker], plotter.XY{X: s.T, Y: v})
	}
	if len(order) == 0 {
		return Chart{}, nil
	}
	title := fmt.Sprintf("CPU over time: %s (repeat %d)", r.ID, rep.Repeat)
	p := newPlot(title, "seconds into the measured window", "CPU (% of allotment)")
	for i, b := range order {
		l, err := plotter.NewLine(series[b])
		if err != nil {
			return Chart{}, fmt.Errorf("unable to draw CPU of %s: %w", r.ID, err)
		}
		l.Color, l.Width = palette[i%len(palette)], vg.Points(lineWidthPts)
		if b == results.HostSeries {
			l.Color = color.RGBA{120, 120, 120, 255}
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		label := "broker " + b
		if b == results.HostSeries {
			label = "host (all cores)"
		}
		p.Add(l)
		p.Legend.Add(label, l)
	}
	p.Y.Min = 0
	// Headroom above the lines keeps the legend (top right) clear of the data.
	p.Y.Max = math.Max(p.Y.Max*(1.2+0.1*float64(len(order))), 10)
	svg, err := render(p, chartWidth, chartHeight*0.8)
	return Chart{Name: "cpu-" + slug(r.ID), Title: title, SVG: svg,
		Caption: "Each broker's CPU time per second as a share of its allotment; the dashed line is the whole host."}, err
}

func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
