package load

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// countingSource puts record n of producer i on partition (n+i) mod 3 and remembers every
// outcome.
type countingSource struct {
	mu       sync.Mutex
	filled   int
	outcomes map[string]int // "i/n" -> calls
	wrong    int            // acknowledged on another partition than chosen
}

func (s *countingSource) Sizes() (int, int) { return 1, 20 }

func (s *countingSource) Fill(i int, n int64, r *kgo.Record) {
	s.mu.Lock()
	s.filled++
	s.mu.Unlock()
	r.Value = strconv.AppendInt(nil, n, 10)
	r.Partition = int32((n + int64(i)) % 3)
}

func (s *countingSource) Outcome(i int, n int64, r *kgo.Record, err error, unsent bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outcomes[strconv.Itoa(i)+"/"+strconv.FormatInt(n, 10)]++
	if err == nil && r.Partition != int32((n+int64(i))%3) {
		s.wrong++
	}
}

func TestRecordSourceFake(t *testing.T) {
	boot := newFakeCluster(t, "src")
	src := &countingSource{outcomes: map[string]int{}}
	// 2 producers x 150 records: 300 fills, 300 distinct outcomes, each heard once.
	res, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "src", Producers: 2,
		Records: 300, Source: src}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total.Acked != 300 || src.filled != 300 || len(src.outcomes) != 300 || src.wrong != 0 {
		t.Fatalf("acked %d, filled %d, distinct outcomes %d, wrong partition %d; want 300, 300, 300, 0",
			res.Total.Acked, src.filled, len(src.outcomes), src.wrong)
	}
	for k, c := range src.outcomes {
		if c != 1 {
			t.Fatalf("record %s heard %d times, want once", k, c)
		}
	}
}
