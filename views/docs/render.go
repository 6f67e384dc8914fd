package docs

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"parapet/views/paths"
)

// tabLabels are the code blocks that become tabs when two or more of them
// follow each other: the same call, shown for each client.
var tabLabels = map[string]string{
	"sh": "curl", "bash": "curl", "shell": "curl",
	"python": "Python", "py": "Python",
	"javascript": "JavaScript", "js": "JavaScript",
}

// tabGroup holds the code blocks of one call, one tab each.
type tabGroup struct {
	ast.BaseBlock
	n int // its number in the page, for the tabs' ids
}

var kindTabGroup = ast.NewNodeKind("TabGroup")

func (g *tabGroup) Kind() ast.NodeKind               { return kindTabGroup }
func (g *tabGroup) Dump(src []byte, level int)       { ast.DumpHelper(g, src, level, nil, nil) }
func (g *tabGroup) label(i int, src []byte) string   { return tabLabels[lang(g.child(i), src)] }
func (g *tabGroup) child(i int) *ast.FencedCodeBlock { return childAt(g, i).(*ast.FencedCodeBlock) }

func childAt(n ast.Node, i int) ast.Node {
	c := n.FirstChild()
	for ; i > 0; i-- {
		c = c.NextSibling()
	}
	return c
}

func lang(n ast.Node, src []byte) string {
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		return strings.ToLower(string(f.Language(src)))
	}
	return ""
}

// scroller holds a table, which scrolls inside it rather than widen the page.
type scroller struct{ ast.BaseBlock }

var kindScroller = ast.NewNodeKind("Scroller")

func (s *scroller) Kind() ast.NodeKind         { return kindScroller }
func (s *scroller) Dump(src []byte, level int) { ast.DumpHelper(s, src, level, nil, nil) }

// transformer points links between pages at the product's paths, groups
// the code blocks of one call into tabs and wraps tables to scroll,
// their cells labelled for phones.
type transformer struct{}

func (transformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var runs [][]ast.Node
	var tables []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			n.Destination = []byte(pageLink(string(n.Destination)))
		case *east.Table:
			tables = append(tables, n)
		case *ast.FencedCodeBlock:
			if prev := n.PreviousSibling(); prev != nil && tabLabels[lang(prev, src)] != "" {
				return ast.WalkContinue, nil // counted with the run's first block
			}
			if run := tabRun(n, src); len(run) > 1 {
				runs = append(runs, run)
			}
		}
		return ast.WalkContinue, nil
	})
	for i, run := range runs {
		g := &tabGroup{n: i + 1}
		parent := run[0].Parent()
		parent.InsertBefore(parent, run[0], g)
		for _, b := range run {
			parent.RemoveChild(parent, b)
			g.AppendChild(g, b)
		}
	}
	for _, t := range tables {
		label(t, src)
		s := &scroller{}
		parent := t.Parent()
		parent.ReplaceChild(parent, t, s)
		s.AppendChild(s, t)
	}
}

// label makes t a stack-table (app.css: on a phone each row is a card, each
// cell a line led by its column's name) and gives each body cell its
// column's name: a four-column table no longer squeezes its words into
// letters on a 390 px screen.
func label(t ast.Node, src []byte) {
	t.SetAttributeString("class", "stack-table")
	var names []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		for i, cell := 0, row.FirstChild(); cell != nil; i, cell = i+1, cell.NextSibling() {
			if _, head := row.(*east.TableHeader); head {
				names = append(names, strings.TrimSpace(plainText(cell, src)))
			} else if i < len(names) && names[i] != "" {
				cell.SetAttributeString("data-label", names[i])
			}
		}
	}
}

// tabRun is the code blocks from n on that show one call for different
// clients, each client once.
func tabRun(n ast.Node, src []byte) []ast.Node {
	var run []ast.Node
	seen := map[string]bool{}
	for ; n != nil; n = n.NextSibling() {
		label := tabLabels[lang(n, src)]
		if label == "" || seen[label] {
			break
		}
		seen[label] = true
		run = append(run, n)
	}
	return run
}

// pageLink turns "logs.md#compare" into "/docs/logs#compare"; other links
// are left as they are (the link test reports those that lead nowhere).
func pageLink(dest string) string {
	if strings.Contains(dest, "://") || strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "mailto:") {
		return dest
	}
	file, frag, hasFrag := strings.Cut(dest, "#")
	if !strings.HasSuffix(file, ".md") || strings.Contains(file, "/") {
		return dest
	}
	out := paths.DocsPage(strings.TrimSuffix(file, ".md"))
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// nodeRenderer writes what the pages add to plain Markdown: anchors on
// headings, code blocks with a copy button, tabs, scrolling tables. Raw
// HTML in a page is shown as text: the pages are documentation, and the
// CSP forbids what raw HTML would most likely hold.
type nodeRenderer struct{}

