package zones

import (
	"net"
	"sync/atomic"
	"time"
)

const (
	// chunkSize is the most one read takes from a socket.
	chunkSize = 64 << 10
	// queueChunks bounds what is in flight per direction (queueChunks × chunkSize =
	// 16 MiB): beyond it the reader stops reading and TCP pushes back on the sender, as a
	// full link would. 16 MiB covers 1.6 GiB/s at 10 ms one way.
	queueChunks = 256
)

// chunk is bytes read from one side, to be written to the other at due, through bucket
// (the direction's bucket of the link in force when it was read).
type chunk struct {
	data   []byte
	due    time.Time
	bucket *bucket
}

// pipe carries one direction of a proxied connection: read from src, delay, send to dst.
// Reading and writing are separate goroutines joined by a queue of timestamped chunks, so
// a chunk waiting out its delay never stops the next one from being read.
type pipe struct {
	src, dst net.Conn
	shaping  *atomic.Pointer[shaping] // the proxy's link in force
	up       bool                     // client -> broker: the up bucket
	bytes    *atomic.Int64
}

// run copies until src ends (then half-closes dst once everything queued is delivered) or
// either side fails (then closes both, which ends the other direction too).
func (p pipe) run(done func()) {
	defer done()
	queue := make(chan chunk, queueChunks)
	go p.read(queue)
	w := newWaiter()
	defer w.close()
	for c := range queue {
		wait := time.Until(c.due)
		if d := c.bucket.take(len(c.data), time.Now()); d > wait {
			wait = d
		}
		w.wait(wait)
		if _, err := p.dst.Write(c.data); err != nil {
			p.src.Close()
			p.dst.Close()
			for range queue { // let the reader finish
			}
			return
		}
		p.bytes.Add(int64(len(c.data)))
	}
	if tcp, ok := p.dst.(*net.TCPConn); ok {
		_ = tcp.CloseWrite()
	} else {
		p.dst.Close()
	}
}

// read stamps each chunk with the time it is due on the other side and queues it.
func (p pipe) read(queue chan<- chunk) {
	defer close(queue)
	buf := make([]byte, chunkSize)
	for {
		n, err := p.src.Read(buf)
		if n > 0 {
			data := make([]byte, n)
			copy(data, buf[:n])
			s := p.shaping.Load()
			b := s.down
			if p.up {
				b = s.up
			}
			queue <- chunk{data: data, due: time.Now().Add(s.link.OneWay()), bucket: b}
		}
		if err != nil {
			return
		}
	}
}
