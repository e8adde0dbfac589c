// Package live serves a run's figures while it runs: a page that redraws every second
// (--web), and Prometheus metrics (--metrics-addr). Both read one observe.Series, the one the
// run's progress feeds; the page's assets are in the binary, so it needs no network.
package live

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/observe"
)

//go:embed assets
var assets embed.FS

// DefaultWebAddr is where --web without a value serves: loopback only, a free port.
const DefaultWebAddr = "127.0.0.1:0"

// DefaultLinger is how long /metrics keeps serving a run's last figures after its end, so
// that a scrape every 15 s (Prometheus's default interval) still collects them.
const DefaultLinger = 15 * time.Second

// Flags are the live flags every verb takes.
type Flags struct {
	Web         string
	MetricsAddr string
	Linger      time.Duration
}

// Register adds --web, --metrics-addr and --metrics-linger to fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.Web, "web", "", "serve a live page of the run at this address (--web alone: "+DefaultWebAddr+", a free port on loopback; its URL is printed at start)")
	fs.Lookup("web").NoOptDefVal = DefaultWebAddr
	fs.StringVar(&f.MetricsAddr, "metrics-addr", "", "serve kbench's own Prometheus metrics on http://ADDR/metrics while the run lasts (e.g. :9464)")
	fs.DurationVar(&f.Linger, "metrics-linger", DefaultLinger, "after the run, keep serving its last figures this long for a last scrape and the page (Ctrl-C skips it)")
}

// Server serves a Series over HTTP on one or two listeners. A nil *Server (no live flag
// given) has a nil Series and closes at once.
type Server struct {
	series *observe.Series
	linger time.Duration
	out    io.Writer
	srv    *http.Server
	lns    []net.Listener
	wg     sync.WaitGroup
	// WebURL and MetricsURL are what the server prints; empty when not served.
	WebURL, MetricsURL string

	mu     sync.Mutex
	report string // the report file the page links, once the run ended
}

// Start serves the flags' addresses, printing each URL to out; nil when neither flag is set.
func (f *Flags) Start(out io.Writer) (*Server, error) {
	if f.Web == "" && f.MetricsAddr == "" {
		return nil, nil
	}
	s := &Server{series: observe.New(), linger: f.Linger, out: out}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.series.Registry(), promhttp.HandlerOpts{EnableOpenMetrics: true}))
	static, _ := fs.Sub(assets, "assets") // cannot fail: the directory is embedded
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/state", s.state)
	mux.HandleFunc("GET /report", s.serveReport)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	addrs := []string{f.Web, f.MetricsAddr}
	if f.Web == f.MetricsAddr && !isFreePort(f.Web) {
		addrs = addrs[:1] // one listener serves both
	}
	for i, addr := range addrs {
		if addr == "" {
			continue
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			s.stop()
			return nil, fmt.Errorf("%s %s: %w", []string{"--web", "--metrics-addr"}[i], addr, err)
		}
		s.lns = append(s.lns, ln)
		base := "http://" + hostPort(ln.Addr())
		if i == 0 {
			s.WebURL = base + "/"
			fmt.Fprintf(out, "live page: %s\n", s.WebURL)
		}
		if i == 1 || f.MetricsAddr == f.Web {
			s.MetricsURL = base + "/metrics"
		}
		s.wg.Go(func() { _ = s.srv.Serve(ln) })
	}
	if s.MetricsURL != "" {
		fmt.Fprintf(out, "metrics: %s\n", s.MetricsURL)
	}
	return s, nil
}

// isFreePort reports whether addr asks for any free port (":0").
func isFreePort(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	return err == nil && port == "0"
}

// hostPort names a listener's address for a URL: an unspecified host (":9464") as
// localhost, where a browser on this host reaches it.
func hostPort(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// Series is the series the run feeds (nil when s is nil: feeding it does nothing).
func (s *Server) Series() *observe.Series {
	if s == nil {
		return nil
	}
	return s.series
}

// End marks the run ended with its outcome and report file ("" when none), then keeps
// serving for the linger time unless ctx is done (Ctrl-C), and closes. Lingering rather than
// pushing to a Pushgateway keeps one way in for Prometheus (it scrapes, as it does the
// brokers) and needs no gateway; a scrape interval under the linger time collects the end.
func (s *Server) End(ctx context.Context, outcome, report string) {
	if s == nil {
		return
	}
	link := ""
	if report != "" {
		s.mu.Lock()
		s.report = report
		s.mu.Unlock()
		link = "/report"
	}
	s.series.End(outcome, link)
	if ctx.Err() == nil && s.linger > 0 {
		fmt.Fprintf(s.out, "serving the last figures for %s (--metrics-linger; Ctrl-C to quit now)\n", s.linger)
		t := time.NewTimer(s.linger)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	s.stop()
}

// Outcome words err for the page: complete, interrupted, or the error.
func Outcome(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return "interrupted"
	case err != nil:
		return err.Error()
	}
	return "complete"
}

func (s *Server) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		_ = s.srv.Close()
	}
	for _, ln := range s.lns {
		_ = ln.Close()
	}
	s.wg.Wait()
}

// state answers the page's poll: the status and the points after ?since=N.
func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	since, _ := strconv.Atoi(r.URL.Query().Get("since"))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(s.series.Snapshot(since))
}

func (s *Server) serveReport(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	path := s.report
	s.mu.Unlock()
	if _, err := os.Stat(path); path == "" || errors.Is(err, fs.ErrNotExist) {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, path)
}
