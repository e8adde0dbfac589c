package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumBinary is Debian's chromium package's browser.
const chromiumBinary = "/usr/bin/chromium"

// browser is a headless Chromium started for one test (chromedp starts it and stops its
// process at the test's cleanup), with what a person would call a broken page collected:
// console errors and warnings, exceptions, error log entries, and requests the page makes
// to anywhere allowed does not accept.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

// needChromium skips under -short when Chromium is absent, and fails otherwise.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumBinary); err != nil {
		if testing.Short() {
			t.Skipf("no %s (Debian's chromium package): .ci/run installs it", chromiumBinary)
		}
		t.Fatalf("no %s (Debian's chromium package; .ci/run installs it): %v", chromiumBinary, err)
	}
}

// openBrowser starts Chromium with its profile under dir and opens pageURL.
func openBrowser(t *testing.T, dir, pageURL string, allowed func(*url.URL) bool) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumBinary),
		chromedp.NoSandbox, chromedp.UserDataDir(filepath.Join(dir, "chromium")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() }) // closes the browser it started
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var text []string
				for _, a := range ev.Args {
					text = append(text, string(a.Value)+a.Description)
				}
				b.problems = append(b.problems, fmt.Sprintf("console %s: %s", ev.Type, strings.Join(text, " ")))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				b.problems = append(b.problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if u, err := url.Parse(ev.Request.URL); err != nil || (u.Scheme != "data" && !allowed(u)) {
				b.problems = append(b.problems, "request to another host: "+ev.Request.URL)
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
	return b
}

// reportProblems fails the test with every problem the page showed.
func (b *browser) reportProblems(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Error(p)
	}
}
