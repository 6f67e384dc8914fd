package docs

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"parapet/app/openapi"
	"parapet/views/paths"
)

// Every link between pages leads to a page that exists, and every anchor
// to a heading of it (or an operation of the API reference); a link to a
// file of the repository, which the product cannot serve, is broken too.
func TestLinksAndAnchors(t *testing.T) {
	site, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	operations := map[string]bool{}
	for _, e := range doc.Endpoints() {
		operations[e.OperationID] = true
	}
	checked := 0
	for slug, page := range site.pages {
		for _, dest := range page.links {
			if strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
				continue
			}
			target, frag, _ := strings.Cut(dest, "#")
			var anchors map[string]bool
			switch {
			case target == "":
				anchors = page.ids
			case target == paths.APIReference:
				anchors = operations
			case strings.HasPrefix(target, paths.Docs+"/"):
				p, ok := site.Page(strings.TrimPrefix(target, paths.Docs+"/"))
				if !ok {
					t.Errorf("%s.md links to %q: no such page", slug, dest)
					continue
				}
				anchors = p.ids
			case strings.HasPrefix(target, "/"):
				continue // a page of the product, outside the documentation
			default:
				t.Errorf("%s.md links to %q, which the product does not serve (link to another page as \"page.md#anchor\")", slug, dest)
				continue
			}
			if frag != "" && !anchors[frag] {
				t.Errorf("%s.md links to %q: no such anchor", slug, dest)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no internal link checked: the pages link to each other")
	}
}

// The pages state what is true now: figures are today's, not a diary.
func TestNoDatedMeasurements(t *testing.T) {
	diary := regexp.MustCompile(`(?i)\bsessions? \d+\b|\b(?:earlier|latest) (?:run|machine)\b|\bfaster machine\b|\bmeasured (?:on|in) 20\d\d\b`)
	site, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for slug, page := range site.pages {
		if m := diary.FindString(page.HTML); m != "" {
			t.Errorf("%s.md tells history (%q): state today's figure", slug, m)
		}
	}
}

func TestEveryPageInTheNavigation(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, g := range navigation {
		for _, slug := range g.pages {
			if slug != APIReference {
				fsys[slug+".md"] = &fstest.MapFile{Data: []byte("# " + slug + "\n")}
			}
		}
	}
	if _, err := build(fsys); err != nil {
		t.Fatalf("every listed page present: %v", err)
	}
	fsys["unlisted.md"] = &fstest.MapFile{Data: []byte("# Unlisted\n")}
	if _, err := build(fsys); err == nil || !strings.Contains(err.Error(), "unlisted.md is not in the navigation") {
		t.Errorf("a page missing from the navigation: %v", err)
	}
}

func TestRender(t *testing.T) {
	src := "# Title\n\nIntro with <script>alert(1)</script> and [a page](logs.md#compare).\n\n" +
		"## Call `HOST`\n\n```sh\ncurl -H 'a: <b>' x\n```\n\n```python\nprint(1)\n```\n\n" +
		"## Call `HOST`\n\n<!-- made by a tool -->\n| a | `b` & \"c\" |\n|---|---|\n| 1 | 2 |\n\n<div>raw</div>\n\nA note <!-- inline --> here, on `GATEWAY_RATE_LIMIT` and `a<b` and `x.\ny`.\n"
	p, err := render("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Title" || strings.Contains(p.HTML, "<h1") {
		t.Errorf("title %q, or the title left in the body", p.Title)
	}
	want := []string{
		`&lt;script&gt;alert(1)&lt;/script&gt;`, `&lt;div&gt;raw&lt;/div&gt;`, // raw HTML shown, not run
		`href="/docs/logs#compare"`,
		`<h2 id="call-host">`, `<h2 id="call-host-1">`, `href="#call-host"`,
		`role="tab"`, `data-tab="curl"`, `data-tab="Python"`, `aria-controls="code-1-1"`, `curl -H &#39;a: &lt;b&gt;&#39; x`,
		`data-copy-code`, `<div class="table-wrap" tabindex="0"><table class="stack-table">`,
		// On a phone a row is a card, each cell led by its column's name.
		`<td data-label="a">1</td>`, `<td data-label="b &amp; &quot;c&quot;">2</td>`,
		// Inline code wraps at its joints.
		`<code>GATEWAY_<wbr>RATE_<wbr>LIMIT</code>`, `<code>a&lt;b</code>`, `<code>x.<wbr> y</code>`,
	}
	for _, w := range want {
		if !strings.Contains(p.HTML, w) {
			t.Errorf("no %s in\n%s", w, p.HTML)
		}
	}
	if strings.Contains(p.HTML, "made by a tool") || strings.Contains(p.HTML, "inline") {
		t.Errorf("an HTML comment, a note to the maintainers, is shown:\n%s", p.HTML)
	}
	if strings.Contains(p.HTML, "<script>") || strings.Contains(p.HTML, "<div>raw") {
		t.Errorf("raw HTML passed through:\n%s", p.HTML)
	}
	if len(p.TOC) != 2 || p.TOC[0].Text != "Call HOST" || p.TOC[1].ID != "call-host-1" {
		t.Errorf("table of contents: %+v", p.TOC)
	}
}