func (nodeRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindHeading, renderHeading)
	r.Register(ast.KindFencedCodeBlock, renderCode)
	r.Register(ast.KindCodeBlock, renderCode)
	r.Register(ast.KindCodeSpan, renderCodeSpan)
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(kindTabGroup, renderTabGroup)
	r.Register(kindScroller, renderScroller)
}

func renderHeading(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	h := n.(*ast.Heading)
	id := headingID(h)
	if entering {
		fmt.Fprintf(w, `<h%d id="%s">`, h.Level, html.EscapeString(id))
	} else {
		fmt.Fprintf(w, ` <a class="heading-anchor" href="#%s"><span aria-hidden="true">#</span><span class="visually-hidden">Link to this section</span></a></h%d>`+"\n", html.EscapeString(id), h.Level)
	}
	return ast.WalkContinue, nil
}

func renderCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	g, inTabs := n.Parent().(*tabGroup)
	if inTabs {
		i := indexOf(g, n)
		hidden := ""
		if i > 0 {
			hidden = " hidden"
		}
		fmt.Fprintf(w, `<div role="tabpanel" id="code-%d-%d" aria-labelledby="tab-%d-%d"%s>`, g.n, i, g.n, i, hidden)
	}
	w.WriteString(`<div class="code-block"><pre tabindex="0"><code`)
	if l := lang(n, src); l != "" {
		fmt.Fprintf(w, ` class="language-%s"`, html.EscapeString(l))
	}
	w.WriteString(">")
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		w.WriteString(html.EscapeString(string(seg.Value(src))))
	}
	w.WriteString(`</code></pre><button type="button" class="code-copy secondary outline" data-copy-code>Copy</button></div>`)
	if inTabs {
		w.WriteString("</div>")
	}
	w.WriteString("\n")
	return ast.WalkSkipChildren, nil
}

func indexOf(parent, n ast.Node) int {
	i := 0
	for c := parent.FirstChild(); c != n; c = c.NextSibling() {
		i++
	}
	return i
}

func renderTabGroup(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	g := n.(*tabGroup)
	if !entering {
		w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	w.WriteString(`<div class="code-tabs" data-tabs><div role="tablist" aria-label="Client">`)
	for i := range g.ChildCount() {
		selected, tabindex := "false", "-1"
		if i == 0 {
			selected, tabindex = "true", "0"
		}
		label := g.label(i, src)
		fmt.Fprintf(w, `<button type="button" role="tab" id="tab-%d-%d" aria-controls="code-%d-%d" aria-selected="%s" tabindex="%s" data-tab="%s">%s</button>`,
			g.n, i, g.n, i, selected, tabindex, label, label)
	}
	w.WriteString("</div>")
	return ast.WalkContinue, nil
}

func renderScroller(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<div class="table-wrap" tabindex="0">`)
	} else {
		w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}

// renderCodeSpan writes inline code with a line-break opportunity (<wbr>)
// after each joint of an identifier, so a long one (a variable name, a
// path, a dotted call) wraps at a joint rather than anywhere: a table's
// columns are then sized by the parts, not the whole, and stay readable.
// Hyphens are left to the browser's own rules, which keep "--flag" whole.
func renderCodeSpan(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	w.WriteString("<code>")
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		v := c.(*ast.Text).Segment.Value(src)
		if bytes.HasSuffix(v, []byte("\n")) { // a code span across lines: one space, as goldmark writes it
			v = append(v[:len(v)-1:len(v)-1], ' ')
		}
		for len(v) > 0 {
			j := bytes.IndexAny(v, "_./:,=&?") + 1
			if j == 0 || j == len(v) {
				w.WriteString(html.EscapeString(string(v)))
				break
			}
			w.WriteString(html.EscapeString(string(v[:j])))
			w.WriteString("<wbr>")
			v = v[j:]
		}
	}
	w.WriteString("</code>")
	return ast.WalkSkipChildren, nil
}

// An HTML comment is a note to the page's maintainers ("this table is
// generated"): it is left out, as a browser would, not shown as text.
func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	segs := n.(*ast.RawHTML).Segments
	if first := segs.At(0); !entering || bytes.HasPrefix(first.Value(src), []byte("<!--")) {
		return ast.WalkSkipChildren, nil
	}
	for i := range segs.Len() {
		s := segs.At(i)
		w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	b := n.(*ast.HTMLBlock)
	if !entering || b.HTMLBlockType == ast.HTMLBlockType2 { // type 2: a comment
		return ast.WalkSkipChildren, nil
	}
	w.WriteString("<p>")
	lines := b.Lines()
	for i := range lines.Len() {
		s := lines.At(i)
		w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	if b.HasClosure() {
		w.WriteString(html.EscapeString(string(b.ClosureLine.Value(src))))
	}
	w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}
