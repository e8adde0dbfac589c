// Package verify checks a durability claim the way Jepsen and Kafka's own system tests do:
// producers write sequenced records (run, producer, sequence, expected partition in every
// value), every acknowledgement and failure is kept in a compact History (one fixed-size
// Entry per acknowledgement, never a payload), faults run meanwhile, and afterwards a fresh
// consumer reads every partition from its earliest offset to a stable high watermark. The
// Checker then names what went wrong with Jepsen's words: lost (acknowledged, never read),
// duplicated, reordered (within a partition and producer), inconsistent offsets (an
// acknowledged offset holding another record, or one offset claimed by two records),
// unexpected (read, never sent); records read but never acknowledged are counted apart, as
// they are no error.
//
// The records are sent through internal/load's trial seam (a load.RecordSource), so they are
// paced open-loop and accounted like every other workload. The package never prints:
// progress goes to a callback, the outcome is a Result.
package verify
