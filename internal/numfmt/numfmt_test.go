package numfmt

import "testing"

func TestWholeAndDigits(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{999, "999"},
		{1000, "1,000"},
		{41200.4, "41,200"},
		{41200.5, "41,201"},
		{1234567, "1,234,567"},
		{-1234567, "-1,234,567"},
		{-999.6, "-1,000"},
	} {
		if got := Whole(tc.in); got != tc.want {
			t.Errorf("Whole(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Digits("-100000"); got != "-100,000" {
		t.Errorf("Digits(-100000) = %q", got)
	}
}
