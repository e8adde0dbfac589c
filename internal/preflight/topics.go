package preflight

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/kafka"
)

// prefixProbeName is the topic name under Need.CreatePrefix whose permissions are checked;
// the topic is never created.
const prefixProbeName = "preflight-probe"

// metadata is the part of a Metadata response the checks read.
type metadata struct {
	brokers []brokerAddr
	topics  map[string]topicMeta
}

type brokerAddr struct {
	id   int32
	addr string
}

type topicMeta struct {
	err kerr.Error // zero when the topic exists and may be described
	ops int32      // authorized operations (KIP-430), math.MinInt32 when not given
}

// metadata asks for the topics the verb names and, without creating anything, the
// operations the client may perform on each.
func (c *checker) metadata(ctx context.Context) (*metadata, error) {
	req := kmsg.NewPtrMetadataRequest()
	req.Topics = []kmsg.MetadataRequestTopic{} // none: nil would ask for every topic
	for _, t := range c.topicNames() {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(t)
		req.Topics = append(req.Topics, rt)
	}
	req.AllowAutoTopicCreation = false // a check must not create the topic it checks
	req.IncludeTopicAuthorizedOperations = true
	kresp, err := c.request(ctx, req)
	if err != nil {
		return nil, c.explain(ctx, err, "asking for metadata")
	}
	resp := kresp.(*kmsg.MetadataResponse)
	if resp.ClusterID != nil {
		c.res.ClusterID = *resp.ClusterID
	}
	m := &metadata{topics: map[string]topicMeta{}}
	for _, b := range resp.Brokers {
		c.res.Brokers = append(c.res.Brokers, b.NodeID)
		m.brokers = append(m.brokers, brokerAddr{b.NodeID, net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port)))})
	}
	for _, t := range resp.Topics {
		if t.Topic == nil {
			continue
		}
		tm := topicMeta{ops: t.AuthorizedOperations}
		if e, ok := kerr.ErrorForCode(t.ErrorCode).(*kerr.Error); ok {
			tm.err = *e
		}
		m.topics[*t.Topic] = tm
	}
	return m, nil
}

