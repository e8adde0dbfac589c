package cluster

import (
	"fmt"
	"net"
	"testing"
)

// TakeClientPortOnNextStart makes the next launch find its first broker's client port
// bound by someone else, as a process that takes it between the pick and the broker's bind
// would. It returns where the taken port will be written.
func TakeClientPortOnNextStart(t testing.TB) *int {
	t.Helper()
	taken := new(int)
	portsChosen = func(nodes []node) {
		portsChosen = nil
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", nodes[0].Client))
		if err != nil {
			t.Errorf("take port %d: %v", nodes[0].Client, err)
			return
		}
		*taken = nodes[0].Client
		t.Cleanup(func() { l.Close() })
	}
	t.Cleanup(func() { portsChosen = nil })
	return taken
}
