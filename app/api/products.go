package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/models"
)

// ProductItem is a product in the list: every field but description
// (absent from the JSON, not null or empty).
type ProductItem struct {
	ID             string `json:"id"`
	Slug           string `json:"slug"`
	Name           string `json:"name"`
	Tagline        string `json:"tagline"`
	Category       string `json:"category"`
	PlatformPillar string `json:"platform_pillar"`
	Lifecycle      string `json:"lifecycle"`
	URL            string `json:"url"`
}

// ProductDetail is a single product, with its description.
type ProductDetail struct {
	ID             string `json:"id"`
	Slug           string `json:"slug"`
	Name           string `json:"name"`
	Tagline        string `json:"tagline"`
	Description    string `json:"description"`
	Category       string `json:"category"`
	PlatformPillar string `json:"platform_pillar"`
	Lifecycle      string `json:"lifecycle"`
	URL            string `json:"url"`
}

// NewProductDetail is p as GET /v1/products/:slug shows it, but for its
// URL: as stored, where the endpoint makes a path absolute.
func NewProductDetail(p models.Product) ProductDetail {
	return ProductDetail{ID: p.ID, Slug: p.Slug, Name: p.Name, Tagline: p.Tagline, Description: p.Description,
		Category: p.Category, PlatformPillar: p.PlatformPillar, Lifecycle: p.Lifecycle, URL: p.URL}
}

// ListProducts answers GET /v1/products: the public products by slug.
func (a *API) ListProducts(c echo.Context) error {
	body, err := a.products.list(c.Request().Context(), a.origin(c))
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, body)
}

// GetProduct answers GET /v1/products/:slug; a product that is unknown or
// not public is 404 product_not_found.
func (a *API) GetProduct(c echo.Context) error {
	slug := c.Param("slug")
	ps, err := a.products.get(c.Request().Context())
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.Slug == slug {
			d := NewProductDetail(p)
			d.URL = absolute(a.origin(c), p.URL)
			return answer(c, d)
		}
	}
	return apierr.New(http.StatusNotFound, "product_not_found", "no public product with the slug "+quote(slug))
}

// origin is the scheme and host product paths are made absolute with.
func (a *API) origin(c echo.Context) string {
	if a.PublicURL != "" {
		return a.PublicURL
	}
	scheme := "http"
	if a.IsHTTPS(c.Request()) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host
}

func absolute(origin, url string) string {
	if strings.HasPrefix(url, "/") {
		return origin + url
	}
	return url
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// productCacheTTL bounds how stale the registry may be on an instance that
// did not make a change itself (a change through the staff page or on this
// instance invalidates at once; one from the CLI or another instance shows
// within this time). It spares the database a query per request.
const productCacheTTL = time.Second

// productCache holds the public products and their list bodies per origin.
type productCache struct {
	db *models.DB

	mu       sync.Mutex
	at       time.Time
	products []models.Product
	lists    map[string][]byte
}

func (pc *productCache) invalidate() {
	pc.mu.Lock()
	pc.at = time.Time{}
	pc.mu.Unlock()
}

// get returns the public products, reloading them when the cache is old.
func (pc *productCache) get(ctx context.Context) ([]models.Product, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.fresh(ctx)
}

// fresh is get under pc.mu, held by the caller: a list body is built from
// and stored with the same products, never from ones a concurrent reload
// has replaced.
func (pc *productCache) fresh(ctx context.Context) ([]models.Product, error) {
	if !pc.at.IsZero() && time.Since(pc.at) < productCacheTTL {
		return pc.products, nil
	}
	ps, err := models.PublicProducts(ctx, pc.db.DB)
	if err != nil {
		return nil, err
	}
	pc.products, pc.at, pc.lists = ps, time.Now(), map[string][]byte{}
	return ps, nil
}

// list returns the list envelope's bytes for an origin.
func (pc *productCache) list(ctx context.Context, origin string) ([]byte, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	ps, err := pc.fresh(ctx)
	if err != nil {
		return nil, err
	}
	if b, ok := pc.lists[origin]; ok {
		return b, nil
	}
	items := make([]ProductItem, 0, len(ps))
	for _, p := range ps {
		items = append(items, ProductItem{ID: p.ID, Slug: p.Slug, Name: p.Name, Tagline: p.Tagline, Category: p.Category,
			PlatformPillar: p.PlatformPillar, Lifecycle: p.Lifecycle, URL: absolute(origin, p.URL)})
	}
	b, err := httpx.Envelope(items)
	if err != nil {
		return nil, err
	}
	if len(pc.lists) < 64 { // origins come from Host headers: keep a few
		pc.lists[origin] = b
	}
	return b, nil
}
