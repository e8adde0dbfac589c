// Reading the CPU time per goroutine label from a Go CPU profile (runtime/pprof's gzipped
// profile.proto), without the pprof library: only samples, their values and labels, and
// the string table are needed.

package metrics

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ProfileCPUByLabel sums a CPU profile's CPU time (nanoseconds, each sample's last value)
// by the value of the goroutine label key; samples without the label count under "".
// Goroutines inherit their creator's labels (runtime/pprof.Do), so the client goroutines a
// labelled goroutine starts count under its label too.
func ProfileCPUByLabel(profile []byte, key string) (map[string]int64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(profile))
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	type sample struct {
		value  int64
		labels [][2]int64 // string table indices of key and value
	}
	var samples []sample
	var strs []string
	err = protoFields(raw, func(num int, _ uint64, data []byte) error {
		switch num {
		case 2: // Profile.sample
			var s sample
			err := protoFields(data, func(num int, v uint64, data []byte) error {
				switch num {
				case 2: // Sample.value: packed, or one value per field
					if data == nil {
						s.value = int64(v)
						return nil
					}
					for len(data) > 0 {
						x, n := binary.Uvarint(data)
						if n <= 0 {
							return errors.New("bad sample value")
						}
						s.value, data = int64(x), data[n:]
					}
				case 3: // Sample.label
					var l [2]int64
					err := protoFields(data, func(num int, v uint64, _ []byte) error {
						if num == 1 || num == 2 { // Label.key, Label.str
							l[num-1] = int64(v)
						}
						return nil
					})
					if err != nil {
						return err
					}
					s.labels = append(s.labels, l)
				}
				return nil
			})
			if err != nil {
				return err
			}
			samples = append(samples, s)
		case 6: // Profile.string_table
			strs = append(strs, string(data))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	str := func(i int64) string {
		if i < 0 || int(i) >= len(strs) {
			return ""
		}
		return strs[i]
	}
	out := map[string]int64{}
	for _, s := range samples {
		value := ""
		for _, l := range s.labels {
			if str(l[0]) == key {
				value = str(l[1])
			}
		}
		out[value] += s.value
	}
	return out, nil
}

// protoFields calls fn for each field of a protobuf message: its number and, by wire type,
// its varint value (data nil) or its bytes (length-delimited). Fixed-width fields are
// skipped.
func protoFields(b []byte, fn func(num int, v uint64, data []byte) error) error {
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return errors.New("bad field tag")
		}
		b = b[n:]
		num, wire := int(tag>>3), tag&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return errors.New("bad varint")
			}
			b = b[n:]
			if err := fn(num, v, nil); err != nil {
				return err
			}
		case 1, 5:
			size := map[uint64]int{1: 8, 5: 4}[wire]
			if len(b) < size {
				return errors.New("truncated fixed-width field")
			}
			b = b[size:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return errors.New("truncated length-delimited field")
			}
			data := b[n : n+int(l)]
			b = b[n+int(l):]
			if err := fn(num, 0, data); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unsupported wire type %d", wire)
		}
	}
	return nil
}
