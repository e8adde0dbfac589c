package cluster

import (
	"fmt"
	"os"
	"strings"
)

// isZombie reports whether pid has exited but not been reaped (state Z in /proc/PID/stat,
// see proc(5)); such a process still answers kill(pid, 0).
func isZombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(data), ')')
	return i >= 0 && i+2 < len(data) && data[i+2] == 'Z'
}
