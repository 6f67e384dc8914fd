package app

import (
	"github.com/redis/go-redis/v9"

	"parapet/app/throttle"
	"parapet/models"
)

// newThrottle is where sign-in and sign-up attempts are counted: in Redis
// when REDIS_URL is set (shared by every instance, no database write per
// attempt), in the database otherwise.
func newThrottle(db *models.DB, rc *redis.Client) throttle.Counter {
	if rc != nil {
		return throttle.NewRedis(rc, "")
	}
	return throttle.NewDB(db.DB)
}