// topicNames are the topics the metadata request asks about, each once.
func (c *checker) topicNames() []string {
	names := slices.Concat(c.need.Produce, c.need.Consume)
	if c.need.CreatePrefix != "" {
		names = append(names, c.need.CreatePrefix+prefixProbeName)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// checkTopics checks that each topic exists (or will be created) and that the client may
// write the Produce topics and read the Consume ones.
func (c *checker) checkTopics(ctx context.Context, m *metadata) error {
	for _, t := range c.need.Consume {
		tm := m.topics[t]
		switch tm.err.Code {
		case 0:
		case kerr.UnknownTopicOrPartition.Code:
			return fail(MissingTopic, "topic %s does not exist on the cluster at %s: produce to it first (kbench produce --topic %s)", t, c.boot, t)
		default:
			if err := c.topicErr(t, tm.err, "read"); err != nil {
				return err
			}
		}
		if !allowed(tm.ops, kmsg.ACLOperationRead) {
			return c.denied("Read", "topic", t)
		}
	}
	for _, t := range c.need.Produce {
		tm := m.topics[t]
		switch tm.err.Code {
		case 0:
		case kerr.UnknownTopicOrPartition.Code:
			if err := c.missingProduceTopic(ctx, m, t); err != nil {
				return err
			}
		default:
			if err := c.topicErr(t, tm.err, "write"); err != nil {
				return err
			}
		}
		if !allowed(tm.ops, kmsg.ACLOperationWrite) {
			return c.denied("Write", "topic", t)
		}
	}
	return nil
}

// topicErr explains a topic error of the Metadata response; nil for a passing one.
func (c *checker) topicErr(topic string, e kerr.Error, verb string) error {
	if e.Code == kerr.TopicAuthorizationFailed.Code {
		return fail(NotAuthorized, "not authorised: %s may not describe topic %s (a client that will %s it needs Describe and %s on the topic)",
			c.principal(), topic, verb, opName(verb))
	}
	if e.Retriable {
		// A topic just created, or a leader moving: the clients wait for it themselves.
		return nil
	}
	return fail(Other, "topic %s: %s", topic, e.Message)
}

func opName(verb string) string {
	if verb == "read" {
		return "Read"
	}
	return "Write"
}

// missingProduceTopic decides what a missing topic means for a producer: an error with
// --no-create or when the brokers do not auto-create topics, else a note saying it will be
// created, after a validate-only CreateTopics has shown the client may create it.
func (c *checker) missingProduceTopic(ctx context.Context, m *metadata, topic string) error {
	if c.need.NoCreate {
		return fail(MissingTopic, "topic %s does not exist on the cluster at %s and --no-create is set: create it first, or drop --no-create to let the broker create it", topic, c.boot)
	}
	if err := c.validateCreate(ctx, topic); err != nil {
		return err
	}
	auto, partitions := c.autoCreate(ctx, m)
	switch auto {
	case "false":
		return fail(MissingTopic, "topic %s does not exist on the cluster at %s and the brokers do not create topics on first use (auto.create.topics.enable=false): create it first", topic, c.boot)
	case "true":
		c.res.Notes = append(c.res.Notes, fmt.Sprintf("topic %s does not exist: the broker will create it on first use (num.partitions=%s)", topic, partitions))
	default:
		c.res.Notes = append(c.res.Notes, fmt.Sprintf("topic %s does not exist: the broker will create it on first use if auto.create.topics.enable is on (the client may not read the broker configuration to tell)", topic))
	}
	return nil
}

// validateCreate asks the controller whether the client may create topic, with the
// brokers' default partitions and replication, without creating it.
func (c *checker) validateCreate(ctx context.Context, topic string) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	req.ValidateOnly = true
	req.TimeoutMillis = 5000
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic = topic
	rt.NumPartitions, rt.ReplicationFactor = -1, -1 // the brokers' defaults
	req.Topics = append(req.Topics, rt)
	kresp, err := c.request(ctx, req)
	if err != nil {
		return c.explain(ctx, err, "checking that topic "+topic+" may be created")
	}
	resp := kresp.(*kmsg.CreateTopicsResponse)
	for _, t := range resp.Topics {
		e, ok := kerr.ErrorForCode(t.ErrorCode).(*kerr.Error)
		if !ok || e.Code == kerr.TopicAlreadyExists.Code {
			continue
		}
		if e.Code == kerr.TopicAuthorizationFailed.Code || e.Code == kerr.ClusterAuthorizationFailed.Code {
			return c.denied("Create", "topic", topic)
		}
		msg := e.Message
		if t.ErrorMessage != nil && *t.ErrorMessage != "" {
			msg = *t.ErrorMessage
		}
		return fail(Other, "topic %s cannot be created: %s (%s)", topic, msg, e.Message)
	}
	return nil
}

// autoCreate reads auto.create.topics.enable and num.partitions from a broker: "" when the
// client may not read them.
func (c *checker) autoCreate(ctx context.Context, m *metadata) (auto, partitions string) {
	if len(m.brokers) == 0 {
		return "", ""
	}
	req := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType = kmsg.ConfigResourceTypeBroker
	r.ResourceName = strconv.Itoa(int(m.brokers[0].id))
	r.ConfigNames = []string{"auto.create.topics.enable", "num.partitions"}
	req.Resources = append(req.Resources, r)
	kresp, err := c.request(ctx, req)
	if err != nil {
		return "", ""
	}
	resp := kresp.(*kmsg.DescribeConfigsResponse)
	for _, res := range resp.Resources {
		if res.ErrorCode != 0 {
			return "", ""
		}
		for _, cfg := range res.Configs {
			if cfg.Value == nil {
				continue
			}
			switch cfg.Name {
			case "auto.create.topics.enable":
				auto = *cfg.Value
			case "num.partitions":
				partitions = *cfg.Value
			}
		}
	}
	return auto, partitions
}

// checkPrefix checks the topics a run creates and deletes under Need.CreatePrefix: create
// with a validate-only request, then describe, write, read and delete from the operations
// the broker grants on a name under the prefix (prefixed ACLs apply to names that do not
// exist yet).
func (c *checker) checkPrefix(ctx context.Context, m *metadata) error {
	if c.need.CreatePrefix == "" {
		return nil
	}
	name := c.need.CreatePrefix + prefixProbeName
	tm := m.topics[name]
	if tm.err.Code == kerr.TopicAuthorizationFailed.Code {
		return fail(NotAuthorized, "not authorised: %s may not describe topics %s* (kbench creates, writes, reads and deletes its own topics under that prefix)", c.principal(), c.need.CreatePrefix)
	}
	if err := c.validateCreate(ctx, name); err != nil {
		if KindOf(err) == NotAuthorized {
			return c.denied("Create", "topics", c.need.CreatePrefix+"*")
		}
		return err
	}
	for _, op := range []kmsg.ACLOperation{kmsg.ACLOperationWrite, kmsg.ACLOperationRead, kmsg.ACLOperationDelete} {
		if !allowed(tm.ops, op) {
			return c.denied(aclName(op), "topics", c.need.CreatePrefix+"*")
		}
	}
	return nil
}

// checkGroup checks that the client may join Need.Group: Read on the group, from the
// operations DescribeGroups grants (given for a group that does not exist yet too).
func (c *checker) checkGroup(ctx context.Context) error {
	if c.need.Group == "" {
		return nil
	}
	// The group coordinator may not be ready (a cluster's first group creates
	// __consumer_offsets): retry the retriable errors for a few seconds, then leave the
	// rest to the consumer, which retries on its own.
	var ops int32
	err := kafka.Retry(ctx, time.Now().Add(groupWait), 500*time.Millisecond, func() error {
		var err error
		ops, err = c.describeGroup(ctx)
		return err
	})
	switch {
	case err == nil:
		if !allowed(ops, kmsg.ACLOperationRead) {
			return c.denied("Read", "group", c.need.Group)
		}
		return nil
	case errors.Is(err, kerr.GroupAuthorizationFailed):
		return c.denied("Read", "group", c.need.Group)
	case ctx.Err() != nil:
		return c.explain(ctx, ctx.Err(), "describing group "+c.need.Group)
	case !kerr.IsRetriable(err):
		return c.explain(ctx, err, "describing group "+c.need.Group)
	}
	return nil
}

// groupWait is how long checkGroup retries a group coordinator that is not ready.
const groupWait = 5 * time.Second

// describeGroup returns the operations the client may perform on Need.Group, or the
// request's or the group's error.
func (c *checker) describeGroup(ctx context.Context) (int32, error) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{c.need.Group}
	req.IncludeAuthorizedOperations = true
	kresp, err := c.request(ctx, req)
	if err != nil {
		return 0, err
	}
	resp := kresp.(*kmsg.DescribeGroupsResponse)
	if len(resp.Groups) == 0 {
		return math.MinInt32, nil
	}
	g := resp.Groups[0]
	if g.ErrorCode != 0 && g.ErrorCode != kerr.GroupIDNotFound.Code {
		return 0, kerr.ErrorForCode(g.ErrorCode)
	}
	return g.AuthorizedOperations, nil
}

