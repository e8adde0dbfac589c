package report

import "testing"

// Numbers as people read them: grouped thousands, fewer decimals as they grow, three
// significant digits below 1 and never an exponent.
func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		0:          "0",
		1234567:    "1,234,567",
		123.4:      "123",
		12.34:      "12.3",
		1.234:      "1.23",
		0.5:        "0.5",
		0.123:      "0.123",
		0.05:       "0.05",
		0.00001111: "0.0000111",
		-0.00042:   "-0.00042",
	} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}
