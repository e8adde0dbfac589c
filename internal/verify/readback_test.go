package verify

import (
	"context"
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// TestEndOffsetsAfterElection: a leader just elected answers OFFSET_NOT_AVAILABLE until its
// high watermark catches up (the CI failure of a leader-kill control); the listing waits it
// out, and a non-retriable answer is reported at once.
func TestEndOffsetsAfterElection(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  *kerr.Error
		times   int
		wantErr error
	}{
		{"caught up at once", nil, 0, nil},
		{"high watermark catching up", kerr.OffsetNotAvailable, 3, nil},
		{"leader moved", kerr.NotLeaderForPartition, 2, nil},
		{"not allowed", kerr.TopicAuthorizationFailed, 1, kerr.TopicAuthorizationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(2, "t"))
			answered := 0
			c.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
				c.KeepControl()
				if answered >= tc.times {
					return nil, nil, false
				}
				answered++
				r := req.(*kmsg.ListOffsetsRequest)
				resp := r.ResponseKind().(*kmsg.ListOffsetsResponse)
				for _, rt := range r.Topics {
					st := kmsg.NewListOffsetsResponseTopic()
					st.Topic = rt.Topic
					for _, rp := range rt.Partitions {
						sp := kmsg.NewListOffsetsResponseTopicPartition()
						sp.Partition = rp.Partition
						sp.ErrorCode = tc.answer.Code
						st.Partitions = append(st.Partitions, sp)
					}
					resp.Topics = append(resp.Topics, st)
				}
				return resp, nil, true
			})
			cl, err := kgo.NewClient(kgo.SeedBrokers(boot))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ends, err := endOffsets(context.Background(), kadm.NewClient(cl), "t", 2)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if answered != 1 {
					t.Errorf("asked %d times, want once: a non-retriable answer is not retried", answered)
				}
				return
			}
			if err != nil {
				t.Fatalf("endOffsets: %v", err)
			}
			if len(ends) != 2 || ends[0] != 0 || ends[1] != 0 {
				t.Errorf("ends = %v, want both partitions at 0 (nothing written)", ends)
			}
			if answered != tc.times {
				t.Errorf("refused %d times, want %d", answered, tc.times)
			}
		})
	}
}
