package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kbench/kbench/internal/results"
)

// minChartMs keeps a latency above zero on the chart's log scale.
const minChartMs = 0.01

// capacityCharts draws, per scenario with a capacity search, due-time latency against the
// offered rate: p50, p99 and p99.9 of every paced trial of every repeat (the knee of the
// "hockey stick"), each SLO's limit as a horizontal line and each bracket's ends as
// vertical lines. The unthrottled trial is left out: its latency is the producer's buffer.
func capacityCharts(rd *results.RunDir) ([]Chart, error) {
	var charts []Chart
	for _, sc := range rd.Run.Scenarios {
		var trials []results.CapacityTrial
		var brackets []results.CapacityBracket
		for _, rep := range rd.Repeats[sc.ID] {
			if rep.Capacity == nil {
				continue
			}
			for _, t := range rep.Capacity.Trials {
				if t.Offered > 0 {
					trials = append(trials, t)
				}
			}
			brackets = append(brackets, rep.Capacity.Brackets...)
		}
		if len(trials) == 0 {
			continue
		}
		c, err := capacityChart(sc.ID, trials, brackets)
		if err != nil {
			return nil, err
		}
		charts = append(charts, c)
	}
	return charts, nil
}

func capacityChart(id string, trials []results.CapacityTrial, brackets []results.CapacityBracket) (Chart, error) {
	title := "Latency vs offered rate: " + id
	p := newPlot(title, "offered rate (records/s)", "due-time latency (ms, log scale)")
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Left = true
	slices.SortFunc(trials, func(a, b results.CapacityTrial) int { return cmp.Compare(a.Offered, b.Offered) })
	xmin, xmax := trials[0].Offered, trials[len(trials)-1].Offered
	ymax := minChartMs
	series := []struct {
		name  string
		get   func(results.CapacityTrial) float64
		shape draw.GlyphDrawer
	}{
		{"p50", func(t results.CapacityTrial) float64 { return t.P50Ms }, draw.CircleGlyph{}},
		{"p99", func(t results.CapacityTrial) float64 { return t.P99Ms }, draw.TriangleGlyph{}},
		{"p99.9", func(t results.CapacityTrial) float64 { return t.P999Ms }, draw.SquareGlyph{}},
	}
	// A trial set aside as disturbed (the hypervisor took the host's CPU while it failed)
	// or stalled is drawn apart, by its p99 alone: it is not evidence of the cluster's knee.
	var counted, setAside []results.CapacityTrial
	for _, t := range trials {
		if t.Disturbed || t.Stalled {
			setAside = append(setAside, t)
		} else {
			counted = append(counted, t)
		}
	}
	grey := color.RGBA{96, 96, 96, 255}
	scatter := func(ts []results.CapacityTrial, get func(results.CapacityTrial) float64, c color.Color, shape draw.GlyphDrawer, name string) error {
		if len(ts) == 0 {
			return nil
		}
		xys := make(plotter.XYs, len(ts))
		for j, t := range ts {
			xys[j] = plotter.XY{X: t.Offered, Y: math.Max(get(t), minChartMs)}
			ymax = math.Max(ymax, xys[j].Y)
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("unable to draw capacity trials of %s: %w", id, err)
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = c, shape, vg.Points(3.5)
		p.Add(sc)
		p.Legend.Add(name, sc)
		return nil
	}
	for i, s := range series {
		if err := scatter(counted, s.get, palette[i], s.shape, s.name); err != nil {
			return Chart{}, err
		}
	}
	if err := scatter(setAside, series[1].get, grey, draw.CrossGlyph{}, "p99, set aside: host disturbed or stalled"); err != nil {
		return Chart{}, err
	}
	seenSLO := map[string]bool{}
	for _, b := range brackets {
		name := b.SLO.String()
		if !seenSLO[name] {
			seenSLO[name] = true
			ymax = math.Max(ymax, b.SLO.LimitMs)
			l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: b.SLO.LimitMs}, {X: xmax, Y: b.SLO.LimitMs}})
			if err != nil {
				return Chart{}, err
			}
			l.Color, l.Width = palette[(5+len(seenSLO)-1)%len(palette)], vg.Points(lineWidthPts)
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			p.Add(l)
			p.Legend.Add("SLO "+name, l)
		}
	}
	// The bracket's ends, drawn after the y range is known so that they span it.
	first := true
	for _, b := range brackets {
		for _, x := range []float64{b.Lower, b.Upper} {
			if x <= 0 {
				continue
			}
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: minChartMs}, {X: x, Y: ymax}})
			if err != nil {
				return Chart{}, err
			}
			l.Color, l.Width = grey, vg.Points(1)
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(l)
			if first {
				p.Legend.Add("bracket", l)
				first = false
			}
		}
	}
	// Headroom for the legend, top left: a decade.
	p.Y.Max *= 10
	svg, err := render(p, chartWidth, chartHeight)
	if err != nil {
		return Chart{}, err
	}
	caption := "Each mark is one trial of the capacity search at a fixed offered rate, after its warm-up; latency from each record's due time. " +
		"Dashed: the SLO; dotted: the bracket [highest passing, lowest failing] rate. The unthrottled trial that bounds the search is left out. " +
		"Grey crosses, where there are any: the p99 of trials set aside because they failed while the hypervisor took 2% or more of the host's CPU, or stalled (10 times the limit or more where that rate or a higher one had held); their rates were tried again, and they count in no bracket."
	return Chart{Name: "capacity-" + slug(id), Title: title, SVG: svg, Caption: caption}, nil
}
