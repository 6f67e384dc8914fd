// Package session is a gorilla/sessions store kept in our database. The
// cookie carries only a random token, signed with SESSION_SECRET; the
// sessions table holds the token's SHA-256, the user and the values. So
// signing out, or changing a password, really ends a session everywhere,
// which a cookie-only store cannot do.
package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
	"gorm.io/gorm"

	"parapet/models"
)

// CookieName is the session cookie's name over plain HTTP (development).
// Over HTTPS it is __Host-parapet_session (HostCookie): the prefix makes the browser
// refuse the cookie unless it is Secure, for the whole host (Path=/) and
// without a Domain, so no subdomain or plain-HTTP page can plant or
// overwrite it (ASVS 3.4.4). Browsers refuse __Host- cookies that are not
// Secure, hence the plain name over HTTP.
const CookieName = "parapet_session"

// Expiry rules (ASVS 3.3.2): a session ends after IdleTimeout without a
// request, and AbsoluteTimeout after sign-in whatever happens.
const (
	IdleTimeout     = 30 * time.Minute
	AbsoluteTimeout = 12 * time.Hour
	// touchEvery limits writes: last_seen_at moves at most once a minute.
	touchEvery = time.Minute
)

// Values a session holds.
const (
	KeyUserID = "user_id"
	KeyOrgID  = "org_id"
)

// Store implements sessions.Store on the sessions table.
type Store struct {
	db       *gorm.DB
	codec    securecookie.Codec
	isHTTPS  func(*http.Request) bool
	clientIP func(*http.Request) string
	now      func() time.Time
}

// NewStore makes the store; secret signs the cookie, isHTTPS decides the
// cookie's Secure flag and name per request (directly or behind a trusted
// proxy), clientIP is the address a new session records.
func NewStore(db *gorm.DB, secret []byte, isHTTPS func(*http.Request) bool, clientIP func(*http.Request) string) *Store {
	codec := securecookie.New(secret, nil)
	codec.MaxAge(int(AbsoluteTimeout / time.Second))
	return &Store{db: db, codec: codec, isHTTPS: isHTTPS, clientIP: clientIP, now: models.Now}
}

// Name is the session cookie's name for this request.
func (s *Store) Name(r *http.Request) string { return HostCookie(CookieName, s.isHTTPS(r)) }

// HostCookie is a cookie's name with the __Host- prefix over HTTPS, as the
// session's and every cookie of ours that must not be set by a subdomain.
func HostCookie(name string, https bool) string {
	if https {
		return "__Host-" + name
	}
	return name
}

// maxUserAgent bounds the User-Agent kept for the session list.
const maxUserAgent = 512

// Get returns the request's session, cached for the request.
func (s *Store) Get(r *http.Request, name string) (*sessions.Session, error) {
	return sessions.GetRegistry(r).Get(s, name)
}

// New loads the session named by the request's cookie, or returns a new,
// empty one (IsNew) when there is none or it has expired.
func (s *Store) New(r *http.Request, name string) (*sessions.Session, error) {
	sess := sessions.NewSession(s, name)
	sess.IsNew = true
	sess.Options = s.options(r, AbsoluteTimeout)
	c, err := r.Cookie(name)
	if err != nil {
		return sess, nil
	}
	var token string
	if err := s.codec.Decode(name, c.Value, &token); err != nil {
		return sess, nil // forged, tampered or too old: treat as signed out
	}
	now := s.now()
	row, err := models.SessionByID(r.Context(), s.db, tokenHash(token), now, IdleTimeout)
	if errors.Is(err, models.ErrNotFound) {
		return sess, nil
	}
	if err != nil {
		return sess, err
	}
	var values map[string]string
	if err := json.Unmarshal([]byte(row.Data), &values); err != nil {
		return sess, nil
	}
	for k, v := range values {
		sess.Values[k] = v
	}
	sess.ID = token
	sess.IsNew = false
	sess.Options = s.options(r, row.ExpiresAt.Sub(now))
	if now.Sub(row.LastSeenAt) >= touchEvery {
		if err := models.TouchSession(r.Context(), s.db, row.ID, now); err != nil {
			return sess, err
		}
	}
	return sess, nil
}

// Save writes the session: a new one gets a fresh random token, an ended
// one (Options.MaxAge < 0) is deleted and its cookie cleared. Only sessions
// of a signed-in user are stored.
func (s *Store) Save(r *http.Request, w http.ResponseWriter, sess *sessions.Session) error {
	ctx := r.Context()
	if sess.Options != nil && sess.Options.MaxAge < 0 {
		if sess.ID != "" {
			if err := models.DeleteSession(context.WithoutCancel(ctx), s.db, tokenHash(sess.ID)); err != nil {
				return err
			}
		}
		http.SetCookie(w, sessions.NewCookie(sess.Name(), "", s.options(r, -1)))
		return nil
	}
	userID, _ := sess.Values[KeyUserID].(string)
	if userID == "" {
		return fmt.Errorf("session: refusing to store a session without a user")
	}
	values := map[string]string{}
	for k, v := range sess.Values {
		ks, ok1 := k.(string)
		vs, ok2 := v.(string)
		if ok1 && ok2 {
			values[ks] = vs
		}
	}
	data, _ := json.Marshal(values)
	now := s.now()
	if sess.ID == "" {
		sess.ID = newToken()
		ua := strings.ToValidUTF8(r.UserAgent(), "")
		if len(ua) > maxUserAgent {
			ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
		}
		row := &models.Session{ID: tokenHash(sess.ID), UserID: userID, Data: string(data), CreatedAt: now, LastSeenAt: now,
			ExpiresAt: now.Add(AbsoluteTimeout), UserAgent: ua, IP: s.clientIP(r)}
		if err := models.SaveSession(ctx, s.db, row); err != nil {
			return err
		}
		sess.Options = s.options(r, AbsoluteTimeout)
	} else if err := s.db.WithContext(ctx).Model(&models.Session{}).Where("id = ?", tokenHash(sess.ID)).
		Updates(map[string]any{"data": string(data), "last_seen_at": now}).Error; err != nil {
		return err
	}
	encoded, err := s.codec.Encode(sess.Name(), sess.ID)
	if err != nil {
		return err
	}
	http.SetCookie(w, sessions.NewCookie(sess.Name(), encoded, sess.Options))
	return nil
}

// options are the cookie's attributes: HttpOnly so scripts cannot read it,
// SameSite=Lax so other sites cannot send it with their forms, Secure
// over HTTPS.
func (s *Store) options(r *http.Request, maxAge time.Duration) *sessions.Options {
	age := int(maxAge / time.Second)
	if maxAge < 0 {
		age = -1
	}
	return &sessions.Options{Path: "/", MaxAge: age, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isHTTPS(r)}
}

func newToken() string {
	return models.RandomBase62(43) // about 256 bits
}

// Handle names a stored session (its id, the token's hash) on the account
// page without showing the id itself.
func Handle(id string) string {
	sum := sha256.Sum256([]byte("handle|" + id))
	return hex.EncodeToString(sum[:8])
}

// TokenHash is how a session token is stored (also the CSRF binding).
func TokenHash(token string) string { return tokenHash(token) }

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
