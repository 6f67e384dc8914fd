package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
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
	page, run echo.HandlerFunc
	pages     []toolRoute // more page routes, relative to pagePath
	apiPrefix string
	surface   api.Surface
	api       []toolRoute
}

// toolRoute is one route of a tool's JSON API, relative to its prefix.
type toolRoute struct {
	method, path string
	handler      echo.HandlerFunc
}

// tools are the analysis tools: the log analyzer and the config scanner.
func (a *App) tools() []tool {
	p, v1 := a.pages, a.api
	return []tool{
		{name: "logs", label: "Logs", pagePath: paths.LogAnalyzer, page: p.LogsPage, run: p.LogsRun,
			pages:     []toolRoute{{"GET", "/compare", p.LogsComparePage}, {"POST", "/compare", p.LogsCompareRun}},
			apiPrefix: "/logs/v1", surface: api.SurfaceLogs,
			api: []toolRoute{{"POST", "/analyze", v1.AnalyzeLogs}, {"POST", "/compare", v1.CompareLogs}}},
		{name: "scan", label: "Scanner", pagePath: paths.ConfigScanner, page: p.ScanPage, run: p.ScanRun,
			apiPrefix: "/scan/v1", surface: api.SurfaceScan,
			api: []toolRoute{{"POST", "/scan", v1.Scan}}},
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
