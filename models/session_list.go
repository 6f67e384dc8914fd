package models

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// SessionsOfUser lists the user's sessions that can still be used, most
// recently seen first.
func SessionsOfUser(ctx context.Context, db *gorm.DB, userID string, now time.Time, idle time.Duration) ([]Session, error) {
	var out []Session
	err := db.WithContext(ctx).Table("sessions").Select("sessions.*").
		Joins("JOIN users ON users.id = sessions.user_id").
		Where("sessions.user_id = ? AND sessions.expires_at > ? AND sessions.last_seen_at > ? AND sessions.created_at >= users.password_changed_at",
			userID, now, now.Add(-idle)).
		Order("sessions.last_seen_at DESC").Find(&out).Error
	return out, err
}

// DeleteSessionsOfUser ends the user's sessions whose ids are given.
func DeleteSessionsOfUser(ctx context.Context, db *gorm.DB, userID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	return db.WithContext(ctx).Where("user_id = ? AND id IN ?", userID, ids).Delete(&Session{}).Error
}
