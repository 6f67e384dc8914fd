package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"parapet/app/openapi"
	"parapet/views"
	"parapet/views/docs"
)

// DocsHome is the documentation's first page, getting started.
func (p *Pages) DocsHome(c echo.Context) error { return docsPage(c, "getting-started") }

// DocsPage is one page of the documentation, from views/docs/PAGE.md.
func (p *Pages) DocsPage(c echo.Context) error { return docsPage(c, c.Param("page")) }

func docsPage(c echo.Context, slug string) error {
	site, err := docs.Load()
	if err != nil {
		return err
	}
	page, ok := site.Page(slug)
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "There is no such documentation page.")
	}
	v := views.DocsView{Nav: site.Nav, Current: slug, Title: page.Title, TOC: page.TOC, HTML: page.HTML}
	return renderPage(c, http.StatusOK, page.Title, "docs", views.DocsPage, v)
}

// Docs is the readable API reference, made from the OpenAPI document.
func (p *Pages) Docs(c echo.Context) error {
	d, err := apiDoc()
	if err != nil {
		return err
	}
	site, err := docs.Load()
	if err != nil {
		return err
	}
	d.Shell = views.DocsView{Nav: site.Nav, Current: docs.APIReference, Title: "API reference"}
	for _, s := range d.Sections {
		d.Shell.TOC = append(d.Shell.TOC, docs.Heading{Level: 2, ID: docs.Slug(s.Name), Text: s.Name})
	}
	return renderPage(c, http.StatusOK, "API reference", "docs", views.Docs, d)
}

// apiDoc is the reference's content, made once: the document is embedded
// in the binary and never changes.
var apiDoc = sync.OnceValues(func() (views.APIDoc, error) {
	doc, err := openapi.Parse()
	if err != nil {
		return views.APIDoc{}, err
	}
	d := views.APIDoc{Title: doc.Info.Title, Version: doc.Info.Version, Intro: strings.Split(doc.Info.Description, "\n\n")}
	sections := map[string]*views.DocSection{}
	for _, t := range doc.Tags {
		d.Sections = append(d.Sections, views.DocSection{Name: t.Name, Description: t.Description})
	}
	for i := range d.Sections {
		sections[d.Sections[i].Name] = &d.Sections[i]
	}
	for _, e := range doc.Endpoints() {
		s := sections[firstTag(e.Tags)]
		if s == nil {
			continue
		}
		s.Endpoints = append(s.Endpoints, docEndpoint(doc, e))
	}
	return d, nil
})

func firstTag(tags []string) string {
	if len(tags) == 0 {
		return ""
	}
	return tags[0]
}

func docEndpoint(doc *openapi.Doc, e openapi.Endpoint) views.DocEndpoint {
	out := views.DocEndpoint{
		ID:          e.OperationID,
		Method:      e.Method,
		Path:        e.Path,
		Summary:     e.Summary,
		Description: e.Description,
		NeedsKey:    e.Security == nil || len(*e.Security) > 0,
	}
	for _, p := range e.Parameters {
		out.Params = append(out.Params, views.DocParam{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required})
	}
	if e.RequestBody != nil {
		for mt := range e.RequestBody.Content {
			out.Bodies = append(out.Bodies, mt)
		}
		sort.Strings(out.Bodies)
		out.BodyNote = e.RequestBody.Description
	}
	codes := make([]string, 0, len(e.Responses))
	for code := range e.Responses {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		r := doc.Resolve(e.Responses[code])
		dr := views.DocResponse{Status: code, Description: r.Description}
		for _, mt := range r.Content {
			if len(mt.Example) > 0 {
				var buf bytes.Buffer
				if json.Indent(&buf, mt.Example, "", "  ") == nil {
					dr.Example = buf.String()
				}
			}
		}
		out.Responses = append(out.Responses, dr)
	}
	return out
}
