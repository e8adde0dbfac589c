package history

import (
	"fmt"
	"html/template"
	"io"
)

// pageSource is the trend page: self-contained (styles inline, charts as inline SVG, no
// script, nothing fetched), in the report's style.
const pageSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kbench history</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #1a1a1a; max-width: 1100px; margin: 2em auto; padding: 0 1.5em; line-height: 1.5; }
h1 { font-size: 2em; border-bottom: 3px solid #0072b2; padding-bottom: .3em; }
h2 { font-size: 1.45em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
.meta { color: #555; }
table { border-collapse: collapse; margin: 1em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #eef3f8; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.wide { overflow-x: auto; }
figure { margin: 1.5em 0; }
figure svg { width: 100%; height: auto; max-width: 900px; display: block; }
figcaption { color: #555; font-size: .9em; }
.worse { color: #b23a00; font-weight: bold; }
.better { color: #00734f; font-weight: bold; }
code { background: #f2f2f2; padding: 0 .2em; }
</style>
</head>
<body>
<h1>kbench history</h1>
<p class="meta">{{len .Runs}} runs{{with .Runs}}, {{(index . 0).Started.Format "2006-01-02 15:04"}} to {{(last .).Started.Format "2006-01-02 15:04"}}{{end}}; {{len .Series}} series.</p>
<p>Runs of a scenario form one series when they ran the same workload on the same cluster (the facts <code>kbench compare</code> checks).
Each series is cut into groups of runs at one level where that describes it better than one level does, counting each run's own spread;
a step is the move between two groups, a lone run between two others is an outlier, not a step.</p>
{{range $i, $s := .Series}}
<h2>{{$s.Metric.Label}}, scenario <code>{{$s.Scenario}}</code></h2>
<p class="meta">cluster {{$s.Cluster.ID}} ({{$s.Cluster.ClusterText}}), workload {{$s.Workload.ID}}; {{len $s.Points}} runs; noise ±{{pct $s.Noise}} a run.</p>
<figure>{{index $.Charts $i}}
<figcaption>Grey dots: repeats. Blue: each run's median and the range of its repeats. Green bars: the level of each group of runs.
Dashed lines: steps (orange when worse), before the first run of the new group.</figcaption></figure>
{{if $s.Steps}}<ul>{{range $s.Steps}}<li class="{{if .Worse}}worse{{else}}better{{end}}">step at <code>{{.Run}}</code>: {{num .Before}} to {{num .After}} {{$s.Metric.Label}} ({{signed .Change}}, {{if .Worse}}worse{{else}}better{{end}}; z {{printf "%.1f" .Z}})</li>
{{end}}</ul>{{else}}<p>No step: one level, {{num (index $s.Groups 0).Level}} {{$s.Metric.Label}}.</p>{{end}}
<div class="wide"><table>
<tr><th>Run</th><th>Started</th><th>Repeats</th><th>Median</th><th>Range</th><th>Group</th></tr>
{{range $s.Points}}<tr><td><code>{{.Dir}}</code></td><td>{{.Started.Format "2006-01-02 15:04"}}</td><td class="n">{{len .Values}}</td><td class="n">{{num .Median}}</td><td class="n">{{num .Min}} – {{num .Max}}</td><td class="n">{{inc .Group}}</td></tr>
{{end}}</table></div>
{{end}}
<h2>Runs</h2>
<div class="wide"><table>
<tr><th>Run</th><th>Started</th><th>Study</th><th>kbench</th><th>Kafka</th><th>Cluster</th><th>State</th></tr>
{{range .Runs}}<tr><td><code>{{.Dir}}</code></td><td>{{.Started.Format "2006-01-02 15:04"}}</td><td>{{.Study}}</td><td>{{.KbenchVersion}}</td><td>{{.KafkaVersion}}</td><td>{{.Cluster.ID}} {{.Cluster.ClusterText}}</td><td>{{.State}}</td></tr>
{{end}}</table></div>
</body>
</html>
`

var pageTemplate = template.Must(template.New("history").Funcs(template.FuncMap{
	"num":    number,
	"pct":    func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) },
	"signed": func(v float64) string { return fmt.Sprintf("%+.1f%%", 100*v) },
	"inc":    func(i int) int { return i + 1 },
	"last":   func(rs []Run) Run { return rs[len(rs)-1] },
}).Parse(pageSource))

// WriteHTML writes the trend page: a chart and a table per series, then the index.
func WriteHTML(w io.Writer, runs []Run, series []*Series) error {
	charts := make([]template.HTML, len(series))
	for i, s := range series {
		svg, err := chartSVG(s)
		if err != nil {
			return err
		}
		charts[i] = template.HTML(svg) // drawn by gonum/plot from numbers; labels are escaped by it
	}
	data := struct {
		Runs   []Run
		Series []*Series
		Charts []template.HTML
	}{runs, series, charts}
	if err := pageTemplate.Execute(w, data); err != nil {
		return fmt.Errorf("unable to write the history page: %w", err)
	}
	return nil
}
