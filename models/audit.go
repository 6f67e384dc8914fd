package models

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// AuditEvent records who did what, in which organization, when, from where,
// in which request. Gateway calls fill the metering fields too.
type AuditEvent struct {
	ID           string `gorm:"primaryKey"`
	OrgID        *string
	ActorUserID  *string
	ActorKeyID   *string
	Action       string
	Target       string
	IP           string
	RequestID    string
	CreatedAt    time.Time
	Status       *int
	ErrorCode    *string
	Model        *string
	Stream       *bool
	InputTokens  *int64
	OutputTokens *int64
	UpstreamMs   *int64
	TotalMs      *int64
	Detail       *string
}

// Audit actions.
const (
	ActionSignInSuccess   = "signin.success"
	ActionSignInFailure   = "signin.failure"
	ActionSignOut         = "signout"
	ActionPasswordChange  = "password.change"
	ActionPasswordFailure = "password.failure" // a wrong current password on the change form
	ActionSignUp          = "signup"
	ActionUserCreate      = "user.create" // by an operator, with the CLI
	ActionStaffGrant      = "user.staff.grant"
	ActionStaffRevoke     = "user.staff.revoke"
	ActionOrgCreate       = "org.create"
	ActionKeyCreate       = "key.create"
	ActionKeyRevoke       = "key.revoke"
	ActionProductCreate   = "product.create"
	ActionProductUpdate   = "product.update"
	ActionEntitlement     = "entitlement.set"
	ActionGatewayCall     = "gateway.call"
)

// RecordAudit writes one audit event; the id and time are filled in.
func RecordAudit(ctx context.Context, db *gorm.DB, e *AuditEvent) error {
	if e.ID == "" {
		e.ID = NewID("evt")
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = Now()
	}
	return db.WithContext(ctx).Create(e).Error
}

// AuditEventRow is an event as the console lists it, with actor names.
type AuditEventRow struct {
	AuditEvent
	ActorEmail   *string
	ActorKeyName *string
}

// AuditPage lists an organization's events, newest first; action, when set,
// keeps only events with that action.
func AuditPage(ctx context.Context, db *gorm.DB, orgID, action string, limit, offset int) ([]AuditEventRow, int64, error) {
	q := db.WithContext(ctx).Table("audit_events").Where("audit_events.org_id = ?", orgID)
	if action != "" {
		q = q.Where("audit_events.action = ?", action)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []AuditEventRow
	err := q.Select("audit_events.*, users.email AS actor_email, api_keys.name AS actor_key_name").
		Joins("LEFT JOIN users ON users.id = audit_events.actor_user_id").
		Joins("LEFT JOIN api_keys ON api_keys.id = audit_events.actor_key_id").
		Order("audit_events.created_at DESC, audit_events.id DESC").
		Limit(limit).Offset(offset).Scan(&rows).Error
	return rows, total, err
}

// RecentPasswordFailures counts wrong passwords, at sign-in or on the
// password change form, and wrong second-step codes (TOTP or recovery), for an email or from an IP since a time: the
// throttle of both forms.
func RecentPasswordFailures(ctx context.Context, db *gorm.DB, email, ip string, since time.Time) (byEmail, byIP int64, err error) {
	base := db.WithContext(ctx).Model(&AuditEvent{}).
		Where("action IN ? AND created_at > ?", []string{ActionSignInFailure, ActionPasswordFailure, ActionTOTPFailure}, since)
	if err = base.Session(&gorm.Session{}).Where("target = ?", NormalizeEmail(email)).Count(&byEmail).Error; err != nil {
		return
	}
	err = base.Session(&gorm.Session{}).Where("ip = ?", ip).Count(&byIP).Error
	return
}
