package kafka

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/settings"
)

// groupProtocol returns the options of group.protocol. Under the classic protocol the
// client balances, with the session timeout and heartbeat interval of its properties; under
// the consumer protocol (KIP-848) the broker assigns and owns both, and kgo takes the
// server's assignor from the first balancer: its sticky balancer asks for "uniform", its
// range balancer for "range" (any other balancer would make kgo fall back to classic).
func (b *settingsBuilder) groupProtocol() []kgo.Opt {
	assignor := b.value("group.remote.assignor")
	if b.value("group.protocol") != settings.ConsumerProtocol {
		return []kgo.Opt{
			kgo.SessionTimeout(b.ms("session.timeout.ms")),
			kgo.HeartbeatInterval(b.ms("heartbeat.interval.ms")),
		}
	}
	b.used["session.timeout.ms"], b.used["heartbeat.interval.ms"] = true, true // the broker's
	balancer := kgo.StickyBalancer()
	if assignor == "range" {
		balancer = kgo.RangeBalancer()
	}
	return []kgo.Opt{kgo.ServerSideBalancer(), kgo.Balancers(balancer)}
}

// ConsumerProtocolVersion is the ConsumerGroupHeartbeat version kgo's KIP-848 groups need
// (Kafka 4.0's); below it kgo silently runs the classic protocol.
const ConsumerProtocolVersion = 1

// CheckConsumerProtocol asks every broker adm reaches whether it serves the consumer group
// protocol (KIP-848): ConsumerGroupHeartbeat v1 in its ApiVersions, and the group.version
// feature finalized at 1 or more when the broker lists finalized features. franz-go falls
// back to the classic protocol without a word when either is missing; kbench must not
// measure one protocol under the other's name, so the error says what is missing.
func CheckConsumerProtocol(ctx context.Context, adm *kadm.Client) error {
	versions, err := adm.ApiVersions(ctx)
	if err != nil {
		return fmt.Errorf("ask the brokers whether they serve group.protocol=consumer: %w", err)
	}
	for _, v := range versions.Sorted() {
		if v.Err != nil {
			return fmt.Errorf("ask broker %d whether it serves group.protocol=consumer: %w", v.NodeID, v.Err)
		}
		if err := consumerProtocolSupport(v.Raw()); err != nil {
			return fmt.Errorf("broker %d: %w", v.NodeID, err)
		}
	}
	return nil
}

// consumerProtocolSupport reads an ApiVersions response (see CheckConsumerProtocol).
func consumerProtocolSupport(resp *kmsg.ApiVersionsResponse) error {
	heartbeat := int16(-1)
	for _, k := range resp.ApiKeys {
		if k.ApiKey == int16(kmsg.ConsumerGroupHeartbeat) {
			heartbeat = k.MaxVersion
		}
	}
	if heartbeat < ConsumerProtocolVersion {
		return fmt.Errorf("group.protocol=consumer needs brokers that serve KIP-848 consumer groups (Kafka 4.0 or later: ConsumerGroupHeartbeat v%d); these brokers do not, so kbench stops rather than run the classic protocol under that name", ConsumerProtocolVersion)
	}
	if len(resp.FinalizedFeatures) == 0 {
		return nil // a broker without finalized features (KIP-584) gates nothing on them
	}
	// A broker lists a feature only above level 0: absent is 0, where its coordinator
	// answers the heartbeat with UNSUPPORTED_VERSION.
	level := int16(0)
	for _, f := range resp.FinalizedFeatures {
		if f.Name == "group.version" {
			level = f.MaxVersionLevel
		}
	}
	if level < 1 {
		return fmt.Errorf("group.protocol=consumer needs the brokers' group.version feature at 1 or more (it is %d: kafka-features.sh upgrade --feature group.version=1); kbench stops rather than run the classic protocol under that name", level)
	}
	return nil
}
