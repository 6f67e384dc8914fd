package models

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// Session is a signed-in browser session. ID is the SHA-256 of the token
// the cookie carries; Data holds the session's values as JSON.
type Session struct {
	ID         string `gorm:"primaryKey"`
	UserID     string
	Data       string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	UserAgent  string // as sent at sign-in, for the account's session list
	IP         string // the client's address at sign-in
}

// SessionByID loads a session that has not expired, neither by idleness
// nor by age, and whose user has not changed password since it began.
func SessionByID(ctx context.Context, db *gorm.DB, id string, now time.Time, idle time.Duration) (*Session, error) {
	var s Session
	err := db.WithContext(ctx).Table("sessions").
		Select("sessions.*").
		Joins("JOIN users ON users.id = sessions.user_id").
		Where("sessions.id = ? AND sessions.expires_at > ? AND sessions.last_seen_at > ? AND sessions.created_at >= users.password_changed_at",
			id, now, now.Add(-idle)).
		Take(&s).Error
	return &s, notFound(err)
}

// SaveSession inserts or updates a session.
func SaveSession(ctx context.Context, db *gorm.DB, s *Session) error {
	return db.WithContext(ctx).Save(s).Error
}

// TouchSession moves a session's idle expiry forward.
func TouchSession(ctx context.Context, db *gorm.DB, id string, now time.Time) error {
	return db.WithContext(ctx).Model(&Session{}).Where("id = ?", id).Update("last_seen_at", now).Error
}

// DeleteSession ends a session.
func DeleteSession(ctx context.Context, db *gorm.DB, id string) error {
	return db.WithContext(ctx).Where("id = ?", id).Delete(&Session{}).Error
}

// DeleteExpiredSessions removes sessions that can no longer be used: past
// their absolute expiry or idle too long.
func DeleteExpiredSessions(ctx context.Context, db *gorm.DB, now time.Time, idle time.Duration) error {
	return db.WithContext(ctx).Where("expires_at <= ? OR last_seen_at <= ?", now, now.Add(-idle)).Delete(&Session{}).Error
}
