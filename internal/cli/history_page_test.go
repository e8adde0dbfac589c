package cli

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// historyView is what a person sees on the trend page.
type historyView struct {
	Charts    int      `json:"charts"`    // drawn charts (an SVG with a size)
	Dashed    int      `json:"dashed"`    // dashed lines in the charts: the steps marked
	AxisTexts []string `json:"axisTexts"` // the first chart's texts
	Worse     []string `json:"worse"`     // the steps listed as worse
}

const readHistory = `(() => {
  const svgs = [...document.querySelectorAll("figure svg")];
  const drawn = svgs.filter(s => s.getBoundingClientRect().width > 100 && s.getBoundingClientRect().height > 100);
  const dashed = drawn.flatMap(s => [...s.querySelectorAll("path, line")])
    .filter(e => (getComputedStyle(e).strokeDasharray || "none") !== "none");
  return {
    charts: drawn.length,
    dashed: dashed.length,
    axisTexts: svgs.length ? [...svgs[0].querySelectorAll("text")].map(t => t.textContent) : [],
    worse: [...document.querySelectorAll("li.worse")].map(l => l.textContent),
  };
})()`

// TestHistoryPageInBrowser opens `kbench history --html`'s page in headless Chromium, as a
// reader would: a series of 8 runs whose last two dropped 20% shows its charts drawn, the
// step marked in the chart (a dashed line) and listed as worse at the run where it began,
// the axes labelled, and no console error and no request beyond the file itself.
func TestHistoryPageInBrowser(t *testing.T) {
	needChromium(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	base := [][]float64{{1000, 1010, 990}, {1005, 995, 1000}, {990, 1000, 1010}, {1000, 1004, 996}, {1010, 1000, 995}, {998, 1002, 1000}}
	writeNightly(t, runs, append(base, []float64{800, 805, 795}, []float64{798, 802, 800})...)
	page := filepath.Join(dir, "trend.html")
	if _, errOut, code := runKbench("history", runs, "--metric", "records_per_sec", "--html", page); code != 0 {
		t.Fatalf("history --html: exit %d: %s", code, errOut)
	}
	b := openBrowser(t, dir, "file://"+page, func(u *url.URL) bool { return u.Scheme == "file" && u.Path == page })
	view, err := chromedp.Run(b.ctx, chromedp.Evaluate[historyView](readHistory))
	if err != nil {
		t.Fatal(err)
	}
	if view.Charts != 1 {
		t.Errorf("%d charts drawn, want 1 (one series: records/s of s1)", view.Charts)
	}
	if view.Dashed < 1 {
		t.Errorf("no step marked in the chart")
	}
	texts := strings.Join(view.AxisTexts, "|")
	for _, want := range []string{"run (start date, oldest first)", "records/s"} {
		if !strings.Contains(texts, want) {
			t.Errorf("chart texts lack %q: %s", want, texts)
		}
	}
	if len(view.Worse) != 1 || !strings.Contains(view.Worse[0], "2026-03-07-nightly") || !strings.Contains(view.Worse[0], "-20") {
		t.Errorf("worse steps listed: %q, want one at 2026-03-07-nightly of about -20%%", view.Worse)
	}
	b.reportProblems(t)
}
