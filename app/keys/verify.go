package keys

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"parapet/app/apierr"
	"parapet/models"
)

// Principal is who a verified key speaks for.
type Principal struct {
	KeyID   string
	KeyName string
	OrgID   string
	Scopes  string // space-separated, see HasScope
}

// Can reports whether the key holds a scope.
func (p *Principal) Can(scope string) bool { return HasScope(p.Scopes, scope) }

// The two ways a key is refused (SPEC section 7).
var (
	ErrMissing = apierr.New(http.StatusUnauthorized, "missing_api_key",
		"send your API key in the Authorization header: Authorization: Bearer <API_KEY>")
	ErrInvalid = apierr.New(http.StatusUnauthorized, "invalid_api_key",
		"the API key is not valid: it does not exist or has been revoked")
)

// CacheTTL is how long a key lookup is reused. Revocation through this
// instance takes effect at once (Forget); through another instance sharing
// the database, within this time.
const CacheTTL = 500 * time.Millisecond

const maxCached = 10_000

type cached struct {
	p         Principal
	valid     bool
	expiresAt *time.Time // checked on every use, so a cached key still expires on time
	rolled    bool
	at        time.Time
}

// Verifier checks API keys against the database, with a short cache so a
// busy key costs one query per CacheTTL, and records last use at most once
// a minute per key.
type Verifier struct {
	db  *gorm.DB
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	cache   map[[sha256.Size]byte]cached // by key digest
	touched map[string]time.Time         // by key id
}

// NewVerifier makes a verifier on db.
func NewVerifier(db *gorm.DB, log *slog.Logger) *Verifier {
	return &Verifier{db: db, log: log, now: time.Now, cache: map[[sha256.Size]byte]cached{}, touched: map[string]time.Time{}}
}

// BearerToken extracts the token of an "Authorization: Bearer <token>"
// header (the scheme is case-insensitive), or ErrMissing.
func BearerToken(header string) (string, error) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", ErrMissing
	}
	return strings.TrimSpace(token), nil
}

// Verify checks the Authorization header and returns the key's principal,
// or ErrMissing / ErrInvalid (or a 503 when the database is down).
func (v *Verifier) Verify(ctx context.Context, authorization string) (*Principal, error) {
	token, err := BearerToken(authorization)
	if err != nil {
		return nil, err
	}
	return v.VerifyKey(ctx, token)
}

// VerifyKey checks a key's text.
func (v *Verifier) VerifyKey(ctx context.Context, key string) (*Principal, error) {
	if !WellFormed(key) {
		// Malformed or checksum-failing strings never reach the database.
		return nil, ErrInvalid
	}
	sum := digest(key)
	now := v.now()
	v.mu.Lock()
	c, ok := v.cache[sum]
	v.mu.Unlock()
	if !ok || now.Sub(c.at) >= CacheTTL {
		k, err := models.APIKeyByHash(ctx, v.db, digestHex(sum))
		switch {
		case errors.Is(err, models.ErrNotFound):
			c = cached{at: now}
		case err != nil:
			return nil, apierr.Unavailable(err)
		default:
			c = cached{p: Principal{KeyID: k.ID, KeyName: k.Name, OrgID: k.OrgID, Scopes: k.Scopes}, valid: k.Active(),
				expiresAt: k.ExpiresAt, rolled: k.RolledAt != nil, at: now}
		}
		v.mu.Lock()
		if len(v.cache) >= maxCached {
			clear(v.cache) // bounded memory; the cache refills from hot keys
		}
		v.cache[sum] = c
		v.mu.Unlock()
	}
	if !c.valid {
		return nil, ErrInvalid
	}
	if c.expiresAt != nil && !now.Before(*c.expiresAt) {
		return nil, expired(*c.expiresAt, c.rolled)
	}
	v.touch(c.p.KeyID, now)
	p := c.p
	return &p, nil
}

// expired is the 401 of a key past its expiry, or past the grace period
// of a roll: still invalid_api_key (SPEC section 7), with a message that
// says why, so its owner knows to use the replacement or make a new key.
func expired(at time.Time, rolled bool) error {
	when := at.UTC().Format("2006-01-02 15:04 UTC")
	if rolled {
		return apierr.New(http.StatusUnauthorized, "invalid_api_key",
			"the API key was rolled and its grace period ended at "+when+": use its replacement")
	}
	return apierr.New(http.StatusUnauthorized, "invalid_api_key",
		"the API key expired at "+when+": create a new key in the console")
}

// Forget drops a key from the cache: called when this instance revokes it,
// so its very next request is refused.
func (v *Verifier) Forget(keyID string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for h, c := range v.cache {
		if c.p.KeyID == keyID {
			delete(v.cache, h)
		}
	}
}

// touch records the key's last use in the background, at most once a
// minute per key, so verification never waits on a write.
func (v *Verifier) touch(keyID string, now time.Time) {
	v.mu.Lock()
	last, ok := v.touched[keyID]
	if ok && now.Sub(last) < time.Minute {
		v.mu.Unlock()
		return
	}
	if len(v.touched) >= maxCached {
		clear(v.touched)
	}
	v.touched[keyID] = now
	v.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := models.TouchAPIKey(ctx, v.db, keyID, now.UTC()); err != nil {
			v.log.Warn("record key use", "key_id", keyID, "error", err)
		}
	}()
}
