package main

import (
	"slices"
	"testing"
)

func TestRotateOrder(t *testing.T) {
	names := []string{"kbench", "kafka", "bare"}
	tests := []struct {
		round int
		want  []string
	}{
		{0, []string{"kbench", "kafka", "bare"}},
		{1, []string{"kafka", "bare", "kbench"}},
		{2, []string{"bare", "kbench", "kafka"}},
		{3, []string{"kbench", "kafka", "bare"}}, // 3 mod 3 = 0
	}
	for _, tt := range tests {
		var order []string
		got, err := rotate(tt.round, names, func(tool string) (sample, error) {
			order = append(order, tool)
			return sample{records: int64(len(tool))}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(order, tt.want) {
			t.Errorf("round %d ran %v, want %v", tt.round, order, tt.want)
		}
		// Each sample is kept under its own tool: len("kafka") = 5, len("bare") = 4.
		if got["kafka"].records != 5 || got["bare"].records != 4 {
			t.Errorf("round %d samples %+v", tt.round, got)
		}
	}
}
