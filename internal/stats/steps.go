package stats

import (
	"math"
)

// Steps finds where a series of runs moved: it splits the runs, in the order they were
// taken, into consecutive groups of one level each and reports the steps between groups.
// Each run is the values of its repeats (positive figures such as records/s or a latency);
// a run without repeats is a single value.
//
// The method is minimum description length in the spirit of FD.io CSIT's jumpavg: among
// all ways of cutting the series, the one that describes it in the fewest bits wins, where
// describing a group costs its level and describing a run costs its distance from its
// group's level under Gaussian noise. More groups always fit better; each cut must buy more
// than it costs, so noise alone rarely pays for one. In detail:
//
//   - A run's value is the logarithm of its median, so a step is a ratio and the same
//     10% reads the same at any scale.
//   - Runs with repeats bring their own spread: the variance of a run's median (pi/2 times
//     the repeats' variance over their count), shrunk towards the series' typical one
//     (priorDOF) so that three repeats that happen to agree cannot dominate, is added to
//     the noise between runs to give the run's variance around its level, and its weight
//     is the typical run's variance over its own. The noise between runs matters: where
//     runs differ far more than their repeats do, an erratic run's spread explains little
//     of its distance (repeats 129 and 392 records/s after runs at 2,000-5,000 are a drop,
//     not noise). The noise between runs is never taken below the typical run's own spread.
//   - The noise level of the runs is fitted (the maximum-likelihood variance of the runs
//     around their groups' levels), so no level of noise has to be assumed.
//   - The cost of a cutting into k groups is n ln(sigma^2) + RSS/sigma^2 (twice the
//     negative log-likelihood) plus Penalty(n) for each of the k-1 cuts; for each k the best
//     cutting is found exactly by dynamic programming, and the cheapest k wins.
//   - A group of one run is allowed only at the end, where the runs after it have not come
//     yet, and its cut costs LoneRunPenalty: a lone run between two others is an outlier,
//     never a step, and a lone last run must stand far out to be one.
//
// Simulated over seeded series (steps_test.go): with 20 runs of 3 repeats and 3% noise per
// repeat, a 10% step is found alone at its run in 98 of 100 series; step-free series show a
// step in 1 of 100; a lone run 3 sigma out is called a step in 0 of 100 in the middle, and
// at the end in 37 of 1,000; with one run in four erratic (ten times the spread), a
// step-free series is called stepped in about 5%. Values must be positive; a run with
// none is the caller's to leave out.
func Steps(runs [][]float64) StepResult {
	n := len(runs)
	res := StepResult{Runs: n}
	if n == 0 {
		return res
	}
	y := make([]float64, n)
	se2 := make([]float64, n) // variance of each run's log-median from its repeats; -1 unknown
	dof := make([]float64, n) // the degrees of freedom of that variance
	for i, xs := range runs {
		ls := logsOf(xs)
		y[i] = math.Log(Median(xs))
		se2[i] = -1
		if len(ls) >= 2 {
			se2[i] = math.Pi / 2 * variance(ls) / float64(len(ls))
			dof[i] = float64(len(ls) - 1)
		}
	}
	// The typical run's own spread: the median over the runs that have repeats.
	var known []float64
	for _, v := range se2 {
		if v >= 0 {
			known = append(known, v)
		}
	}
	typical := 0.0
	if len(known) > 0 {
		typical = Median(known)
	}
	// The variance of a run around its level: the noise between runs plus the run's own.
	// The total for a typical run is estimated from successive runs' differences (their
	// median, which a step or an outlier hardly moves; the median of a chi-square of one
	// degree of freedom is 0.4549).
	var sq []float64
	for i := 1; i < n; i++ {
		sq = append(sq, (y[i]-y[i-1])*(y[i]-y[i-1]))
	}
	total := typical
	if len(sq) > 0 {
		total = math.Max(typical, Median(sq)/(2*0.4549))
	}
	w := make([]float64, n)
	for i, v := range se2 {
		w[i] = 1
		if v >= 0 && typical > 0 {
			// A variance from a few repeats is itself noisy: it is shrunk towards the
			// typical one as if that were known from priorDOF more degrees of freedom.
			own := (priorDOF*typical + dof[i]*v) / (priorDOF + dof[i])
			w[i] = total / (total - typical + own)
		}
	}
	// A floor on the noise: the typical run's spread, and a relative resolution of 1e-4 so
	// that a series of equal values has a finite description.
	floor := math.Max(typical, 1e-8)
	cuts := bestCuts(y, w, floor, Penalty(n), LoneRunPenalty(n))
	res.Noise = math.Sqrt(noiseOf(y, w, cuts, floor))
	starts := append([]int{0}, cuts...)
	for g, s := range starts {
		e := n
		if g+1 < len(starts) {
			e = starts[g+1]
		}
		res.Groups = append(res.Groups, groupOf(y, w, s, e))
	}
	for g := 1; g < len(res.Groups); g++ {
		a, b := res.Groups[g-1], res.Groups[g]
		se := res.Noise * math.Sqrt(1/a.weight+1/b.weight)
		z := math.Abs(math.Log(b.Level/a.Level)) / se
		res.Steps = append(res.Steps, Step{Run: b.Start, Before: a.Level, After: b.Level,
			Change: b.Level/a.Level - 1, Z: z, Confidence: 1 - math.Erfc(z/math.Sqrt2)})
	}
	return res
}

