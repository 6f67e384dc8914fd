package gateway

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// The Messages dialect's content blocks, read into the neutral model. The
// OpenAI dialect's parts and tool turns become the same blocks
// (completions.go), so an adapter translates one model, whatever the
// caller spoke.

// toolIDPattern is what both providers accept as a tool call's id; ids
// pass unchanged both ways, so a conversation's ids stay stable.
var toolIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,256}$`)

// blockCounter counts a request's images and documents against MaxImages.
type blockCounter struct{ media int }

func (c *blockCounter) addMedia(path string) *Error {
	if c.media++; c.media > MaxImages {
		return invalid("%s: a request may carry at most %d images and documents", path, MaxImages)
	}
	return nil
}

// parseBlocks reads a turn's content blocks; role says which types it may
// hold (tool_use and thinking are the assistant's, tool_result, images
// and documents the user's).
func parseBlocks(items []any, path, role string, c *blockCounter) ([]ContentBlock, *Error) {
	blocks := make([]ContentBlock, len(items))
	for i, item := range items {
		bpath := index(path, i)
		b, ok := decodeObject(item, bpath)
		if !ok {
			return nil, invalid("%s must be an object", bpath)
		}
		typ, _ := asString(b.fields["type"])
		if typ == "" {
			return nil, invalid("%s is required", b.name("type"))
		}
		allowed := []string{BlockText, BlockImage, BlockDocument, BlockToolResult}
		if role == "assistant" {
			allowed = []string{BlockText, BlockToolUse, BlockThinking, BlockRedactedThinking}
		}
		if !slices.Contains(allowed, typ) {
			if slices.Contains([]string{BlockText, BlockImage, BlockDocument, BlockToolResult, BlockToolUse, BlockThinking, BlockRedactedThinking}, typ) {
				return nil, invalid("%s %q is not allowed in a %s turn", b.name("type"), typ, role)
			}
			return nil, invalid("%s %q is not supported: this gateway relays text, image, document, tool_use, tool_result and thinking blocks", b.name("type"), typ)
		}
		block, err := parseBlock(b, typ, c)
		if err != nil {
			return nil, err
		}
		if block.CacheControl, err = parseCacheControl(b); err != nil {
			return nil, err
		}
		blocks[i] = block
	}
	return blocks, nil
}

func parseBlock(b object, typ string, c *blockCounter) (ContentBlock, *Error) {
	block := ContentBlock{Type: typ}
	switch typ {
	case BlockText:
		if err := b.only("type", "text", "cache_control", "citations"); err != nil {
			return block, err
		}
		if cit, ok := b.get("citations"); ok {
			// A turn replayed from an answer: this gateway's answers have none.
			if items, ok := asArray(cit); !ok || len(items) > 0 {
				return block, invalid("%s is not supported: this gateway relays no citations", b.name("citations"))
			}
		}
		text, ok := asString(b.fields["text"])
		if !ok || strings.TrimSpace(text) == "" {
			return block, invalid("%s must be a non-empty string", b.name("text"))
		}
		block.Text = text
	case BlockImage:
		if err := b.only("type", "source", "cache_control"); err != nil {
			return block, err
		}
		if err := c.addMedia(b.path); err != nil {
			return block, err
		}
		return parseImageSource(b, block)
	case BlockDocument:
		if err := b.only("type", "source", "title", "context", "citations", "cache_control"); err != nil {
			return block, err
		}
		if err := c.addMedia(b.path); err != nil {
			return block, err
		}
		for _, name := range []string{"title", "context"} {
			if raw, ok := b.get(name); ok {
				s, ok := asString(raw)
				if !ok || len(s) > MaxToolDescription {
					return block, invalid("%s must be a string of at most %d bytes", b.name(name), MaxToolDescription)
				}
				if name == "title" {
					block.Title = s
				} else {
					block.Context = s
				}
			}
		}
		if cit, ok, err := parseChild(b, "citations", "enabled"); err != nil {
			return block, err
		} else if ok {
			var on bool
			if err := parseBool(cit, "enabled", &on); err != nil {
				return block, err
			}
			block.Citations, _ = json.Marshal(map[string]bool{"enabled": on})
		}
		return parseDocumentSource(b, block)
	case BlockToolUse:
		if err := b.only("type", "id", "name", "input", "cache_control"); err != nil {
			return block, err
		}
		var err *Error
		if block.ID, err = parseToolID(b.fields["id"], b.name("id")); err != nil {
			return block, err
		}
		if block.Name, err = parseToolName(b.fields["name"], b.name("name")); err != nil {
			return block, err
		}
		if _, ok := decodeObject(b.fields["input"], ""); !ok {
			return block, invalid("%s must be an object", b.name("input"))
		}
		block.Input, _ = json.Marshal(b.fields["input"])
	case BlockToolResult:
		if err := b.only("type", "tool_use_id", "content", "is_error", "cache_control"); err != nil {
			return block, err
		}
		var err *Error
		if block.ToolUseID, err = parseToolID(b.fields["tool_use_id"], b.name("tool_use_id")); err != nil {
			return block, err
		}
		if raw, ok := b.get("is_error"); ok {
			isError, ok := asBool(raw)
			if !ok {
				return block, invalid("%s must be a boolean", b.name("is_error"))
			}
			block.IsError = &isError
		}
		raw, ok := b.get("content")
		if s, isString := asString(raw); isString {
			block.contentString = true
			if s != "" {
				block.Content = []ContentBlock{{Type: BlockText, Text: s}}
			}
		} else if ok {
			items, isArray := asArray(raw)
			if !isArray {
				return block, invalid("%s must be a string or an array of text and image blocks", b.name("content"))
			}
			if block.Content, err = parseResultBlocks(items, b.name("content"), c); err != nil {
				return block, err
			}
		}
	case BlockThinking:
		if err := b.only("type", "thinking", "signature"); err != nil {
			return block, err
		}
		var ok1, ok2 bool
		block.Thinking, ok1 = asString(b.fields["thinking"])
		block.Signature, ok2 = asString(b.fields["signature"])
		if !ok1 || !ok2 {
			return block, invalid("%s must have string thinking and signature, as the answer gave them", b.path)
		}
	case BlockRedactedThinking:
		if err := b.only("type", "data"); err != nil {
			return block, err
		}
		data, ok := asString(b.fields["data"])
		if !ok || data == "" {
			return block, invalid("%s must be a non-empty string", b.name("data"))
		}
		block.Data = data
	}
	return block, nil
}

// parseResultBlocks reads a tool result's content: text and image blocks.
func parseResultBlocks(items []any, path string, c *blockCounter) ([]ContentBlock, *Error) {
	for i, item := range items {
		if o, ok := decodeObject(item, ""); ok && o.fields["type"] != BlockText && o.fields["type"] != BlockImage {
			s, _ := asString(o.fields["type"])
			return nil, invalid("%s.type %q is not supported in a tool result: text and image only", index(path, i), s)
		}
	}
	return parseBlocks(items, path, "user", c)
}

func parseToolID(raw any, path string) (string, *Error) {
	s, ok := asString(raw)
	if !ok || !toolIDPattern.MatchString(s) {
		return "", invalid("%s must be 1 to 256 letters, digits, underscores or hyphens", path)
	}
	return s, nil
}

// parseImageSource reads an image's source: base64 data of a PNG, JPEG,
// GIF or WebP whose header gives its size (and so its token bound), or
// an https URL, which is passed on and never fetched here.
func parseImageSource(b object, block ContentBlock) (ContentBlock, *Error) {
	src, ok, err := parseChild(b, "source", "type", "media_type", "data", "url")
	if err != nil {
		return block, err
	}
	if !ok {
		return block, invalid("%s is required", b.name("source"))
	}
	switch src.fields["type"] {
	case "base64":
		mt, _ := asString(src.fields["media_type"])
		data, _ := asString(src.fields["data"])
		block.Source, block.bound, err = imageData(mt, data, src.path)
	case "url":
		u, err := parseMediaURL(src)
		if err != nil {
			return block, err
		}
		block.Source, block.bound = &Source{Type: "url", URL: u}, MaxImageTokens
	default:
		return block, invalid(`%s must be "base64" or "url"`, src.name("type"))
	}
	return block, err
}

// imageData checks a base64 image against its media type, and bounds its
// tokens by the size its own header gives.
func imageData(mediaType, data, path string) (*Source, int, *Error) {
	if !slices.Contains(imageMediaTypes, mediaType) {
		return nil, 0, invalid("%s.media_type must be %s", path, oneOf(imageMediaTypes))
	}
	raw, ok := decodeMedia(data)
	if !ok {
		return nil, 0, invalid("%s.data must be base64 of at most %d bytes", path, MaxMediaBytes)
	}
	w, h, ok := imageSize(mediaType, raw)
	if !ok || w < 1 || h < 1 {
		return nil, 0, invalid("%s.data is not an image of type %s", path, mediaType)
	}
	return &Source{Type: "base64", MediaType: mediaType, Data: data}, imageTokensBound(w, h), nil
}

// parseMediaURL reads a source's url: https only. The provider fetches
// it; Parapet never does.
func parseMediaURL(src object) (string, *Error) {
	u, _ := asString(src.fields["url"])
	if !httpsURL(u) {
		return "", invalid("%s must be an https URL of at most 8192 characters", src.name("url"))
	}
	return u, nil
}

func httpsURL(u string) bool {
	return strings.HasPrefix(u, "https://") && len(u) <= 8192 && !hasUnsafe(u)
}

// parseDocumentSource reads a document's source: a base64 PDF, plain text
// ({"type":"text","media_type":"text/plain","data"}), or a PDF's https
// URL (for a messages-style provider).
func parseDocumentSource(b object, block ContentBlock) (ContentBlock, *Error) {
	src, ok, err := parseChild(b, "source", "type", "media_type", "data", "url")
	if err != nil {
		return block, err
	}
	if !ok {
		return block, invalid("%s is required", b.name("source"))
	}
	switch src.fields["type"] {
	case "base64":
		block.Source, block.bound, err = pdfData(src.fields["media_type"], src.fields["data"], src.path)
	case "text":
		data, ok := asString(src.fields["data"])
		if !ok || src.fields["media_type"] != "text/plain" || len(data) > MaxMediaBytes {
			return block, invalid(`%s must have media_type "text/plain" and data a string`, src.path)
		}
		block.Source, block.bound = &Source{Type: "text", MediaType: "text/plain", Data: data}, len(data)
	case "url":
		u, err := parseMediaURL(src)
		if err != nil {
			return block, err
		}
		block.Source, block.bound = &Source{Type: "url", URL: u}, MaxPDFPages*PDFPageTokens
	default:
		return block, invalid(`%s must be "base64", "text" or "url"`, src.name("type"))
	}
	return block, err
}

// pdfData checks a base64 PDF and bounds its tokens (pdfTokensBound).
func pdfData(mediaType, data any, path string) (*Source, int, *Error) {
	if mediaType != "application/pdf" {
		return nil, 0, invalid(`%s.media_type must be "application/pdf"`, path)
	}
	s, _ := asString(data)
	raw, ok := decodeMedia(s)
	if !ok || !strings.HasPrefix(string(raw), "%PDF-") {
		return nil, 0, invalid("%s.data must be a base64 PDF of at most %d bytes", path, MaxMediaBytes)
	}
	return &Source{Type: "base64", MediaType: "application/pdf", Data: s}, pdfTokensBound(raw), nil
}

// TextOf joins a turn's text blocks with a blank line: the text the demo
// describes and estimates count.
func TextOf(blocks []ContentBlock) string {
	var texts []string
	for _, b := range blocks {
		if b.Type == BlockText {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n\n")
}
