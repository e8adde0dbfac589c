package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestSectionsAgree: both renderings show the model's numbered headings, in its order,
// with numbers that close up over absent sections (worked by hand below).
func TestSectionsAgree(t *testing.T) {
	numbered := regexp.MustCompile(`^\d+\.(\d+)? `)
	for _, tt := range []struct {
		name string
		m    *Model
		want string // the subsections of 4., by hand
	}{
		{"bare", &Model{Title: "t"}, "4.1 Throughput and CPU|4.2 Latency"},
		{"durability only", &Model{Title: "t", Durability: durabilityRows(durabilityRun())}, "4.1 Throughput and CPU|4.2 Latency|4.3 Durability"},
	} {
		var md, html bytes.Buffer
		if err := WriteMarkdown(&md, tt.m); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(&html, tt.m); err != nil {
			t.Fatal(err)
		}
		var fromMD, fromHTML, fromModel []string
		for _, l := range strings.Split(md.String(), "\n") {
			if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "##") && numbered.MatchString(h) {
				fromMD = append(fromMD, h)
			}
		}
		for _, m := range regexp.MustCompile(`<h[23]>([^<]*)</h[23]>`).FindAllStringSubmatch(html.String(), -1) {
			if numbered.MatchString(m[1]) {
				fromHTML = append(fromHTML, m[1])
			}
		}
		var sub4 []string
		for _, s := range tt.m.sections() {
			h := tt.m.heading(s.key)
			fromModel = append(fromModel, h)
			if strings.HasPrefix(h, "4.") && s.sub {
				sub4 = append(sub4, h)
			}
		}
		if strings.Join(fromMD, "|") != strings.Join(fromModel, "|") || strings.Join(fromHTML, "|") != strings.Join(fromModel, "|") {
			t.Errorf("%s: headings differ\n model %q\n    md %q\n  html %q", tt.name, fromModel, fromMD, fromHTML)
		}
		if got := strings.Join(sub4, "|"); got != tt.want {
			t.Errorf("%s: section 4 is %q, want %q", tt.name, got, tt.want)
		}
	}
}
