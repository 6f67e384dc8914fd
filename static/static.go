// Package static serves the embedded stylesheets, scripts and icons. Each
// asset's URL carries a content hash (?v=…), so browsers may cache it for a
// year: a new build changes the URL, never the bytes behind an old one.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed css js vendor img
var files embed.FS

var versions = func() map[string]string {
	v := map[string]string{}
	_ = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		v[path] = hex.EncodeToString(sum[:6])
		return nil
	})
	return v
}()

// Path returns the versioned URL of an asset, e.g. Path("css/app.css") ->
// "/static/css/app.css?v=1a2b3c4d5e6f". It panics on an unknown name so a
// typo fails the first test that renders the page.
func Path(name string) string {
	v, ok := versions[name]
	if !ok {
		panic("static: no asset " + name)
	}
	return "/static/" + name + "?v=" + v
}

// Handler serves the assets under /static/; anything else is
// echo.ErrNotFound, which the site answers with its own error page.
func Handler() echo.HandlerFunc {
	fsrv := http.StripPrefix("/static/", http.FileServer(http.FS(files)))
	return func(c echo.Context) error {
		w, r := c.Response(), c.Request()
		v, ok := versions[strings.TrimPrefix(r.URL.Path, "/static/")]
		if !ok {
			return echo.ErrNotFound
		}
		if r.URL.Query().Get("v") == v {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		fsrv.ServeHTTP(w, r)
		return nil
	}
}
