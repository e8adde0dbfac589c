package cli

// kbench's exit codes besides 0 (done, nothing to report), one meaning each, so that a script or CI job can tell a slower build
// from a broken run. docs/exit-codes.md lists them; a test keeps the two in step.
const (
	// exitFailed: any error; nothing usable was measured, or the command stopped part way.
	exitFailed = 1
	// exitRegression: kbench compare found a figure of B worse than A's beyond
	// --fail-on-regression and the spread, or a scenario valid in A broken in B.
	exitRegression = 3
	// exitNotComparable: kbench compare found no regression, but some scenarios were not
	// judged because B ran a different workload or cluster: a gate must not pass a build it
	// did not measure like for like.
	exitNotComparable = 4
	// exitAllInvalid: kbench run ended, but every repeat it ran was invalid.
	exitAllInvalid = 5
	// exitAnomalies: kbench verify ran, and the check found lost, duplicated or reordered
	// records: the run worked, the claim did not hold.
	exitAnomalies = 6
	// exitNotConverged: kbench capacity ran out of its budget (--max-duration) before every
	// bracket converged and was confirmed; the best bracket found is printed and labelled.
	exitNotConverged = 7
	// exitBlind: kbench compare could not have seen a change as small as
	// --fail-on-regression with the repeats it had, and --allow-blind was not given.
	exitBlind = 8
	// exitStep: kbench history --fail-on-step found a series whose latest group of runs is
	// worse than the group before by more than the threshold, beyond the noise.
	exitStep = 9
	// exitInterrupted: Ctrl-C or SIGTERM (128 + SIGINT's 2, as a shell reports it).
	exitInterrupted = 130
)
