package meter

import "sync"

// inFlight counts work under way that a flush must wait for: calls
// answered before their record was queued, budget alerts being mailed.
// Unlike a sync.WaitGroup, work may start while another goroutine waits.
// The zero value is ready to use.
type inFlight struct {
	mu   sync.Mutex
	n    int
	zero *sync.Cond // on mu: n fell to 0
}

func (f *inFlight) add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inFlight) done() {
	f.mu.Lock()
	if f.n--; f.n == 0 && f.zero != nil {
		f.zero.Broadcast()
	}
	f.mu.Unlock()
}

// wait returns once nothing is under way.
func (f *inFlight) wait() {
	f.mu.Lock()
	if f.zero == nil {
		f.zero = sync.NewCond(&f.mu)
	}
	for f.n > 0 {
		f.zero.Wait()
	}
	f.mu.Unlock()
}
