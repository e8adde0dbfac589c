package settings

// Record sizes against the producer's byte limits. The Java client fails a record larger
// than max.request.size or buffer.memory at send(); kbench knows its record sizes before it
// starts, so it refuses them before anything is allocated or started.

const (
	// RecordBatchOverhead bounds the bytes a batch adds around one record's value as kbench
	// sends it: the batch header (65 bytes as franz-go counts it), the record's varint
	// fields, a key of up to 32 bytes and kbench's timestamp header.
	RecordBatchOverhead = 160
	// MinBatchBytes is franz-go's smallest batch cap (kgo.ProducerBatchMaxBytes).
	MinBatchBytes = 512

	kgoBatchHeader  = 65 // franz-go's count of a record batch header
	javaBatchHeader = 61 // the Java client's (DefaultRecordBatch.RECORD_BATCH_OVERHEAD)
	// recordFraming is the fewest bytes framing one record in a batch: its length,
	// attributes, timestamp and offset deltas, key and value lengths and header count.
	recordFraming = 7
)

// CheckRecords checks a producer's resolved settings against the sizes of the record values
// it will send, the smallest and the largest: a record must fit a request and the buffer,
// and batch.size must mean what it means to the Java client.
func CheckRecords(r *Resolved, smallest, largest int64) error {
	need := largest + RecordBatchOverhead
	if m := r.Int("max.request.size"); need > m {
		return errorf("max.request.size", "record size %d bytes does not fit max.request.size=%d (a record needs up to %d bytes more for its batch, key and headers)",
			largest, m, RecordBatchOverhead)
	}
	if m := r.Int("buffer.memory"); need > m {
		return errorf("buffer.memory", "record size %d bytes does not fit buffer.memory=%d (a record needs up to %d bytes more for its batch, key and headers)",
			largest, m, RecordBatchOverhead)
	}
	return checkBatchSize(r.Int("batch.size"), smallest)
}

// checkBatchSize refuses a batch.size below franz-go's 512-byte minimum when the records are
// small enough that franz-go's smallest batch would hold more of them than the Java
// client's batch.size allows. A batch.size smaller than one record means one record per
// batch to the Java client, which franz-go does too once a record needs more than half of
// 512 bytes.
func checkBatchSize(batch, smallest int64) error {
	if batch >= MinBatchBytes {
		return nil
	}
	java := max(1, (batch-javaBatchHeader)/(smallest+recordFraming))
	kgo := max(1, (MinBatchBytes-kgoBatchHeader)/(smallest+recordFraming))
	if kgo <= java {
		return nil
	}
	// The smallest record size for which franz-go's 512-byte batch holds no more records.
	least := smallest
	for max(1, (MinBatchBytes-kgoBatchHeader)/(least+recordFraming)) > max(1, (batch-javaBatchHeader)/(least+recordFraming)) {
		least++
	}
	return errorf("batch.size", "batch.size=%d cannot be honoured for %d-byte records: franz-go's smallest batch (%d bytes) holds %d of them where the Java client's holds %d; use batch.size >= %d or records of at least %d bytes",
		batch, smallest, MinBatchBytes, kgo, java, MinBatchBytes, least)
}
