package gateway

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// An image's size comes from its own header, in each format both
// providers take, and bounds its tokens: never a number the client sent.
func TestImageSizeFromHeader(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	encode := map[string]func(*bytes.Buffer) error{
		"image/png":  func(b *bytes.Buffer) error { return png.Encode(b, img) },
		"image/jpeg": func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) },
		"image/gif":  func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) },
		"image/webp": func(b *bytes.Buffer) error {
			// A lossless (VP8L) header: 14 bits each of width-1 and height-1.
			b.WriteString("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f")
			return binary.Write(b, binary.LittleEndian, uint32(639|479<<14))
		},
	}
	for mediaType, enc := range encode {
		var b bytes.Buffer
		if err := enc(&b); err != nil {
			t.Fatal(err)
		}
		w, h, ok := imageSize(mediaType, b.Bytes())
		if !ok || w != 640 || h != 480 {
			t.Errorf("%s: %d×%d %v", mediaType, w, h, ok)
		}
		src, bound, err := imageData(mediaType, base64.StdEncoding.EncodeToString(b.Bytes()), "image")
		if err != nil || src.MediaType != mediaType || bound != imageTokensBound(640, 480) {
			t.Errorf("%s: bound %d, %v", mediaType, bound, err)
		}
	}
	if _, _, ok := imageSize("image/png", []byte("GIF89a\x01\x00\x01\x00")); ok {
		t.Error("a GIF read as a PNG")
	}
	if b := imageTokensBound(1, 1); b < 85 || imageTokensBound(100000, 100000) != MaxImageTokens {
		t.Errorf("bounds %d, %d", b, imageTokensBound(100000, 100000))
	}
}

// A PDF is bounded by its pages, or by MaxPDFPages when it hides them in
// compressed object streams.
func TestPDFBound(t *testing.T) {
	clear := []byte("%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page /Parent 1 0 R>>")
	if got := pdfTokensBound(clear); got != 2*PDFPageTokens {
		t.Errorf("two clear pages: %d", got)
	}
	if got := pdfTokensBound([]byte("%PDF-1.5\n<</Type /ObjStm>>\n<</Type /Page>>")); got != MaxPDFPages*PDFPageTokens {
		t.Errorf("object streams: %d", got)
	}
}

// The demo plays an agent's model: offered a tool it calls it with an
// input made from its schema, streamed or not; given the result, it
// answers in text that quotes it.
func TestDemoToolLoop(t *testing.T) {
	p, err := NewWithUpstream(Config{}, &Demo{})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"model":"parapet-demo","max_tokens":200,"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],
		"messages":[{"role":"user","content":"Weather?"}]}`
	req, err := ParseMessagesRequest([]byte(body), p.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	msg, _, err := p.Complete(context.Background(), req)
	if err != nil || msg.StopReason != StopToolUse || msg.Content[0].Name != "get_weather" || string(msg.Content[0].Input) != `{"city":"demo"}` {
		t.Fatalf("%+v %v", msg, err)
	}
	streamed, _, err := p.Stream(context.Background(), req, func(Event) error { return nil })
	if err != nil || string(streamed.Content[0].Input) != `{"city":"demo"}` || streamed.Content[0].ID != msg.Content[0].ID {
		t.Fatalf("streamed %+v %v", streamed, err)
	}
	req.Messages = append(req.Messages, ChatMessage{Role: "assistant", Blocks: msg.Content},
		ChatMessage{Role: "user", Blocks: []ContentBlock{{Type: BlockToolResult, ToolUseID: msg.Content[0].ID, Content: []ContentBlock{{Type: BlockText, Text: "sunny"}}}}})
	last, _, err := p.Complete(context.Background(), req)
	if err != nil || last.StopReason != StopEndTurn || !strings.Contains(last.Text(), `returned "sunny"`) {
		t.Fatalf("%+v %v", last, err)
	}
}
