// Package results is kbench's run directory: the versioned, documented files a study run
// leaves behind and the only input of a report. A run directory looks like
//
//	runs/<date>-<study>/
//	  run.json                            the run: study, scenarios, hypotheses, environment
//	  study.yaml                          the study file as it was run, secret values redacted
//	  scenarios/<id>/repeat-<n>.json      one file per scenario and repeat
//
// Every file carries a version field (FormatVersion); files are written atomically
// (temporary file and rename) so a run interrupted at any moment leaves only complete files,
// and property maps are redacted (Redact) before they are written, so passwords and keys never
// reach the disk. docs/run-directory.md describes every field.
package results

// FormatVersion is the version of the run directory format written by this package. Read
// refuses files with a newer version.
const FormatVersion = 1

// File and directory names inside a run directory.
const (
	RunFile      = "run.json"
	StudyFile    = "study.yaml"
	ScenariosDir = "scenarios"
)
