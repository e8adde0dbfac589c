package zones

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is Linux's USER_HZ, the unit of /proc/PID/stat's CPU times (100 on every
// architecture Go supports there).
const clockTick = 10 * time.Millisecond

// ProcessCPU returns the user+system CPU time of the proxy process pid, from
// /proc/PID/stat (utime and stime, fields 14 and 15, in clock ticks). It is how the
// proxies' own cost is measured beside the client's.
func ProcessCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("proxy process %d: %w", pid, err)
	}
	return parseStatCPU(string(data))
}

// parseStatCPU reads utime+stime from a /proc/PID/stat line. The command name (field 2) is
// in parentheses and may hold spaces, so fields are counted after its closing one.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed /proc stat line")
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state), so field n is f[n-3]
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed /proc stat line")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("malformed /proc stat line")
	}
	return time.Duration(utime+stime) * clockTick, nil
}
