// Package preflight checks, in seconds and before any load, that a client can do what a
// verb needs on a cluster: reach every bootstrap server, finish the TLS handshake,
// authenticate, find its topics and hold the ACLs it will use. It returns one error that
// names the cause and the place (which address and what error; which mechanism and user,
// never the password; which operation on which resource), instead of a load that retries
// for two minutes and then reports a timeout.
//
// Nothing is written to the cluster: topic creation is checked with a validate-only
// CreateTopics request, and the permissions come from the authorized-operations bitfields of
// KIP-430 (Metadata with IncludeTopicAuthorizedOperations, DescribeGroups with
// IncludeAuthorizedOperations), which the broker evaluates for names that do not exist yet
// too, so prefixed ACLs are checked on a name the run would use.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/settings"
)

// Timeout bounds a whole check: the issue the package exists for is a verb that hangs.
const Timeout = 15 * time.Second

// dialTimeout bounds one TCP connect; a broker that has not answered a SYN in 3 s is not
// going to carry a benchmark.
const dialTimeout = 3 * time.Second

// Need is what a verb is about to do on the cluster.
type Need struct {
	// Produce are topics the verb writes to.
	Produce []string
	// Consume are topics the verb reads.
	Consume []string
	// Group is the consumer group the verb joins ("" for none).
	Group string
	// NoCreate refuses a missing Produce topic instead of letting the broker auto-create
	// it (kbench produce --no-create).
	NoCreate bool
	// CreatePrefix is the prefix of the topics the verb creates and deletes itself
	// (kbench run: "kbench-"); "" for none. Create is checked with a validate-only request,
	// write, read and delete on a name under the prefix.
	CreatePrefix string
}

// Result is what a successful check learnt.
type Result struct {
	// ClusterID is the cluster's ID ("" from brokers too old to say).
	ClusterID string
	// Brokers are the node IDs in the metadata, in its order.
	Brokers []int32
	// Notes are facts the user should see but that do not stop the verb: a bootstrap
	// address that is down while others answer, a topic the broker will create.
	Notes []string
}

// Kind is the class of a failure.
type Kind int

// The kinds of failure, in the order a connection meets them.
const (
	Unreachable   Kind = iota + 1 // no TCP connection (refused, no route, DNS, timeout)
	TLSFailed                     // the TLS handshake failed or one side does not speak TLS
	AuthFailed                    // SASL authentication failed or does not match the listener
	NotAuthorized                 // an ACL denies an operation the verb needs
	MissingTopic                  // a topic does not exist and will not be created
	Config                        // the client properties cannot be used
	Other                         // anything else the cluster answered
)

// Error is a failed check: one line for the user.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func fail(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// KindOf returns err's Kind, or 0 when err does not come from Check.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// Check verifies within Timeout that a client with props (Java client properties: the
// security.protocol, sasl.* and ssl.* ones matter here) can reach the cluster at bootstrap
// (comma-separated host:port; "" takes bootstrap.servers from props) and do what need says.
func Check(ctx context.Context, bootstrap string, props map[string]string, need Need) (*Result, error) {
	// The requests get what the diagnosis probes (one TLS, one plaintext, probeTimeout
	// each) may still need after them, so the whole check ends within Timeout.
	ctx, cancel := context.WithTimeout(ctx, Timeout-2*probeTimeout)
	defer cancel()
	// The connection settings the load's clients will use, read by the same code.
	conn, err := kafka.Connect(bootstrap, props)
	if err != nil {
		return nil, fail(Config, "%v", err)
	}
	sec := describeSecurity(settings.Connection(props))
	res := &Result{}
	alive, err := dialAll(ctx, conn.Seeds, "bootstrap server", res)
	if err != nil {
		return nil, err
	}
	c := &checker{sec: sec, need: need, res: res, hook: &lastError{}, boot: strings.Join(conn.Seeds, ",")}
	c.cl, err = conn.NewClient("preflight",
		// Only the bootstrap servers that answered: a dead one is a note, not a failure.
		kgo.SeedBrokers(alive...),
		kgo.DialTimeout(dialTimeout),
		// Few retries: a check that retries like a producer hangs like one. Errors that
		// survive two retries are the ones the user must fix.
		kgo.RequestRetries(2),
		kgo.RetryBackoffFn(func(int) time.Duration { return 200 * time.Millisecond }),
		kgo.WithHooks(c.hook),
	)
	if err != nil {
		return nil, fail(Config, "client properties: %v", err)
	}
	defer c.cl.Close()
	if err := c.run(ctx); err != nil {
		return nil, err
	}
	return res, nil
}
