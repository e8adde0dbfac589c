package study

import (
	"slices"
	"testing"
	"time"
)

func TestWindow(t *testing.T) {
	kib := func(p Producers) Scenario {
		p.Count, p.RecordSize = 1, 1024
		return Scenario{Producers: p}
	}
	// Rates by hand: 20 MiB/s of 1 KiB records is 20,480 records/s; of 1000 B, 20,971.52.
	tests := []struct {
		name string
		s    Scenario
		warm time.Duration
		want Window
		why  string
	}{
		{"unthrottled count: a tenth is warm-up, 90,000 / 20,480 = 4.39 s", kib(Producers{Records: 100_000}), 5 * time.Second,
			Window{Length: 4394531250, Samples: 8, Records: 90_000, Assumed: 20_480},
			"about 4.4s measured at the estimate's 20,480 records/s, a broker sample every 500ms: 8 of the 10 broker samples needed"},
		{"no warm-up: 100,000 / 20,480 = 4.88 s", kib(Producers{Records: 100_000}), 0,
			Window{Length: 4882812500, Samples: 9, Records: 100_000, Assumed: 20_480},
			"about 4.9s measured at the estimate's 20,480 records/s, a broker sample every 500ms: 9 of the 10 broker samples needed"},
		{"throttle above the estimate: 15,000 warm-up (half the count), 15,000 at 20,480/s", kib(Producers{Records: 30_000, Throttle: 102_400}), 5 * time.Second,
			Window{Length: 732421875, Samples: 1, Records: 15_000, Assumed: 20_480},
			"about 700ms measured at the estimate's 20,480 records/s, a broker sample every 500ms: 1 of the 10 broker samples needed"},
		{"paced: 5,000 warm-up, 7,000 at 1,000/s", kib(Producers{Records: 12_000, Rate: 1000}), 5 * time.Second,
			Window{Length: 7 * time.Second, Samples: 14, Records: 7_000},
			"about 7s measured, a broker sample every 500ms: 7,000 of the 10,000 records a p99.9 needs"},
		{"unthrottled for 10 s: 204,800 records", kib(Producers{Duration: 10 * time.Second}), 5 * time.Second,
			Window{Length: 10 * time.Second, Samples: 20, Records: 204_800}, ""},
		{"5 s holds exactly the 10 samples", kib(Producers{Duration: 5 * time.Second}), 3 * time.Second,
			Window{Length: 5 * time.Second, Samples: 10, Records: 102_400}, ""},
		{"paced for 4 s: short on both", kib(Producers{Duration: 4 * time.Second, Rate: 2000}), 5 * time.Second,
			Window{Length: 4 * time.Second, Samples: 8, Records: 8_000},
			"about 4s measured, a broker sample every 500ms: 8 of the 10 broker samples needed, 8,000 of the 10,000 records a p99.9 needs"},
		{"consume-only: 100,000 x 1000 B read at 20 MiB/s, the fill not counted",
			Scenario{Producers: Producers{RecordSize: 1000}, Consumers: Consumers{Count: 1, Records: 100_000}}, 3 * time.Second,
			Window{Length: 4768371582, Samples: 9, Assumed: 20_971.52},
			"about 4.8s measured at the estimate's 20,972 records/s, a broker sample every 500ms: 9 of the 10 broker samples needed"},
		{"consume-only for 30 s", Scenario{Producers: Producers{RecordSize: 1000}, Consumers: Consumers{Count: 1, Duration: 30 * time.Second}}, 3 * time.Second,
			Window{Length: 30 * time.Second, Samples: 60}, ""},
		{"produce and consume: the longer side", Scenario{Producers: Producers{Count: 1, RecordSize: 1024, Duration: 4 * time.Second, Rate: 5000},
			Consumers: Consumers{Count: 1, Duration: 6 * time.Second}}, 0,
			Window{Length: 6 * time.Second, Samples: 12, Records: 20_000}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Window(tt.warm); got != tt.want {
				t.Errorf("Window = %+v, want %+v", got, tt.want)
			}
			p := &Plan{Warmup: tt.warm}
			if got := p.ShortWindow(tt.s); got != tt.why {
				t.Errorf("ShortWindow =\n %q\nwant\n %q", got, tt.why)
			}
		})
	}
}

func TestWarmupRecords(t *testing.T) {
	tests := []struct {
		records int64
		rate    float64
		warm    time.Duration
		want    int64
	}{
		{100_000, 0, 5 * time.Second, 10_000},   // unthrottled: a tenth
		{100_000, 1000, 5 * time.Second, 5_000}, // paced: the rate times the warm-up
		{8_000, 1000, 5 * time.Second, 4_000},   // at most half the count
		{100_000, 0, 0, 0},                      // no warm-up
		{0, 1000, 5 * time.Second, 0},           // a timed scenario
	}
	for _, tt := range tests {
		if got := WarmupRecords(tt.records, tt.rate, tt.warm); got != tt.want {
			t.Errorf("WarmupRecords(%d, %g, %v) = %d, want %d", tt.records, tt.rate, tt.warm, got, tt.want)
		}
	}
}

// TestBuiltinWindows pins which built-in scenarios the dry run flags as short; each study's
// notes say why these stay so (dms-producer: the estimate's rate is far above what its 1 KiB
// batches reach; sizes-and-counts: fast consumer reads within the study's budget).
func TestBuiltinWindows(t *testing.T) {
	want := map[string][]string{
		"dms-producer": {"batch=1KiB,replicas=3,acks=1", "batch=1KiB,replicas=3,acks=-1", "batch=1KiB,replicas=1,acks=1,zone=cross-az"},
		"sizes-and-counts": {"fetch_size=1KiB", "fetch_size=512KiB", "fetch_size=1MiB", "fetch_size=2MiB", "fetch_size=3MiB",
			"fetch_size=4MiB", "messages=10000", "messages=50000", "messages=100000"},
	}
	for _, name := range Builtins() {
		plan, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var short []string
		for _, s := range plan.Scenarios {
			if plan.ShortWindow(s) != "" {
				short = append(short, s.ID)
			}
		}
		if !slices.Equal(short, want[name]) {
			t.Errorf("%s: short windows %q, want %q", name, short, want[name])
		}
	}
}
