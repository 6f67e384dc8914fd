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
	// The input's cache buckets, beside InputTokens (which holds neither),
	// and the reasoning within OutputTokens: see migration 00010.
	CacheWriteTokens *int64
	CacheReadTokens  *int64
	ReasoningTokens  *int64
	UpstreamMs       *int64
	TotalMs          *int64
	Detail           *string
	// UsageFlag is how a gateway call's tokens were known: nil for the
	// upstream's report, "clamped" or "estimated".
	UsageFlag *string
	// Provider is the provider that answered a gateway call (or was tried
	// last); Attempts every attempt, as JSON ([{provider, model, status,
	// code, ms}]); CostMicros its cost in micro-dollars at the prices of
	// PriceVersion, nil when the model has no price.
	Provider     *string
	Attempts     *string
	CostMicros   *int64
	PriceVersion *string
}

// Audit actions.
const (
	ActionSignInSuccess   = "signin.success"
	ActionSignInFailure   = "signin.failure"
	ActionSignOut         = "signout"
	ActionPasswordChange  = "password.change"
	ActionPasswordFailure = "password.failure" // a wrong current password on the change form
	ActionPasswordReset   = "password.reset"   // set with a reset link
	ActionEmailVerify     = "email.verify"     // the address proven with a link mailed to it
	ActionSignUp          = "signup"
	ActionSessionEnd      = "session.end" // the user ended one of their sessions, or all others
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
	if e.CreatedAt.IsZero() {
		e.CreatedAt = Now()
	}
	if e.ID == "" {
		e.ID = NewEventID(e.CreatedAt)
	}
	return db.WithContext(ctx).Create(e).Error
}

// AuditEventRow is an event as the console lists it, with actor names.
type AuditEventRow struct {
	AuditEvent
	ActorEmail   *string
	ActorKeyName *string
}

// AuditCountCap is where counting an organization's events stops: a busy
// gateway writes one event per call, and a page's total is not worth
// reading millions of index entries for.
const AuditCountCap = 10_000

func auditOf(ctx context.Context, db *gorm.DB, orgID, action string) *gorm.DB {
	q := db.WithContext(ctx).Table("audit_events").Where("audit_events.org_id = ?", orgID)
	if action != "" {
		q = q.Where("audit_events.action = ?", action)
	}
	return q
}

// CountAudit counts an organization's events (with action, when set) up
// to AuditCountCap; more says there are more than that.
func CountAudit(ctx context.Context, db *gorm.DB, orgID, action string) (n int64, more bool, err error) {
	err = db.WithContext(ctx).Table("(?) AS capped", auditOf(ctx, db, orgID, action).Select("1").Limit(AuditCountCap+1)).
		Count(&n).Error
	if n > AuditCountCap {
		return AuditCountCap, true, err
	}
	return n, false, err
}

// AuditPage lists an organization's events, newest first; action, when set,
// keeps only events with that action.
func AuditPage(ctx context.Context, db *gorm.DB, orgID, action string, limit, offset int) ([]AuditEventRow, error) {
	var rows []AuditEventRow
	err := auditOf(ctx, db, orgID, action).Select("audit_events.*, users.email AS actor_email, api_keys.name AS actor_key_name").
		Joins("LEFT JOIN users ON users.id = audit_events.actor_user_id").
		Joins("LEFT JOIN api_keys ON api_keys.id = audit_events.actor_key_id").
		Order("audit_events.created_at DESC, audit_events.id DESC").
		Limit(limit).Offset(offset).Scan(&rows).Error
	return rows, err
}
