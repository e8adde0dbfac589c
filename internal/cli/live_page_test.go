package cli

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumBinary is Debian's chromium package's browser.
const chromiumBinary = "/usr/bin/chromium"

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
	if _, err := os.Stat(chromiumBinary); err != nil {
		if testing.Short() {
			t.Skipf("no %s (Debian's chromium package): .ci/run installs it", chromiumBinary)
		}
		t.Fatalf("no %s (Debian's chromium package; .ci/run installs it): %v", chromiumBinary, err)
	}
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

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumBinary),
		chromedp.NoSandbox, chromedp.UserDataDir(filepath.Join(dir, "chromium")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel() // closes the browser it started
	var (
		mu       sync.Mutex
		problems []string
	)
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var text []string
				for _, a := range ev.Args {
					text = append(text, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console %s: %s", ev.Type, strings.Join(text, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				problems = append(problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if u, err := url.Parse(ev.Request.URL); err != nil || (u.Scheme != "data" && u.Host != web) {
				problems = append(problems, "request to another host: "+ev.Request.URL)
			}
		}
	})
	if err != nil {
		t.Fatalf("start %s: %v", chromiumBinary, err)
	}
	for _, enable := range []func() error{
		func() error { _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); return err },
		func() error { _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); return err },
		func() error { return chromedp.Do(ctx, chromedp.Navigate(pageURL)) },
	} {
		if err := enable(); err != nil {
			t.Fatal(err)
		}
	}
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
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("phases %v; chart's last point %.0f records/s, printed %.0f", phases, last, printed)
}