// StepResult is a series cut into groups of one level, and the steps between them.
type StepResult struct {
	// Runs is the length of the series.
	Runs int
	// Groups cover the runs in order; Steps has one entry per boundary between groups.
	Groups []Group
	Steps  []Step
	// Noise is the fitted standard deviation of a run's log-median around its group's
	// level, about the relative noise of one run (0.03 for 3%).
	Noise float64
}

// Group is a stretch of consecutive runs at one level: runs Start to End-1 (0-based).
type Group struct {
	Start, End int
	// Level is the group's typical value: the exponential of its runs' weighted mean
	// log-median (a geometric mean of the medians).
	Level  float64
	weight float64
}

// Step is a move between two consecutive groups.
type Step struct {
	// Run is the first run (0-based) of the group after the step.
	Run int
	// Before and After are the two groups' levels; Change is After/Before - 1.
	Before, After, Change float64
	// Z is the step in units of its standard error given the fitted noise, and Confidence
	// its two-sided normal coverage (0.997 for z = 3). The cut was chosen by the data, so
	// they describe the step's size against the noise; they are not a test's p-value.
	Z, Confidence float64
}

// Penalty is the description cost of one more cut in a series of n runs, in the units of
// twice a negative log-likelihood: 3 ln n, three times the Bayesian information criterion's
// per-parameter price (a cut adds a position and a level), and at least 13. With the noise
// fitted from the series itself the best single cut of step-free noise gains about 13 or
// less in 99 series of 100, at any length from 4 runs to 80 (measured by simulation); the
// plain criterion's ln n per parameter cut one step-free series of 10 runs in five.
func Penalty(n int) float64 { return math.Max(13, 3*math.Log(float64(n))) }

// LoneRunPenalty is the cost of the cut before a last run that forms a group of its own in
// a series of n runs: n ln(1 + 49/n), about the gain of a run 7 noise sigmas from the rest
// (25 at 20 runs, 49 in long series). One run is one night's noise; two runs together pay
// the ordinary Penalty. A lone run is one position, not a search over positions, so its
// price may be below Penalty's in short series. The 7 sigmas were chosen by simulation: at
// 5 a run 3 sigmas out is called a step in 12% of series of 20 runs, since the noise fitted
// from the other runs is itself uncertain; at 7, in 4%.
func LoneRunPenalty(n int) float64 { return float64(n) * math.Log(1+49/float64(n)) }

// priorDOF is the weight, in degrees of freedom, of the typical run's spread against a
// run's own when the run's weight is set: a spread from 3 repeats has 2.
const priorDOF = 12

