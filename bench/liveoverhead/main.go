// Command liveoverhead measures what watching a run costs kbench: client CPU per record of
// kbench produce with --web and --metrics-addr on (the live page open in headless Chromium,
// a real Prometheus scraping /metrics every second) against the same produce with both off,
// in pairs whose order alternates, on an embedded cluster (or -bootstrap). CPU is the kbench
// process's user+system time (rusage) per million acknowledged records; the page's and
// Prometheus's own CPU are theirs, not the client's.
//
// It is run by `make bench`; it is a benchmark, not a test: it asserts nothing.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kbench/kbench/internal/cluster"
)

type options struct {
	kbench, bootstrap, prometheus, chromium string
	brokers, pairs                          int
	records                                 int64
	rate                                    int
}

func main() {
	var o options
	flag.StringVar(&o.kbench, "kbench", "bin/kbench", "kbench binary")
	flag.StringVar(&o.bootstrap, "bootstrap", "", "a running cluster's bootstrap servers instead of an embedded one")
	flag.StringVar(&o.prometheus, "prometheus", "/usr/bin/prometheus", "Prometheus server binary")
	flag.StringVar(&o.chromium, "chromium", "/usr/bin/chromium", "Chromium binary (headless) that keeps the page open")
	flag.IntVar(&o.brokers, "brokers", 3, "brokers in the embedded cluster")
	flag.IntVar(&o.pairs, "pairs", 3, "off/on pairs")
	flag.Int64Var(&o.records, "records", 1_000_000, "records per run")
	flag.IntVar(&o.rate, "rate", 50_000, "records/s offered (-1: unthrottled)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "liveoverhead: %v\n", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	boot := o.bootstrap
	if boot == "" {
		c, err := cluster.Start(ctx, cluster.Options{Brokers: o.brokers, Log: os.Stderr})
		if err != nil {
			return err
		}
		defer c.Stop()
		boot = c.Bootstrap()
	}
	fmt.Printf("warming the brokers with %d records (unmeasured)\n", o.records)
	if _, err := produce(ctx, o, boot, false); err != nil {
		return err
	}
	fmt.Printf("kbench produce, %d records of 1 KiB at %d records/s: client CPU-s per million records\n", o.records, o.rate)
	fmt.Printf("%-5s %10s %10s %9s\n", "pair", "off", "on", "overhead")
	var overheads []float64
	for i := range o.pairs {
		cpu := map[bool]float64{}
		for _, on := range []bool{i%2 == 1, i%2 == 0} {
			v, err := produce(ctx, o, boot, on)
			if err != nil {
				return err
			}
			cpu[on] = v
		}
		over := overhead(cpu[false], cpu[true])
		overheads = append(overheads, over)
		fmt.Printf("%-5d %10.3f %10.3f %8.1f%%\n", i+1, cpu[false], cpu[true], over)
	}
	fmt.Printf("median overhead of --web and --metrics-addr (page open, scraped every second): %.1f%%\n", median(overheads))
	return nil
}

// overhead is on's extra CPU over off's, in percent of off's.
func overhead(off, on float64) float64 { return (on - off) / off * 100 }

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// produce runs one kbench produce and returns its CPU-s per million acknowledged records;
// on, it serves the page (held open by Chromium) and /metrics (scraped by Prometheus).
func produce(ctx context.Context, o options, boot string, on bool) (float64, error) {
	args := []string{"produce", "--bootstrap-server", boot, "--topic", fmt.Sprintf("liveoverhead-%d", time.Now().UnixNano()),
		"--num-records", fmt.Sprint(o.records), "--record-size", "1024", "--throughput", fmt.Sprint(o.rate), "--json"}
	var web, metrics string
	if on {
		web, metrics = freeAddr(), freeAddr()
		args = append(args, "--web="+web, "--metrics-addr", metrics, "--metrics-linger", "0s")
		stopProm, err := startPrometheus(metrics, o.prometheus)
		if err != nil {
			return 0, err
		}
		defer stopProm()
	}
	cmd := exec.CommandContext(ctx, o.kbench, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	if on {
		closePage, err := openPage(ctx, "http://"+web+"/", o.chromium)
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return 0, err
		}
		defer closePage()
	}
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("kbench produce: %w: %s", err, errOut.String())
	}
	var res struct {
		Total struct {
			Acked int64 `json:"acked"`
		} `json:"total"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Total.Acked == 0 {
		return 0, fmt.Errorf("kbench produce printed no result (%v): %s", err, errOut.String())
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return cpu.Seconds() / float64(res.Total.Acked) * 1e6, nil
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startPrometheus runs Prometheus scraping target every second; the func stops it by PID.
func startPrometheus(target, binary string) (func(), error) {
	dir, err := os.MkdirTemp("", "liveoverhead-prometheus")
	if err != nil {
		return nil, err
	}
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: kbench\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+freeAddr(), "--enable-feature=native-histograms")
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", binary, err)
	}
	return func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		os.RemoveAll(dir)
	}, nil
}

// openPage waits for the page and opens it in headless Chromium, which polls it every
// second until the returned func closes the browser.
func openPage(ctx context.Context, url, binary string) (func(), error) {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no page at %s after a minute", url)
		}
	}
	dir, err := os.MkdirTemp("", "liveoverhead-chromium")
	if err != nil {
		return nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(binary), chromedp.NoSandbox, chromedp.UserDataDir(dir))...)
	bctx, cancel := chromedp.NewContext(actx)
	closeAll := func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		closeAll()
		return nil, fmt.Errorf("open %s in %s: %w", url, binary, err)
	}
	return closeAll, nil
}
