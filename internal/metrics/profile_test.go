package metrics

import (
	"bytes"
	"context"
	"runtime/pprof"
	"sync"
	"testing"
)

// sink keeps burn's work from being optimised away.
var sink int

// burn does n units of CPU-bound work: the same CPU time per unit however busy the machine.
func burn(n int) {
	x := 0
	for range n {
		for i := range 100_000 {
			x ^= i * i
		}
	}
	sink += x
}

// TestProfileCPUByLabel profiles two labelled goroutines, one doing three times the work of
// the other, the busier one through a child goroutine (labels are inherited). The profile
// samples at 100 Hz, so the test checks the ratio loosely: 3:1 expected, at least 1.5:1
// required.
func TestProfileCPUByLabel(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Skipf("cpu profiler busy: %v", err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go pprof.Do(context.Background(), pprof.Labels("role", "big"), func(context.Context) {
		defer wg.Done()
		done := make(chan struct{})
		go func() { burn(3 * 2000); close(done) }()
		<-done
	})
	go pprof.Do(context.Background(), pprof.Labels("role", "small"), func(context.Context) {
		defer wg.Done()
		burn(2000)
	})
	wg.Wait()
	pprof.StopCPUProfile()
	got, err := ProfileCPUByLabel(buf.Bytes(), "role")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cpu ns by label: %v", got)
	if got["big"] < 3*got["small"]/2 || got["small"] == 0 {
		t.Errorf("cpu ns by label %v, want big about 3x small", got)
	}
}

func TestProtoFields(t *testing.T) {
	// Field 1 varint 150 (08 96 01), field 2 bytes "hi" (12 02 68 69), field 3 fixed64
	// (19 + 8 bytes), skipped.
	msg := []byte{0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i', 0x19, 1, 2, 3, 4, 5, 6, 7, 8}
	var got []string
	err := protoFields(msg, func(num int, v uint64, data []byte) error {
		got = append(got, string(rune('0'+num))+":"+string(data)+":"+string(rune('0'+v%10)))
		return nil
	})
	// 150 % 10 = 0.
	if err != nil || len(got) != 2 || got[0] != "1::0" || got[1] != "2:hi:0" {
		t.Errorf("fields %q, err %v", got, err)
	}
	if err := protoFields([]byte{0x12, 0x05, 'x'}, func(int, uint64, []byte) error { return nil }); err == nil {
		t.Error("a truncated field parsed")
	}
}
