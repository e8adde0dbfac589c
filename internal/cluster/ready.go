package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/kafka"
)

// readyTopic is created and deleted to prove that every broker takes replicas.
const readyTopic = "__kbench_ready"

// waitReady waits until all brokers are registered and a topic replicated on all of them
// can be created. A broker that exits meanwhile fails the start with the end of its log.
func (c *Cluster) waitReady(ctx context.Context, log io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	want := len(c.state.Brokers)
	for {
		if err := c.checkProcesses(); err != nil {
			return err
		}
		lastErr := c.tryReady(ctx, want)
		if lastErr == nil {
			fmt.Fprintf(log, "cluster ready: %d broker(s) at %s\n", want, c.Bootstrap())
			return nil
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("cluster not ready after %s (%v); broker logs are in %s/broker-N/server.log", readyTimeout, lastErr, c.state.Dir)
			}
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// tryReady checks readiness with a new client each time: a client that connected while the
// brokers were still registering was seen to keep getting a partial broker list.
func (c *Cluster) tryReady(ctx context.Context, want int) error {
	conn, err := kafka.Connect(c.Bootstrap(), nil)
	if err != nil {
		return fmt.Errorf("connect to embedded cluster: %w", err)
	}
	client, err := conn.NewClient("ready")
	if err != nil {
		return err
	}
	defer client.Close()
	admin := kadm.NewClient(client)
	reqCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	meta, err := admin.BrokerMetadata(reqCtx)
	if err != nil {
		return err
	}
	if len(meta.Brokers) < want {
		return fmt.Errorf("%d of %d brokers registered", len(meta.Brokers), want)
	}
	resp, err := admin.CreateTopic(reqCtx, 1, int16(want), nil, readyTopic)
	if err != nil {
		return err
	}
	if resp.Err != nil && !strings.Contains(resp.Err.Error(), "TOPIC_ALREADY_EXISTS") {
		return resp.Err
	}
	_, err = admin.DeleteTopics(reqCtx, readyTopic)
	return err
}

// checkProcesses returns an error naming the first broker that has exited, with the last
// lines of its log.
func (c *Cluster) checkProcesses() error {
	for _, b := range c.state.Brokers {
		if c.processAlive(b) {
			continue
		}
		tail, taken := "", false
		if data, err := os.ReadFile(b.LogFile); err == nil {
			tail, taken = lastLines(string(data), 10), portTaken(string(data))
		}
		err := fmt.Errorf("broker %d (pid %d) exited during start; last lines of %s:\n%s", b.ID, b.PID, b.LogFile, tail)
		if taken {
			err = fmt.Errorf("%w: %w", errPortTaken, err)
		}
		return err
	}
	return nil
}
