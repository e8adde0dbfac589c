# kbench: `make demo` builds, fetches Kafka, starts the embedded cluster and runs the quick
# study; `make test` runs every test (unit and integration, on a real embedded cluster).
GO        ?= go
BIN       := bin/kbench
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/kbench/kbench/internal/cli.Version=$(VERSION)

.PHONY: build test test-short demo bench bench-capacity lint fmt clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kbench

# Integration tests start one real Kafka cluster per test package (TestMain); the Kafka jars
# are fetched through Maven on first use into ~/.cache/kbench.
test: build
	$(GO) vet ./...
	$(BIN) cluster fetch
	$(GO) test -count=1 -timeout 40m ./...

test-short:
	$(GO) test -short -count=1 ./...

# The quick study starts its own embedded 3-broker cluster, runs four scenarios, stops the
# cluster and writes the report into runs/<date>-quick/.
demo: build
	$(BIN) run quick

# bench: kbench produce against Kafka's ProducerPerformance and a bare franz-go producer (same
# settings, nothing measured) on an embedded 3-broker cluster: records/s (each tool's
# steady-state window lines) and client CPU per record (start-up, a one-record run's CPU,
# subtracted), 3 rounds, medians; then latency at a rate both sustain with the brokers' own
# Produce request time beside it; then kbench and the bare producer with 100 and 1,000
# producers in one process (rate held, peak RSS, CPU per record); then the p50 shift a 10 ms
# client RTT on the remote listener adds to a light acks=1 produce, with the proxy's CPU; then
# kbench produce's client CPU per record with --web and --metrics-addr on (page open, scraped
# every second) against off; then the Go benchmarks.
bench: build
	$(GO) build -o bin/bareproducer ./bench/bareproducer
	$(GO) run ./bench/producecompare -kbench $(BIN) -bare bin/bareproducer -pairs 3
	$(GO) run ./bench/zonelatency -kbench $(BIN) -pairs 3
	$(GO) run ./bench/liveoverhead -kbench $(BIN) -pairs 3
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

lint:
	test -z "$$(gofmt -l .)" || (gofmt -l . && exit 1)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

fmt:
	gofmt -w .

clean:
	rm -rf bin

# bench-capacity: kbench capacity's answers checked as a user would, on two embedded cluster
# shapes: three default searches each, an independent 60 s produce at 0.9x each lower end
# (must meet the SLO) and at 1.3x each upper end (must miss it), and a search forced out of
# budget (exit 7). About 40 minutes per shape; prints every figure. SHAPES picks the shapes
# (capacitycheck -h lists them; e.g. SHAPES=3,4 for log dirs in memory, off the host's disk;
# SHAPES=7,9 for three brokers behind a 48 MiB/s client link, in memory and on the disk: an
# edge known before the search).
# BOOTSTRAP=host:port,... checks a running cluster of your own instead (LOG_DIRS: its brokers'
# log dirs, if on this host, so that each search waits for the last one's files to go).
# The bench's first line states whether this virtual machine gives freed memory back to its
# host (free page reporting), which the in-memory shapes pay for as they write: see
# docs/capacity.md, "Memory given back to the hypervisor", and the host after it where
# turning it off did not hold the answers together.
# Before the first shape it writes once to the host's free memory, so that no search pays the
# hypervisor's first fault on a page the guest never wrote (docs/capacity.md, "Memory the host
# has yet to back").
bench-capacity: build
	mkdir -p bin/capacity-logs
	$(GO) run ./bench/capacitycheck -kbench $(BIN) -logs bin/capacity-logs $(if $(SHAPES),-shape $(SHAPES)) \
		$(if $(BOOTSTRAP),-bootstrap $(BOOTSTRAP)) $(if $(LOG_DIRS),-log-dirs $(LOG_DIRS))