// bestCuts returns the starts of the groups after the first (ascending) of the cheapest
// cutting of y: for each number of groups the cutting of least weighted residual sum of
// squares (exact dynamic programming), then the number whose total cost is least.
func bestCuts(y, w []float64, floor, penalty, lonePenalty float64) []int {
	n := len(y)
	if n < 2 {
		return nil
	}
	// Prefix sums give any stretch's weighted residual sum of squares in O(1).
	sw, swy, swyy := make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
	for i := range y {
		sw[i+1] = sw[i] + w[i]
		swy[i+1] = swy[i] + w[i]*y[i]
		swyy[i+1] = swyy[i] + w[i]*y[i]*y[i]
	}
	rss := func(s, e int) float64 { // runs s..e-1
		W, S := sw[e]-sw[s], swy[e]-swy[s]
		return math.Max(0, swyy[e]-swyy[s]-S*S/W)
	}
	maxGroups := min(n, 10)
	inf := math.Inf(1)
	// best[k][e]: least RSS of runs 0..e-1 in k groups of two runs or more (a lone run
	// between two others is an outlier, not a group); from[k][e]: where the last begins.
	best := make([][]float64, maxGroups+1)
	from := make([][]int, maxGroups+1)
	for k := range best {
		best[k] = make([]float64, n+1)
		from[k] = make([]int, n+1)
		for e := range best[k] {
			best[k][e] = inf
		}
	}
	best[0][0] = 0
	for k := 1; k <= maxGroups; k++ {
		for e := 2; e <= n; e++ {
			for s := 0; s <= e-2; s++ {
				if best[k-1][s] == inf {
					continue
				}
				if c := best[k-1][s] + rss(s, e); c < best[k][e] {
					best[k][e], from[k][e] = c, s
				}
			}
		}
	}
	// The cheapest cutting: k groups of two or more, or k-1 of them and the last run alone
	// (a group of one fits exactly, and its cut costs lonePenalty).
	bestK, lone, bestCost := 1, false, inf
	for k := 1; k <= maxGroups; k++ {
		if best[k][n] < inf {
			if c := cost(best[k][n], n, floor) + penalty*float64(k-1); c < bestCost-1e-9 {
				bestK, lone, bestCost = k, false, c
			}
		}
		if k < maxGroups && best[k][n-1] < inf {
			if c := cost(best[k][n-1], n, floor) + penalty*float64(k-1) + lonePenalty; c < bestCost-1e-9 {
				bestK, lone, bestCost = k, true, c
			}
		}
	}
	var cuts []int
	e := n
	if lone {
		cuts, e = []int{n - 1}, n-1
	}
	for k := bestK; k > 1; k-- {
		e = from[k][e]
		cuts = append([]int{e}, cuts...)
	}
	return cuts
}

// cost is twice the negative log-likelihood of n runs with weighted residual sum of squares
// rss, at the maximum-likelihood noise variance held at or above floor.
func cost(rss float64, n int, floor float64) float64 {
	v := math.Max(rss/float64(n), floor)
	return float64(n)*math.Log(v) + rss/v
}

// noiseOf is the fitted noise variance of a cutting: the weighted residual variance of the
// runs around their groups' levels, held at or above floor.
func noiseOf(y, w []float64, cuts []int, floor float64) float64 {
	bounds := append(append([]int{0}, cuts...), len(y))
	rss := 0.0
	for g := 0; g+1 < len(bounds); g++ {
		grp := groupOf(y, w, bounds[g], bounds[g+1])
		for i := bounds[g]; i < bounds[g+1]; i++ {
			d := y[i] - math.Log(grp.Level)
			rss += w[i] * d * d
		}
	}
	return math.Max(rss/float64(len(y)), floor)
}

func groupOf(y, w []float64, s, e int) Group {
	W, S := 0.0, 0.0
	for i := s; i < e; i++ {
		W += w[i]
		S += w[i] * y[i]
	}
	return Group{Start: s, End: e, Level: math.Exp(S / W), weight: W}
}

// logsOf returns the logarithms of the positive finite values of xs.
func logsOf(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			out = append(out, math.Log(x))
		}
	}
	return out
}

// variance is the sample variance (n-1 denominator) of xs, which has at least two values.
func variance(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return v / float64(len(xs)-1)
}
