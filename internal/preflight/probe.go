package preflight

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// probeTimeout bounds one probe of a port.
const probeTimeout = 2 * time.Second

// netProber probes real ports. The probes send nothing a broker acts on: a TLS ClientHello,
// or an ApiVersions request.
type netProber struct{ ctx context.Context }

// speaksTLS reports whether addr completes a TLS handshake. The certificate is not checked:
// the question is only whether the port speaks TLS at all.
func (p netProber) speaksTLS(addr string) bool {
	ctx, cancel := context.WithTimeout(p.ctx, probeTimeout)
	defer cancel()
	d := tls.Dialer{NetDialer: &net.Dialer{}, Config: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // a probe, no data is sent
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// speaksPlainKafka reports whether addr answers a plaintext ApiVersions v0 request with a
// Kafka response (a sane size and our correlation ID).
func (p netProber) speaksPlainKafka(addr string) bool {
	ctx, cancel := context.WithTimeout(p.ctx, probeTimeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	if _, err := conn.Write(apiVersionsRequest(probeCorrelationID)); err != nil {
		return false
	}
	var head [8]byte // size, correlation ID
	if _, err := io.ReadFull(conn, head[:]); err != nil {
		return false
	}
	size := binary.BigEndian.Uint32(head[:4])
	corr := int32(binary.BigEndian.Uint32(head[4:]))
	return size >= 4 && size < 1<<20 && corr == probeCorrelationID
}

const probeCorrelationID = 0x6b62 // "kb"

// apiVersionsRequest frames an ApiVersions v0 request: size, then the v1 request header
// (key, version, correlation ID, client ID), then the (empty) v0 body.
func apiVersionsRequest(corr int32) []byte {
	req := kmsg.NewApiVersionsRequest()
	req.Version = 0
	clientID := "kbench-preflight"
	msg := binary.BigEndian.AppendUint16(nil, uint16(req.Key()))
	msg = binary.BigEndian.AppendUint16(msg, 0)
	msg = binary.BigEndian.AppendUint32(msg, uint32(corr))
	msg = binary.BigEndian.AppendUint16(msg, uint16(len(clientID)))
	msg = append(msg, clientID...)
	msg = req.AppendTo(msg)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

// onceProber asks each question once: a diagnosis may consider two errors of one address.
type onceProber struct {
	p          prober
	tls, plain map[string]bool
}

func (o *onceProber) speaksTLS(addr string) bool {
	return once(&o.tls, addr, o.p.speaksTLS)
}

func (o *onceProber) speaksPlainKafka(addr string) bool {
	return once(&o.plain, addr, o.p.speaksPlainKafka)
}

func once(cache *map[string]bool, addr string, ask func(string) bool) bool {
	if *cache == nil {
		*cache = map[string]bool{}
	}
	v, ok := (*cache)[addr]
	if !ok {
		v = ask(addr)
		(*cache)[addr] = v
	}
	return v
}
