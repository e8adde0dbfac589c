package verify

import (
	"encoding/binary"
	"strconv"
)

// recordMagic opens every value kbench verify writes, with the format's version.
var recordMagic = [4]byte{'K', 'B', 'V', '1'}

// valueSize is the size of a sequenced value: magic, run, producer, sequence, partition.
const valueSize = 4 + 8 + 4 + 8 + 4

// record is what a sequenced value says about itself.
type record struct {
	run       uint64
	producer  int32
	seq       int64
	partition int32 // the partition it was sent to
}

// encode appends r's value to b: fixed size, big-endian, so a reader decodes it without
// allocating and a human can still find it with kafka-console-consumer's hex output.
func (r record) encode(b []byte) []byte {
	b = append(b, recordMagic[:]...)
	b = binary.BigEndian.AppendUint64(b, r.run)
	b = binary.BigEndian.AppendUint32(b, uint32(r.producer))
	b = binary.BigEndian.AppendUint64(b, uint64(r.seq))
	return binary.BigEndian.AppendUint32(b, uint32(r.partition))
}

// decode reads a value written by encode; ok is false for anything else.
func decode(v []byte) (r record, ok bool) {
	if len(v) != valueSize || [4]byte(v[:4]) != recordMagic {
		return record{}, false
	}
	r.run = binary.BigEndian.Uint64(v[4:])
	r.producer = int32(binary.BigEndian.Uint32(v[12:]))
	r.seq = int64(binary.BigEndian.Uint64(v[16:]))
	r.partition = int32(binary.BigEndian.Uint32(v[24:]))
	return r, r.producer >= 0 && r.seq >= 0
}

// key is the record's key, "producer-seq" in decimal: readable in any console consumer. The
// partition is chosen by the source, so the key does not place the record.
func (r record) key() []byte {
	b := strconv.AppendInt(nil, int64(r.producer), 10)
	b = append(b, '-')
	return strconv.AppendInt(b, r.seq, 10)
}

// expectedPartition spreads each producer's records round-robin over the partitions, the
// producers offset from one another, so every partition gets every producer's records.
func expectedPartition(producer int32, seq int64, partitions int) int32 {
	return int32((seq + int64(producer)) % int64(partitions))
}
