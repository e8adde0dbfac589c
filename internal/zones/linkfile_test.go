package zones

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLinkFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), LinkFile)
	want := Link{RTT: 20 * time.Millisecond, Bandwidth: 100 << 20}
	if err := WriteLinkFile(path, want); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadLinkFile(path); err != nil || got != want {
		t.Fatalf("read back %v, %v; want %v", got, err, want)
	}
	if err := os.WriteFile(path, []byte(`{"rtt": "-5ms"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLinkFile(path); err == nil {
		t.Fatal("a negative rtt was read")
	}
}
