package app

import (
	"log/slog"

	"github.com/redis/go-redis/v9"

	"parapet/app/throttle"
	"parapet/models"
)

// newThrottle is where sign-in and sign-up attempts are counted: in Redis
// when REDIS_URL is set (shared by every instance, no database write per
// attempt), falling back to the database while Redis is unreachable; in
// the database otherwise.
func newThrottle(db *models.DB, rc *redis.Client, prefix string, log *slog.Logger) throttle.Counter {
	if rc != nil {
		return throttle.NewFallback(throttle.NewRedis(rc, prefix), throttle.NewDB(db.DB), log)
	}
	return throttle.NewDB(db.DB)
}
