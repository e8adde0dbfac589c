package results

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// CollectHost reads the facts of the host from proc, a file system rooted at /proc, and sys,
// rooted at /sys (os.DirFS in use, fstest.MapFS in tests). Facts that cannot be read are
// left empty rather than failing the run; the error lists what was missing.
//
// Sources: proc(5) cpuinfo ("model name", one "processor" line per logical CPU), meminfo
// (MemTotal in kB), sys/kernel/{ostype,osrelease,hostname}; sysfs block/<dev>/size (512-byte
// sectors) and block/<dev>/queue/rotational; PageReportingOrderPath.
func CollectHost(proc, sys fs.FS) (Host, error) {
	h := Host{OS: runtime.GOOS, Arch: runtime.GOARCH}
	var missing []string
	if b, err := fs.ReadFile(proc, "cpuinfo"); err == nil {
		h.CPUModel, h.Cores = parseCPUInfo(b)
	} else {
		missing = append(missing, "cpuinfo")
	}
	if b, err := fs.ReadFile(proc, "meminfo"); err == nil {
		h.MemoryBytes = parseMemTotal(b)
	} else {
		missing = append(missing, "meminfo")
	}
	ostype, err1 := fs.ReadFile(proc, "sys/kernel/ostype")
	release, err2 := fs.ReadFile(proc, "sys/kernel/osrelease")
	if err1 == nil && err2 == nil {
		h.Kernel = strings.TrimSpace(string(ostype)) + " " + strings.TrimSpace(string(release))
	} else {
		missing = append(missing, "sys/kernel/osrelease")
	}
	if b, err := fs.ReadFile(proc, "sys/kernel/hostname"); err == nil {
		h.Hostname = strings.TrimSpace(string(b))
	}
	if sys != nil {
		h.Disks = blockDevices(sys)
		h.PageReportingOrder = PageReportingOrder(sys)
	}
	if len(missing) > 0 {
		return h, fmt.Errorf("unable to read host facts from /proc: %s", strings.Join(missing, ", "))
	}
	return h, nil
}

func parseCPUInfo(b []byte) (model string, cores int) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			cores++
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		}
	}
	return model, cores
}

func parseMemTotal(b []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// blockDevices lists real disks under sys/block, skipping loop, ram and device-mapper
// devices, which say nothing about the hardware.
func blockDevices(sys fs.FS) []string {
	entries, err := fs.ReadDir(sys, "block")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "loop") || strings.HasPrefix(name, "ram") ||
			strings.HasPrefix(name, "dm-") || strings.HasPrefix(name, "zram") {
			continue
		}
		kind := "disk"
		if b, err := fs.ReadFile(sys, "block/"+name+"/queue/rotational"); err == nil {
			switch strings.TrimSpace(string(b)) {
			case "0":
				kind = "ssd"
			case "1":
				kind = "hdd"
			}
		}
		desc := name + " " + kind
		if b, err := fs.ReadFile(sys, "block/"+name+"/size"); err == nil {
			if sectors, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && sectors > 0 {
				desc += " " + FormatBytes(sectors*512)
			}
		}
		out = append(out, desc)
	}
	sort.Strings(out)
	return out
}

// FormatBytes renders n bytes with a binary unit, for example "1.5 GiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + string("KMGTPE"[exp]) + "iB"
}
