package faults

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// commandTimeout bounds one fault command: a rolling restart of one broker over ssh.
const commandTimeout = 10 * time.Minute

// ErrNotConfirmed is returned by NewCommandTarget when the user gave fault commands but did
// not confirm that kbench may run them against their cluster.
var ErrNotConfirmed = errors.New("faults on an external cluster run the --fault-command lines against your brokers: add --yes to confirm")

// command runs the user's command for a broker in place of a kill: kbench cannot signal a
// process on another host, so the command (ssh ... systemctl restart kafka, kubectl delete
// pod ...) is the fault and its own heal; the broker is expected back when it ends.
type command struct {
	cmds   map[int32][]string
	client *kgo.Client
	topic  string
}

// NewCommandTarget returns the target for an external cluster: a kill or term fault runs
// cmds[broker] (an argv, see ParseCommands) for the broker the step picks, through client
// (the cluster's; not closed) and topic. Without confirmed it refuses (ErrNotConfirmed).
func NewCommandTarget(cmds map[int32][]string, confirmed bool, client *kgo.Client, topic string) (Target, error) {
	if len(cmds) == 0 {
		return nil, errors.New("no faults on an external cluster without a command per broker: --fault-command ID='ssh kafka-ID sudo systemctl restart kafka'")
	}
	if !confirmed {
		return nil, ErrNotConfirmed
	}
	return &command{cmds: cmds, client: client, topic: topic}, nil
}

// Check refuses pauses, cuts and truncates, which need the brokers' processes or proxies, and a
// cluster with a broker that has no command.
func (t *command) Check(ctx context.Context, p Plan) error {
	for _, s := range p.Steps {
		if s.Action != Kill && s.Action != Term {
			return fmt.Errorf("fault %s: on an external cluster only kill and term faults run (each through its broker's --fault-command)", s.Kind())
		}
	}
	if len(p.Steps) == 0 {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	md, err := kadm.NewClient(t.client).BrokerMetadata(fresh(rctx))
	if err != nil {
		return fmt.Errorf("list the brokers: %w", err)
	}
	var missing []int32
	for _, b := range md.Brokers {
		if _, ok := t.cmds[b.NodeID]; !ok {
			missing = append(missing, b.NodeID)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no --fault-command for broker(s) %v: give one per broker, since any may be picked", missing)
	}
	return nil
}

// Inject runs the picked broker's command and returns when it has finished.
func (t *command) Inject(ctx context.Context, s Step) (Injection, error) {
	id, role, err := pick(ctx, t.client, t.topic, s)
	if err != nil {
		return Injection{}, err
	}
	inj := Injection{Broker: id, Partition: s.Partition}
	if s.Role == Controller {
		inj.Partition = -1
	}
	argv, ok := t.cmds[id]
	if !ok {
		return inj, fmt.Errorf("no --fault-command for broker %d (%s)", id, role)
	}
	inj.Detail = fmt.Sprintf("ran broker %d's fault command, %s: %s", id, role, strings.Join(argv, " "))
	cctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		last := strings.TrimSpace(out.String())
		if i := strings.LastIndexByte(last, '\n'); i >= 0 {
			last = last[i+1:]
		}
		return inj, fmt.Errorf("broker %d's fault command %q: %v: %s", id, argv[0], err, last)
	}
	return inj, nil
}

// ParseCommands reads --fault-command values, ID=COMMAND each (1='ssh kafka-1 sudo
// systemctl restart kafka'), into an argv per broker. The command is split into words as a
// POSIX shell would (single and double quotes, backslash escapes) but run without a shell:
// nothing in it is expanded ($VAR, globs, ~) or chained (;, |, &&), so it runs exactly as
// logged; a command that needs a shell says so itself: 1='sh -c "..."'.
func ParseCommands(values []string) (map[int32][]string, error) {
	cmds := map[int32][]string{}
	for _, v := range values {
		idText, line, ok := strings.Cut(v, "=")
		id, err := strconv.ParseInt(strings.TrimSpace(idText), 10, 32)
		if !ok || err != nil || id < 0 {
			return nil, fmt.Errorf("--fault-command %q: want BROKER_ID=COMMAND, e.g. 1='ssh kafka-1 sudo systemctl restart kafka'", v)
		}
		argv, err := splitWords(line)
		if err != nil {
			return nil, fmt.Errorf("--fault-command %q: %w", v, err)
		}
		if len(argv) == 0 {
			return nil, fmt.Errorf("--fault-command %q: the command is empty", v)
		}
		if _, dup := cmds[int32(id)]; dup {
			return nil, fmt.Errorf("--fault-command %q: broker %d has a command already", v, id)
		}
		cmds[int32(id)] = argv
	}
	return cmds, nil
}

// splitWords splits s into words as sh does, without expanding anything: whitespace
// separates words; '...' keeps everything literally; "..." keeps everything but \" and \\;
// a backslash outside quotes keeps the next character.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("ends with a backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, errors.New(`unterminated " quote`)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return slices.Clip(words), nil
}
