package load

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

// randomPoolMin is the size of the shared pool random payloads are cut from. Each record takes
// a window at a random offset, so consecutive records differ and compress as Kafka's tool's
// do (uniform A-Z), without generating bytes per record, which is most of that tool's CPU.
const randomPoolMin = 8 << 20

// payloads hands out record values. It is shared by the workers and read-only after creation.
type payloads struct {
	size      int      // fixed record size (random payloads)
	pool      []byte   // random A-Z bytes, len >= size
	list      [][]byte // payload file entries
	monotonic bool     // the record's sequence number in decimal
}

func newRandomPayloads(size int, seed uint64) *payloads {
	n := max(randomPoolMin, 64*size)
	pool := make([]byte, n+size)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for i := range pool {
		// As Kafka's ProducerPerformance: random.nextInt(26) + 65.
		pool[i] = byte(r.IntN(26) + 'A')
	}
	return &payloads{size: size, pool: pool}
}

// next returns record n's value. r is the worker's random source; scratch is per-record memory
// the monotonic payload is written into.
func (p *payloads) next(r *rand.Rand, n int64, scratch []byte) []byte {
	switch {
	case p.list != nil:
		return p.list[r.IntN(len(p.list))]
	case p.monotonic:
		return strconv.AppendInt(scratch[:0], n, 10)
	}
	off := r.IntN(len(p.pool) - p.size + 1)
	return p.pool[off : off+p.size : off+p.size]
}

// ReadPayloadFile reads the payloads of --payload-file: the file split on delim (a literal
// string, "\n" by default in Kafka's tool), empty entries skipped.
func ReadPayloadFile(path, delim string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("unable to read payload file: %w", err)
	}
	if delim == "" {
		delim = "\n"
	}
	var out [][]byte
	for _, p := range bytes.Split(b, []byte(delim)) {
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("payload file %s is empty", path)
	}
	return out, nil
}

// KeyDistribution says how records are keyed.
type KeyDistribution string

// The key distributions.
const (
	// KeysNone sends records without keys (as Kafka's tool does); the partitioner spreads them.
	KeysNone KeyDistribution = "none"
	// KeysRandom picks a key uniformly from the key space for each record.
	KeysRandom KeyDistribution = "random"
	// KeysRoundRobin cycles through the key space in order.
	KeysRoundRobin KeyDistribution = "round-robin"
)

// ParseKeyDistribution validates a --key-distribution value.
func ParseKeyDistribution(s string) (KeyDistribution, error) {
	switch KeyDistribution(s) {
	case "", KeysNone:
		return KeysNone, nil
	case KeysRandom, KeysRoundRobin:
		return KeyDistribution(s), nil
	case "range": // Kafka 4.4's ProducerPerformance spelling of round-robin keys
		return KeysRoundRobin, nil
	}
	return "", fmt.Errorf("invalid key distribution %q: want none, random or round-robin (range)", s)
}

// keySpace holds the pre-built keys "key-0" .. "key-<n-1>".
type keySpace struct {
	dist KeyDistribution
	keys [][]byte
}

func newKeySpace(dist KeyDistribution, n int) (*keySpace, error) {
	if dist == KeysNone || dist == "" {
		return &keySpace{dist: KeysNone}, nil
	}
	if n <= 0 {
		return nil, errors.New("key space must hold at least one key")
	}
	ks := &keySpace{dist: dist, keys: make([][]byte, n)}
	for i := range ks.keys {
		ks.keys[i] = []byte("key-" + strconv.Itoa(i))
	}
	return ks, nil
}

func (k *keySpace) next(r *rand.Rand, n int64) []byte {
	switch k.dist {
	case KeysRandom:
		return k.keys[r.IntN(len(k.keys))]
	case KeysRoundRobin:
		return k.keys[n%int64(len(k.keys))]
	}
	return nil
}