// allowed reports whether the bitfield grants op (or All). A broker that does not say
// (math.MinInt32: too old, or the field not asked) is given the benefit of the doubt: the
// load then meets the error itself.
func allowed(ops int32, op kmsg.ACLOperation) bool {
	if ops == math.MinInt32 {
		return true
	}
	return ops&(1<<op) != 0 || ops&(1<<kmsg.ACLOperationAll) != 0
}

func aclName(op kmsg.ACLOperation) string {
	switch op {
	case kmsg.ACLOperationRead:
		return "Read"
	case kmsg.ACLOperationWrite:
		return "Write"
	case kmsg.ACLOperationDelete:
		return "Delete"
	case kmsg.ACLOperationCreate:
		return "Create"
	case kmsg.ACLOperationDescribe:
		return "Describe"
	}
	return op.String()
}

// denied is the not-authorised line: which operation on which resource, for whom.
func (c *checker) denied(op, kind, name string) error {
	return fail(NotAuthorized, "not authorised: %s may not %s %s %s (an ACL granting %s on %s %s is needed)",
		c.principal(), op, kind, name, op, kind, name)
}

// principal names the client for a not-authorised line.
func (c *checker) principal() string {
	if c.sec.sasl() && c.sec.user != "" {
		return "User:" + c.sec.user
	}
	return "this client (" + c.sec.protocol + ")"
}
