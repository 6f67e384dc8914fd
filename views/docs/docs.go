// Package docs is the product's documentation: the Markdown pages of this
// directory, embedded in the binary and rendered once, at start-up, into
// HTML with a table of contents. The pages are written to read well on
// GitHub too: they link to each other as "logs.md#anchor", which the
// rendering turns into /docs/logs#anchor.
package docs

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"parapet/views/paths"
)

//go:embed *.md
var files embed.FS

// APIReference is the navigation's entry for the API reference, which is
// made from the OpenAPI document, not from a Markdown page.
const APIReference = "api-reference"

// navigation is the side navigation's order. Every page of this directory
// is listed here (a test checks it): add a new page where a reader would
// look for it.
var navigation = []struct {
	title string
	pages []string
}{
	{"Start", []string{"getting-started", "security-model"}},
	{"Console", []string{"console", "api", APIReference}},
	{"Log analyzer", []string{"logs", "logs-reading", "logs-compare", "logs-timeline"}},
	{"AI help", []string{"ai-help"}},
	{"Configuration scanner", []string{"scanner", "scanner-terraform", "scanner-checks", "scanner-suppressions"}},
	{"LLM gateway", []string{"gateway", "gateway-routing", "gateway-limits"}},
	{"Running Parapet", []string{"configuration", "operations", "architecture", "performance"}},
}

// Site is every page, rendered, with the navigation.
type Site struct {
	Nav   []NavGroup
	pages map[string]*Page
}

// NavGroup is one titled group of the side navigation.
type NavGroup struct {
	Title string
	Links []NavLink
}

// NavLink is one page in the navigation.
type NavLink struct {
	Slug, Title, Href string
}

// Page is one rendered Markdown page.
type Page struct {
	Slug  string
	Title string // the page's "# Title"
	HTML  string // the body, the title left out (the page's layout shows it)
	TOC   []Heading
	ids   map[string]bool
	links []string // every link's destination, as rendered
}

// Heading is an entry of a page's table of contents.
type Heading struct {
	Level    int // 2 or 3
	ID, Text string
}

// Page returns the page of that slug.
func (s *Site) Page(slug string) (*Page, bool) {
	p, ok := s.pages[slug]
	return p, ok
}

// Load renders the pages once; the embedded files never change.
var Load = sync.OnceValues(func() (*Site, error) { return build(files) })

func build(fsys fs.FS) (*Site, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	site := &Site{pages: map[string]*Page{}}
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		slug := strings.TrimSuffix(name, ".md")
		page, err := render(slug, src)
		if err != nil {
			return nil, fmt.Errorf("docs: %s: %w", name, err)
		}
		site.pages[slug] = page
	}
	listed := map[string]bool{}
	for _, g := range navigation {
		group := NavGroup{Title: g.title}
		for _, slug := range g.pages {
			listed[slug] = true
			title := "API reference"
			if slug != APIReference {
				p, ok := site.pages[slug]
				if !ok {
					return nil, fmt.Errorf("docs: the navigation lists %q, which has no %s.md", slug, slug)
				}
				title = p.Title
			}
			group.Links = append(group.Links, NavLink{Slug: slug, Title: title, Href: paths.DocsPage(slug)})
		}
		site.Nav = append(site.Nav, group)
	}
	for slug := range site.pages {
		if !listed[slug] {
			return nil, fmt.Errorf("docs: %s.md is not in the navigation (views/docs/docs.go)", slug)
		}
	}
	return site, nil
}

var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(transformer{}, 100)),
	),
	// Raw HTML is shown as text (nodeRenderer), never passed through.
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{}, 100))),
)

func render(slug string, src []byte) (*Page, error) {
	ids := &headingIDs{seen: map[string]bool{}}
	doc := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext(parser.WithIDs(ids))))
	page := &Page{Slug: slug, ids: ids.seen}
	var title *ast.Heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		switch {
		case !ok:
		case h.Level == 1 && title == nil:
			title = h
		case h.Level == 2 || h.Level == 3:
			page.TOC = append(page.TOC, Heading{Level: h.Level, ID: headingID(h), Text: plainText(h, src)})
		}
	}
	if title == nil {
		return nil, fmt.Errorf("no \"# Title\" line")
	}
	page.Title = plainText(title, src)
	delete(page.ids, headingID(title))
	doc.RemoveChild(doc, title)
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			page.links = append(page.links, string(l.Destination))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := markdown.Renderer().Render(&out, src, doc); err != nil {
		return nil, err
	}
	page.HTML = out.String()
	return page, nil
}

func headingID(h *ast.Heading) string {
	id, _ := h.AttributeString("id")
	b, _ := id.([]byte)
	return string(b)
}

// plainText is a heading's or a table header's text without its Markdown
// ("`HOST`" reads HOST).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// headingIDs makes GitHub's anchors ("Limits, entitlement and quota" is
// #limits-entitlement-and-quota, a repeat gets -1, -2), so a link to a
// section works on GitHub and in the product alike.
type headingIDs struct{ seen map[string]bool }

func (h *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	base := Slug(string(value))
	id := base
	for i := 1; h.seen[id]; i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	h.seen[id] = true
	return []byte(id)
}

func (h *headingIDs) Put(value []byte) { h.seen[string(value)] = true }

// Slug is GitHub's anchor for a heading's Markdown: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', the rest dropped.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

func isLetter(r rune) bool { return strings.ToLower(string(r)) != strings.ToUpper(string(r)) }
