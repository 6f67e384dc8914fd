package meter

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"parapet/models"
)

// Recorder writes gateway records behind the response: a call's record is
// queued, and one writer commits queued records together (group commit),
// so a call does not wait for a database commit and a busy gateway writes
// many records per transaction. Nothing is dropped: when the queue is full
// (counting the records the writer has taken and not yet written, so an
// outage holds at most queueSize records in memory) the caller writes its
// record itself; a failed write is retried until the database answers;
// Close writes everything still queued (the server calls it after
// in-flight requests finished). Only a crash of the process can lose the
// records of the last moments.
//
// A record is appended to the queue under a mutex; only the first of a
// batch wakes the writer, which then lingers for more, so a busy gateway
// pays no goroutine wake-up per call.
type Recorder struct {
	db      *models.DB
	log     *slog.Logger
	charged func([]models.BudgetSpend) // nil: no one to tell

	mu      sync.Mutex
	queue   []models.UsageRecord // waiting for the writer
	writing int                  // taken by the writer, not yet written
	idle    *sync.Cond           // broadcast when nothing is queued or being written
	closed  bool

	kick chan struct{} // the queue was empty and has a record; closed by Close
	full chan struct{} // the queue holds a batch: stop lingering
	done chan struct{}
}

const (
	queueSize = 10_000
	maxBatch  = 256
	// linger is how long the writer waits for more records before a
	// commit: the response that queued the first one is on its way out
	// meanwhile instead of competing with the commit for the CPU, and a
	// busy gateway commits many records at once. 20 ms rather than 2: a
	// commit's cost is mostly per transaction, and with 2 ms the small
	// batches' commits (holding SQLite's one writer lock) cut the
	// gateway's throughput at 32 connections to about half a bare proxy
	// hop's, with p99s 25-290 ms above it; with 20 ms it serves 0.8-1.0x
	// the hop's, p99 within its noise. A record is visible in the audit
	// log at most this much later (Flush waits for it).
	linger = 20 * time.Millisecond
)

// NewRecorder starts the writer. charged, when not nil, is told the spend
// of the budgets each commit charged, as the database counted it then.
func NewRecorder(db *models.DB, log *slog.Logger, charged func([]models.BudgetSpend)) *Recorder {
	r := &Recorder{db: db, log: log, charged: charged, kick: make(chan struct{}, 1), full: make(chan struct{}, 1), done: make(chan struct{})}
	r.idle = sync.NewCond(&r.mu)
	go r.run()
	return r
}

// add queues a record, or writes it now when the queue is full or closed.
// Its text is made acceptable to the database first (sanitize).
func (r *Recorder) add(rec models.UsageRecord) error {
	sanitize(&rec)
	r.mu.Lock()
	if r.closed || len(r.queue)+r.writing >= queueSize {
		r.mu.Unlock()
		return r.commit([]models.UsageRecord{rec})
	}
	r.queue = append(r.queue, rec)
	switch len(r.queue) { // under the lock: Close closes kick under it
	case 1:
		signal(r.kick)
	case maxBatch:
		signal(r.full)
	}
	r.mu.Unlock()
	return nil
}

// signal wakes whoever waits on c, unless a wake-up is pending already.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (r *Recorder) run() {
	defer close(r.done)
	timer := time.NewTimer(linger)
	for {
		_, open := <-r.kick
		if open {
			timer.Reset(linger)
			select {
			case <-timer.C:
			case <-r.full:
				timer.Stop()
			}
		}
		r.mu.Lock()
		batch := r.queue
		r.queue, r.writing = nil, len(batch)
		r.mu.Unlock()
		for len(batch) > 0 {
			n := min(len(batch), maxBatch)
			r.write(batch[:n])
			batch = batch[n:]
			r.mu.Lock()
			r.writing -= n // room in the queue as soon as a part is written
			r.mu.Unlock()
		}
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.idle.Broadcast()
		}
		r.mu.Unlock()
		if !open {
			return // Close: everything queued before it is written
		}
	}
}

// write commits a batch, retrying with backoff while the database is
// unreachable: a record is written whole or not yet. A batch refused for
// another reason is written record by record, so one bad record (say, of
// an organization deleted meanwhile) is logged and skipped instead of
// holding up the others forever.
func (r *Recorder) write(batch []models.UsageRecord) {
	backoff := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := r.commit(batch)
		if err == nil {
			if attempt > 1 {
				r.log.Info("gateway records written after retrying", "records", len(batch), "attempts", attempt)
			}
			return
		}
		if !models.IsUnavailable(err) {
			if len(batch) == 1 {
				r.orphan(batch[0], err)
				return
			}
			for _, rec := range batch {
				r.write([]models.UsageRecord{rec})
			}
			return
		}
		if attempt == 1 || attempt%20 == 0 {
			r.log.Error("writing gateway records failed; retrying", "records", len(batch), "attempt", attempt, "error", err)
		}
		time.Sleep(backoff)
		backoff = min(backoff*2, 5*time.Second)
	}
}

// orphan writes the event of a record the database refused when its
// organization was deleted during the call: the counters, holds and
// budgets it would add to went with the organization (they reference it),
// the call's audit event, as every call's, stays. Any other refused
// record is logged and skipped.
func (r *Recorder) orphan(rec models.UsageRecord, refused error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if e := rec.Event; e != nil && e.OrgID != nil {
		var n int64
		if err := r.db.WithContext(ctx).Model(&models.Organization{}).Where("id = ?", *e.OrgID).Count(&n).Error; err == nil && n == 0 {
			if err := models.RecordAudit(ctx, r.db.DB, e); err == nil {
				r.log.Info("gateway call recorded without its usage: its organization was deleted during the call", "record", describe(rec))
				return
			}
		}
	}
	r.log.Error("gateway record refused by the database; skipped", "record", describe(rec), "error", refused)
}

func (r *Recorder) commit(batch []models.UsageRecord) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	spends, err := models.RecordUsage(ctx, r.db.DB, batch)
	if len(spends) > 0 && r.charged != nil {
		r.charged(spends)
	}
	return err
}

// Flush waits until every record queued so far is written.
func (r *Recorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.queue) > 0 || r.writing > 0 {
		r.idle.Wait()
	}
}

// Close stops queuing, writes what is queued, and returns when done.
func (r *Recorder) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.kick)
	r.mu.Unlock()
	<-r.done
}

// describe names a record for the log: its request id, or its hold.
func describe(rec models.UsageRecord) string {
	if rec.Event != nil {
		return rec.Event.RequestID
	}
	return rec.HoldID
}
