package preflight

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// aclCluster is a kfake cluster with SASL and ACLs on, a superuser, the topic "bench", and
// the user "bob" (password "bobpw") holding acls.
func aclCluster(t *testing.T, acls ...kfake.ACL) string {
	t.Helper()
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(1, "bench"), kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("SCRAM-SHA-256", "admin", "admin"), kfake.User("SCRAM-SHA-256", "bob", "bobpw", acls...))
	return boot
}

func bobProps(pass string) map[string]string {
	return map[string]string{
		"security.protocol": "SASL_PLAINTEXT",
		"sasl.mechanism":    "SCRAM-SHA-256",
		"sasl.jaas.config":  `org.apache.kafka.common.security.scram.ScramLoginModule required username="bob" password="` + pass + `";`,
	}
}

func allow(res kmsg.ACLResourceType, name string, pattern kmsg.ACLResourcePatternType, ops ...kmsg.ACLOperation) []kfake.ACL {
	var out []kfake.ACL
	for _, op := range ops {
		out = append(out, kfake.ACL{Resource: res, Name: name, Pattern: pattern, Operation: op, Allow: true})
	}
	return out
}

const (
	topicRes = kmsg.ACLResourceTypeTopic
	groupRes = kmsg.ACLResourceTypeGroup
	literal  = kmsg.ACLResourcePatternTypeLiteral
	prefixed = kmsg.ACLResourcePatternTypePrefixed
	read     = kmsg.ACLOperationRead
	write    = kmsg.ACLOperationWrite
	describe = kmsg.ACLOperationDescribe
	create   = kmsg.ACLOperationCreate
	del      = kmsg.ACLOperationDelete
)

func TestCheckACLs(t *testing.T) {
	tests := []struct {
		name string
		acls []kfake.ACL
		need Need
		want Kind
		msg  []string // substrings of the error
	}{
		{"write granted", allow(topicRes, "bench", literal, write), Need{Produce: []string{"bench"}}, 0, nil},
		{"describe only, produce", allow(topicRes, "bench", literal, describe), Need{Produce: []string{"bench"}},
			NotAuthorized, []string{"User:bob", "Write", "topic bench"}},
		{"no acl at all", nil, Need{Produce: []string{"bench"}},
			NotAuthorized, []string{"User:bob", "may not describe topic bench"}},
		{"read granted, consume", allow(topicRes, "bench", literal, read), Need{Consume: []string{"bench"}}, 0, nil},
		{"write only, consume", allow(topicRes, "bench", literal, write), Need{Consume: []string{"bench"}},
			NotAuthorized, []string{"Read", "topic bench"}},
		{"group denied", allow(topicRes, "bench", literal, read), Need{Consume: []string{"bench"}, Group: "g"},
			NotAuthorized, []string{"Read", "group g"}},
		{"group granted", append(allow(topicRes, "bench", literal, read), allow(groupRes, "g", literal, read)...),
			Need{Consume: []string{"bench"}, Group: "g"}, 0, nil},
		{"prefix: all granted", allow(topicRes, "kbench-", prefixed, create, write, read, del), Need{CreatePrefix: "kbench-"}, 0, nil},
		{"prefix: no create", allow(topicRes, "kbench-", prefixed, write, read, del), Need{CreatePrefix: "kbench-"},
			NotAuthorized, []string{"Create", "topics kbench-*"}},
		{"prefix: no delete", allow(topicRes, "kbench-", prefixed, create, write, read), Need{CreatePrefix: "kbench-"},
			NotAuthorized, []string{"Delete", "topics kbench-*"}},
		{"missing topic, create granted", allow(topicRes, "new", literal, create, write), Need{Produce: []string{"new"}}, 0, nil},
		{"missing topic, create denied", allow(topicRes, "new", literal, describe, write), Need{Produce: []string{"new"}},
			NotAuthorized, []string{"Create", "topic new"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boot := aclCluster(t, tt.acls...)
			_, err := Check(context.Background(), boot, bobProps("bobpw"), tt.need)
			if KindOf(err) != tt.want {
				t.Fatalf("kind %d (%v), want %d", KindOf(err), err, tt.want)
			}
			for _, s := range tt.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

func TestCheckWrongPassword(t *testing.T) {
	boot := aclCluster(t)
	_, err := Check(context.Background(), boot, bobProps("s3cr3t-canary"), Need{})
	if KindOf(err) != AuthFailed {
		t.Fatalf("kind %d (%v), want AuthFailed", KindOf(err), err)
	}
	for _, s := range []string{"SCRAM-SHA-256", "bob"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q does not name %q", err, s)
		}
	}
	if strings.Contains(err.Error(), "s3cr3t-canary") {
		t.Errorf("the error shows the password: %q", err)
	}
}
