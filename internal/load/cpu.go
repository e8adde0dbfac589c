package load

import (
	"syscall"
	"time"
)

// CPUUsage is CPU time used by this process (all its threads), as getrusage(2) reports it.
type CPUUsage struct {
	User, System time.Duration
}

// ProcessCPU returns the CPU this process has used so far.
func ProcessCPU() CPUUsage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return CPUUsage{}
	}
	return CPUUsage{
		User:   time.Duration(ru.Utime.Nano()),
		System: time.Duration(ru.Stime.Nano()),
	}
}

// Total is user plus system time.
func (c CPUUsage) Total() time.Duration { return c.User + c.System }

// sub returns the CPU used between o and c.
func (c CPUUsage) sub(o CPUUsage) CPUUsage {
	return CPUUsage{User: c.User - o.User, System: c.System - o.System}
}

// ClientCPU is the client's own cost over a run.
type ClientCPU struct {
	// UserSeconds and SystemSeconds are the process's CPU time during the run.
	UserSeconds   float64 `json:"user_seconds"`
	SystemSeconds float64 `json:"system_seconds"`
	// Seconds is user plus system.
	Seconds float64 `json:"seconds"`
	// SecondsPerMillion is Seconds per million records acknowledged (or consumed).
	SecondsPerMillion float64 `json:"seconds_per_million_records"`
}

func clientCPU(u CPUUsage, records int64) ClientCPU {
	c := ClientCPU{UserSeconds: u.User.Seconds(), SystemSeconds: u.System.Seconds()}
	c.Seconds = c.UserSeconds + c.SystemSeconds
	if records > 0 {
		c.SecondsPerMillion = c.Seconds / float64(records) * 1e6
	}
	return c
}
