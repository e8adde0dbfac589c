// Package arch holds the architecture's checks: its test reads `go list` and compares the
// packages and their imports with docs/architecture.md.
package arch
