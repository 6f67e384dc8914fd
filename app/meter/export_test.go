package meter

import "parapet/models"

// QueueSize and Add open the Recorder's queue to the package's tests.
const QueueSize = queueSize

func (r *Recorder) Add(rec models.UsageRecord) error { return r.add(rec) }
