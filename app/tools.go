package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/keys"
	"parapet/views"
	"parapet/views/paths"
)

// tool is one engine package's front doors, registered once: its page in
// the pages area (GET shows it, POST runs it), its JSON API under its own
// prefix with its own rate-limit budget, and its link in the navigation.
// Its API paths are documented in app/openapi/openapi.json (a test checks
// every route is).
type tool struct {
	name      string // the area's name and the navigation key
	label     string // the navigation link's text
	pagePath  string
	pages     []toolRoute // relative to pagePath
	apiPrefix string
	surface   api.Surface
	scope     string // the key scope its API needs
	api       []toolRoute
	// ownKeyCheck: the engine refuses a repeated key in its JSON itself,
	// naming every one with its path and line (the scanner), so the API's
	// JSON check leaves them to it.
	ownKeyCheck bool
}

// toolRoute is one route of a tool, relative to its page or API prefix.
type toolRoute struct {
	method, path string
	handler      echo.HandlerFunc
	// bodyLimit is, for a route that runs the engine, the most its body
	// may hold; 0 for a page that only shows.
	bodyLimit int64
}

// tools are the analysis tools: the log analyzer and the config scanner.
func (a *App) tools() []tool {
	p, v1 := a.pages, a.api
	return []tool{
		{name: "logs", label: "Logs", pagePath: paths.LogAnalyzer,
			pages: []toolRoute{{"GET", "", p.LogsPage, 0}, {"POST", "", p.LogsRun, logsBodyLimit},
				{"GET", "/compare", p.LogsComparePage, 0}, {"POST", "/compare", p.LogsCompareRun, compareLimit}},
			apiPrefix: "/logs/v1", surface: api.SurfaceLogs, scope: keys.ScopeLogs,
			api: []toolRoute{{"POST", "/analyze", v1.AnalyzeLogs, logsBodyLimit}, {"POST", "/compare", v1.CompareLogs, compareLimit}}},
		{name: "scan", label: "Scanner", pagePath: paths.ConfigScanner,
			pages:     []toolRoute{{"GET", "", p.ScanPage, 0}, {"POST", "", p.ScanRun, scanBodyLimit}},
			apiPrefix: "/scan/v1", surface: api.SurfaceScan, scope: keys.ScopeScan,
			api:         []toolRoute{{"POST", "/scan", v1.Scan, scanBodyLimit}},
			ownKeyCheck: true},
	}
}

// navLinks are the tools' links in the site's navigation.
func navLinks(tools []tool) []views.NavLink {
	links := make([]views.NavLink, len(tools))
	for i, t := range tools {
		links[i] = views.NavLink{Key: t.name, Label: t.label, Href: t.pagePath}
	}
	return links
}
