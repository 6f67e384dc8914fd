package models

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Product is an entry of the public product registry.
type Product struct {
	ID             string `gorm:"primaryKey"`
	Slug           string
	Name           string
	Tagline        string
	Description    string
	Category       string
	PlatformPillar string
	Lifecycle      string
	URL            string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Lifecycles, in the only order a product may move through them.
var Lifecycles = []string{"concept", "alpha", "beta"}

// PublicLifecycle is the first lifecycle at which a product is public.
const PublicLifecycle = "beta"

// LifecycleRank is a lifecycle's position, or -1 for an unknown one.
func LifecycleRank(l string) int {
	for i, v := range Lifecycles {
		if v == l {
			return i
		}
	}
	return -1
}

// Public reports whether the product appears in the public API: once it
// has progressed beyond alpha.
func (p Product) Public() bool { return LifecycleRank(p.Lifecycle) >= LifecycleRank(PublicLifecycle) }

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ProductError is a product change that breaks a rule; its message is
// meant for the person who asked for it.
type ProductError struct{ Msg string }

func (e *ProductError) Error() string { return e.Msg }

func productErr(format string, args ...any) error {
	return &ProductError{Msg: fmt.Sprintf(format, args...)}
}

// Validate checks a product's fields.
func (p *Product) Validate() error {
	switch {
	case !slugPattern.MatchString(p.Slug) || len(p.Slug) > 60:
		return productErr("slug %q must be lowercase letters, digits and single hyphens (at most 60)", p.Slug)
	case strings.TrimSpace(p.Name) == "" || len(p.Name) > 100:
		return productErr("name is required (at most 100 characters)")
	case len(p.Tagline) > 200:
		return productErr("tagline must be at most 200 characters")
	case len(p.Description) > 5000:
		return productErr("description must be at most 5000 characters")
	case !slugPattern.MatchString(p.Category):
		return productErr("category %q must be a lowercase word such as security", p.Category)
	case !slugPattern.MatchString(p.PlatformPillar):
		return productErr("platform pillar %q must be a lowercase word such as security", p.PlatformPillar)
	case LifecycleRank(p.Lifecycle) < 0:
		return productErr("lifecycle %q must be one of %s", p.Lifecycle, strings.Join(Lifecycles, ", "))
	case p.URL == "" || !(strings.HasPrefix(p.URL, "/") || strings.HasPrefix(p.URL, "https://") || strings.HasPrefix(p.URL, "http://")):
		return productErr("url must be an absolute http(s) URL or a path starting with /")
	}
	return nil
}

// ErrProductExists is returned when the slug is taken.
var ErrProductExists = &ProductError{Msg: "a product with this slug already exists"}

// CreateProduct adds a product to the registry.
func CreateProduct(ctx context.Context, db *gorm.DB, p *Product) error {
	p.ID = "prod_" + p.Slug
	if err := p.Validate(); err != nil {
		return err
	}
	now := Now()
	p.CreatedAt, p.UpdatedAt = now, now
	if err := db.WithContext(ctx).Create(p).Error; err != nil {
		if IsUniqueViolation(err) {
			return ErrProductExists
		}
		return err
	}
	return nil
}

// ProductChange is a partial update; nil fields stay as they are.
type ProductChange struct {
	Name, Tagline, Description, Category, PlatformPillar, Lifecycle, URL *string
}

// UpdateProduct applies a change. The lifecycle only moves forward
// (concept → alpha → beta); a move back is refused.
func UpdateProduct(ctx context.Context, db *gorm.DB, slug string, ch ProductChange) (*Product, error) {
	var out *Product
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		p, err := ProductBySlug(ctx, tx, slug)
		if err != nil {
			return err
		}
		if ch.Lifecycle != nil && *ch.Lifecycle != p.Lifecycle {
			from, to := LifecycleRank(p.Lifecycle), LifecycleRank(*ch.Lifecycle)
			if to < 0 {
				return productErr("lifecycle %q must be one of %s", *ch.Lifecycle, strings.Join(Lifecycles, ", "))
			}
			if to < from {
				return productErr("lifecycle only moves forward (%s): %s cannot go back from %s to %s",
					strings.Join(Lifecycles, " → "), p.Slug, p.Lifecycle, *ch.Lifecycle)
			}
		}
		for dst, src := range map[*string]*string{&p.Name: ch.Name, &p.Tagline: ch.Tagline, &p.Description: ch.Description,
			&p.Category: ch.Category, &p.PlatformPillar: ch.PlatformPillar, &p.Lifecycle: ch.Lifecycle, &p.URL: ch.URL} {
			if src != nil {
				*dst = *src
			}
		}
		if err := p.Validate(); err != nil {
			return err
		}
		p.UpdatedAt = Now()
		out = p
		return tx.Save(p).Error
	})
	return out, err
}

// ProductBySlug finds any product, public or not.
func ProductBySlug(ctx context.Context, db *gorm.DB, slug string) (*Product, error) {
	var p Product
	err := db.WithContext(ctx).Where("slug = ?", slug).Take(&p).Error
	return &p, notFound(err)
}

// AllProducts lists the whole registry by slug (staff and operators).
func AllProducts(ctx context.Context, db *gorm.DB) ([]Product, error) {
	var ps []Product
	err := db.WithContext(ctx).Order("slug").Find(&ps).Error
	return ps, err
}

// PublicProducts lists the public products by slug.
func PublicProducts(ctx context.Context, db *gorm.DB) ([]Product, error) {
	all, err := AllProducts(ctx, db)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, p := range all {
		if p.Public() {
			out = append(out, p)
		}
	}
	return out, nil
}

// IsProductError tells a rule violation from a database failure.
func IsProductError(err error) bool {
	var pe *ProductError
	return errors.As(err, &pe)
}
