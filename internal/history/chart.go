package history

import (
	"bytes"
	"fmt"
	"image/color"
	"regexp"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The chart's look is the report's: Liberation Sans (Arial's metrics), the Okabe-Ito
// colours, 20 x 10 cm.
var (
	blue   = color.RGBA{0, 114, 178, 255}
	orange = color.RGBA{213, 94, 0, 255}
	green  = color.RGBA{0, 158, 115, 255}
	grey   = color.RGBA{150, 150, 150, 255}
)

func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

var familyRE = regexp.MustCompile(`font-family:Liberation Sans;`)

// chartSVG draws a series: each repeat a grey dot, each run's median a blue point on a
// line with its range as an error bar, each group's level a green line over its runs, and
// each step a dashed vertical line before its run, orange when worse, labelled with the
// change. The x axis is the run, labelled with its start date.
func chartSVG(s *Series) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, scenario %s", s.Metric.Label, s.Scenario)
	p.Title.TextStyle.Font = sans(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "run (start date, oldest first)"
	p.Y.Label.Text = s.Metric.Label
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(12)
		a.Tick.Label.Font = sans(11)
	}
	p.Legend.TextStyle.Font = sans(11)
	p.Legend.Top, p.Legend.Left = false, true // bottom left: the axis starts at zero, so it is mostly empty
	p.Add(plotter.NewGrid())

	var repeats, medians plotter.XYs
	var bars plotter.YErrors
	for i, pt := range s.Points {
		x := float64(i + 1)
		for _, v := range pt.Values {
			repeats = append(repeats, plotter.XY{X: x, Y: v})
		}
		medians = append(medians, plotter.XY{X: x, Y: pt.Median})
		bars = append(bars, struct{ Low, High float64 }{pt.Median - pt.Min, pt.Max - pt.Median})
	}
	dots, err := plotter.NewScatter(repeats)
	if err != nil {
		return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
	}
	dots.GlyphStyle.Color, dots.GlyphStyle.Radius = grey, vg.Points(1.5)
	line, points, err := plotter.NewLinePoints(medians)
	if err != nil {
		return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
	}
	line.Color, line.Width = blue, vg.Points(1)
	points.Color, points.Shape, points.Radius = blue, draw.CircleGlyph{}, vg.Points(3)
	eb, err := plotter.NewYErrorBars(errorBars{medians, bars})
	if err != nil {
		return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
	}
	eb.LineStyle.Color = blue
	p.Add(dots, line, points, eb)
	p.Legend.Add("repeat", dots)
	p.Legend.Add("median of the run, range of its repeats", line, points)

	for gi, g := range s.Groups {
		lvl, err := plotter.NewLine(plotter.XYs{{X: float64(g.Start) + 0.6, Y: g.Level}, {X: float64(g.End) + 0.4, Y: g.Level}})
		if err != nil {
			return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
		}
		lvl.Color, lvl.Width = green, vg.Points(2.5)
		p.Add(lvl)
		if gi == 0 {
			p.Legend.Add("level of a group of runs", lvl)
		}
	}
	ymin, ymax := yRange(s)
	for _, st := range s.Steps {
		x := float64(st.Index) + 0.5
		mark, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
		if err != nil {
			return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
		}
		mark.Color, mark.Width, mark.Dashes = green, vg.Points(1.5), []vg.Length{vg.Points(5), vg.Points(3)}
		if st.Worse {
			mark.Color = orange
		}
		label, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: ymax}},
			Labels: []string{fmt.Sprintf(" step %+.1f%%", 100*st.Change)}})
		if err != nil {
			return nil, fmt.Errorf("unable to draw chart of %s: %w", s.Scenario, err)
		}
		for i := range label.TextStyle {
			label.TextStyle[i].Font = sans(11)
			label.TextStyle[i].Color = mark.Color
		}
		p.Add(mark, label)
	}
	p.X.Min, p.X.Max = 0.5, float64(len(s.Points))+0.5
	p.Y.Min, p.Y.Max = ymin, ymax+(ymax-ymin)*0.15 // room for the step labels and the legend
	p.X.Tick.Marker = dateTicks(s)

	c := vgsvg.New(20*vg.Centimeter, 10*vg.Centimeter)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("unable to render chart of %s: %w", s.Scenario, err)
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:] // inlined in HTML without the XML prelude
	}
	return familyRE.ReplaceAll(out, []byte(`font-family:'Liberation Sans',Arial,Helvetica,sans-serif;`)), nil
}

type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

// yRange runs from zero, so a step's size reads true, to above the highest repeat.
func yRange(s *Series) (lo, hi float64) {
	for _, p := range s.Points {
		hi = max(hi, p.Max)
	}
	if hi == 0 {
		hi = 1
	}
	return 0, hi * 1.05
}

// dateTicks labels the runs with their start dates, at most 12 labels.
func dateTicks(s *Series) plot.Ticker {
	every := (len(s.Points) + 11) / 12
	var ticks plot.ConstantTicks
	for i, p := range s.Points {
		label := ""
		if i%every == 0 {
			label = p.Started.Format("01-02 15:04")
		}
		ticks = append(ticks, plot.Tick{Value: float64(i + 1), Label: label})
	}
	return ticks
}
