package apptest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// TCPProxy forwards a loopback port to a service (Postgres, Redis) and can
// cut it: Stop closes every connection and refuses new ones, Start accepts
// again. Fault tests put it between the app and a dependency to simulate
// an outage without stopping the service other tests share.
type TCPProxy struct {
	t      testing.TB
	target string
	Addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
}

// NewTCPProxy starts a proxy to target ("host:port").
func NewTCPProxy(t testing.TB, target string) *TCPProxy {
	p := &TCPProxy{t: t, target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Stop)
	return p
}

func (p *TCPProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *TCPProxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // stopped meanwhile
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// Stop cuts every connection and refuses new ones.
func (p *TCPProxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// Start accepts connections again on the same address.
func (p *TCPProxy) Start() {
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		p.t.Fatalf("restart proxy: %v", err)
	}
	p.serve(ln)
}
