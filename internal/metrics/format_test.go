package metrics

import "fmt"

func ExampleFormatBrokerLines() {
	const mb = 1024 * 1024
	s := Summary{Brokers: []BrokerSummary{
		{ID: 1, CPUAllotment: 2, Fields: map[string]Stat{
			FieldCPUCores:               {Mean: 0.84, Max: 1.02},
			FieldCPUPercent:             {Mean: 42},
			FieldDiskWriteBytesSec:      {Mean: 12.5 * mb},
			FieldDiskReadBytesSec:       {Mean: 0},
			FieldBytesInSec:             {Mean: 5 * mb},
			FieldReplicationBytesInSec:  {Mean: 5 * mb},
			FieldBytesOutSec:            {Mean: 15 * mb},
			FieldReplicationBytesOutSec: {Mean: 5 * mb},
			FieldRSSBytes:               {Mean: 612 * mb},
		}},
		// A remote broker whose exporter gives process CPU and BytesIn only.
		{ID: 2, Fields: map[string]Stat{
			FieldCPUCores:   {Mean: 0.5, Max: 0.75},
			FieldBytesInSec: {Mean: 1 * mb},
		}},
		{ID: 3, Fields: map[string]Stat{}},
	}}
	for _, l := range FormatBrokerLines(s) {
		fmt.Println(l)
	}
	// Output:
	// broker 1: cpu 0.84 cores avg, 1.02 max (42.0% of 2); disk write 12.50 MB/s, read 0.00 MB/s; net in 10.00 MB/s, out 20.00 MB/s (replication in 5.00, out 5.00); rss 612.0 MB
	// broker 2: cpu 0.50 cores avg, 0.75 max; net in 1.00 MB/s, out 0.00 MB/s
	// broker 3: no metrics
}
