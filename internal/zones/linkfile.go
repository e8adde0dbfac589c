package zones

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/kbench/kbench/internal/atomicfile"
)

// LinkFile and BrokerLinkFile are the files, in the proxy process's working directory,
// from which it reads a new client link and a new link between brokers on SIGHUP; it
// removes each file it applied, so a signal applies only what was written for it.
const (
	LinkFile       = "link.json"
	BrokerLinkFile = "broker-link.json"
)

type linkJSON struct {
	RTT       string `json:"rtt"`
	Bandwidth int64  `json:"bandwidth"`
}

// WriteLinkFile writes l to path for a proxy process to read on SIGHUP.
func WriteLinkFile(path string, l Link) error {
	data, _ := json.Marshal(linkJSON{RTT: l.RTT.String(), Bandwidth: l.Bandwidth})
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write proxy link: %w", err)
	}
	return nil
}

// ReadLinkFile reads and validates a link written by WriteLinkFile.
func ReadLinkFile(path string) (Link, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Link{}, fmt.Errorf("read proxy link: %w", err)
	}
	var j linkJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return Link{}, fmt.Errorf("%s: %w", path, err)
	}
	rtt, err := time.ParseDuration(j.RTT)
	if err != nil {
		return Link{}, fmt.Errorf("%s: rtt %q: %w", path, j.RTT, err)
	}
	l := Link{RTT: rtt, Bandwidth: j.Bandwidth}
	return l, l.Validate()
}
