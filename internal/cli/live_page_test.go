package cli

import (
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageView is what a person sees on the live page at one moment.
type pageView struct {
	Phase        string `json:"phase"`
	Ended        bool   `json:"ended"`
	ReportShown  bool   `json:"reportShown"`
	ReportHref   string `json:"reportHref"`
	LastAchieved string `json:"lastAchieved"`
	Points       string `json:"points"`
}

// readPage is the script that reads a pageView off the page.
const readPage = `(() => ({
  phase: document.getElementById("phase").textContent,
  ended: !document.getElementById("ended").hidden,
  reportShown: !document.getElementById("report").hidden,
  reportHref: document.getElementById("report").href,
  lastAchieved: document.getElementById("throughput").getAttribute("data-last-achieved") || "",
  points: document.getElementById("throughput").getAttribute("data-points-achieved") || "",
}))()`

// TestLivePageInBrowser opens --web's page in headless Chromium during a short study and
// reads it as a person would: the phase changes, the throughput chart's last point is within
// 10% of the rate kbench prints, the end is announced with a link to the report, and the page
// logs no error and asks no other host for anything.
func TestLivePageInBrowser(t *testing.T) {
	needChromium(t)
	const topic = "live-page"
	boot := liveBootstrap(t, topic)
	dir := t.TempDir()
	file := filepath.Join(dir, "live.yaml")
	study := "name: live-page\nrepeats: 1\nwarmup: 3s\ncooldown: 0s\ndefaults:\n  topic: {partitions: 3, replicas: 1}\n  producers: {record_size: 100, duration: 8s, rate: 2000}\n"
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	web := freeAddr(t)
	type result struct {
		stdout, stderr string
		code           int
	}
	done := make(chan result, 1)
	go func() {
		o, e, c := runKbench("run", file, "--bootstrap-server", boot, "--yes", "--runs-dir", filepath.Join(dir, "runs"),
			"--report", "html", "--web="+web, "--metrics-linger", "8s")
		done <- result{o, e, c}
	}()
	pageURL := "http://" + web + "/"
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(pageURL); err == nil {
			res.Body.Close()
			break
		}
		select {
		case r := <-done:
			t.Fatalf("run ended (exit %d) before its page was up: %s%s", r.code, r.stdout, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no page at %s after 30 s", pageURL)
		}
	}

	b := openBrowser(t, dir, pageURL, func(u *url.URL) bool { return u.Host == web })
	ctx := b.ctx
	var err error
	phases := map[string]bool{}
	var view pageView
	for deadline := time.Now().Add(2 * time.Minute); !view.Ended; time.Sleep(250 * time.Millisecond) {
		if view, err = chromedp.Run(ctx, chromedp.Evaluate[pageView](readPage)); err != nil {
			t.Fatal(err)
		}
		phases[view.Phase] = true
		if time.Now().After(deadline) {
			t.Fatalf("the page never said the run ended; last seen %+v", view)
		}
	}
	// The report link is followed while the server lingers.
	res, err := http.Get(view.ReportHref)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	r := <-done
	if r.code != 0 {
		t.Fatalf("run exit %d: %s", r.code, r.stderr)
	}

	for _, want := range []string{"warm-up", "measured", "ended"} {
		if !phases[want] {
			t.Errorf("phase %q never shown; saw %v", want, phases)
		}
	}
	if !view.ReportShown || res.StatusCode != http.StatusOK {
		t.Errorf("report link shown %v, %s answers %d", view.ReportShown, view.ReportHref, res.StatusCode)
	}
	m := regexp.MustCompile(`r1: (\d+) records/s`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no rate printed: %s", r.stdout)
	}
	printed, _ := strconv.ParseFloat(m[1], 64)
	last, _ := strconv.ParseFloat(view.LastAchieved, 64)
	if n, _ := strconv.Atoi(view.Points); n < 3 || math.Abs(last-printed) > 0.1*printed {
		t.Errorf("throughput chart: %s points, last %.0f records/s; kbench printed %.0f", view.Points, last, printed)
	}
	b.reportProblems(t)
	t.Logf("phases %v; chart's last point %.0f records/s, printed %.0f", phases, last, printed)
}
