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
// the caller writes its record itself; a failed write is retried until the
// database answers; Close writes everything still queued (the server
// calls it after in-flight requests finished). Only a crash of the process
// can lose the records of the last moments.
type Recorder struct {
	db  *models.DB
	log *slog.Logger

	queue chan models.UsageRecord
	done  chan struct{}
	// pending counts records queued and not yet written, for Flush. (Not
	// a WaitGroup: Flush may wait while new records arrive.)
	pendingMu sync.Mutex
	pendingCh *sync.Cond
	pending   int
	mu        sync.RWMutex // held for reading while enqueuing; Close takes it to stop enqueues
	closed    bool
}

const (
	queueSize = 10_000
	maxBatch  = 256
	// linger is how long the writer waits for more records before a
	// commit: the response that queued the first one is on its way out
	// meanwhile instead of competing with the commit for the CPU, and a
	// busy gateway commits many records at once.
	linger = 2 * time.Millisecond
)

// NewRecorder starts the writer.
func NewRecorder(db *models.DB, log *slog.Logger) *Recorder {
	r := &Recorder{db: db, log: log, queue: make(chan models.UsageRecord, queueSize), done: make(chan struct{})}
	r.pendingCh = sync.NewCond(&r.pendingMu)
	go r.run()
	return r
}

// add queues a record, or writes it now when the queue is full or closed.
func (r *Recorder) add(rec models.UsageRecord) error {
	r.mu.RLock()
	if !r.closed {
		r.addPending(1)
		select {
		case r.queue <- rec:
			r.mu.RUnlock()
			return nil
		default:
			r.addPending(-1)
		}
	}
	r.mu.RUnlock()
	return r.commit([]models.UsageRecord{rec})
}

func (r *Recorder) run() {
	defer close(r.done)
	batch := make([]models.UsageRecord, 0, maxBatch)
	timer := time.NewTimer(linger)
	for rec := range r.queue {
		batch = append(batch[:0], rec)
		timer.Reset(linger)
	fill:
		for len(batch) < maxBatch {
			select {
			case more, ok := <-r.queue:
				if !ok {
					break fill
				}
				batch = append(batch, more)
			case <-timer.C:
				break fill
			}
		}
		r.write(batch)
		r.addPending(-len(batch))
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
				r.log.Error("gateway record refused by the database; skipped", "record", describe(batch[0]), "error", err)
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

func (r *Recorder) commit(batch []models.UsageRecord) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return models.RecordUsage(ctx, r.db.DB, batch)
}

// Flush waits until every record queued so far is written.
func (r *Recorder) Flush() {
	r.pendingMu.Lock()
	defer r.pendingMu.Unlock()
	for r.pending > 0 {
		r.pendingCh.Wait()
	}
}

func (r *Recorder) addPending(n int) {
	r.pendingMu.Lock()
	defer r.pendingMu.Unlock()
	r.pending += n
	if r.pending == 0 {
		r.pendingCh.Broadcast()
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
	close(r.queue)
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
