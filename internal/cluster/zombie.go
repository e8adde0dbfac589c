package cluster

import (
	"fmt"
	"os"
	"strings"
)

// isZombie reports whether pid has exited but not been reaped (state Z in /proc/PID/stat,
// see proc(5)); such a process still answers kill(pid, 0).
func isZombie(pid int) bool { return procState(pid) == 'Z' }

// procState returns pid's state letter from /proc/PID/stat (proc(5)): R running, S
// sleeping, T stopped, Z zombie...; 0 when it cannot be read.
func procState(pid int) byte {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The state follows the command name, which is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 || i+2 >= len(data) {
		return 0
	}
	return data[i+2]
}
