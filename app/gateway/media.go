package gateway

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"regexp"
	"strings"
)

// Images and documents: their input token bounds, measured from their own
// bytes (never from a number the client sends), and their limits.
const (
	// MaxImages bounds the images (and documents) of one request.
	MaxImages = 100
	// MaxImageTokens bounds one image's input tokens whatever its size:
	// above every provider's documented per-image maximum (Anthropic's
	// about 1,600 after it scales an image down; OpenAI's 1,445 for tiles
	// of 512 px, and 1,536 patches at up to 1.72 tokens each for the
	// patch-based models). A URL image, which is never fetched here,
	// reserves it.
	MaxImageTokens = 3000
	// PDFPageTokens bounds a PDF page: its text and its image, which
	// Anthropic documents at 1,500 to 3,000 tokens.
	PDFPageTokens = 3000
	// MaxPDFPages is the pages a PDF is bounded by when its pages cannot
	// be counted (kept in compressed object streams): Anthropic's limit
	// per request.
	MaxPDFPages = 100
	// MaxMediaBytes bounds one image or document's decoded bytes
	// (Anthropic's limit for an image is 5 MB, OpenAI's 20 MB).
	MaxMediaBytes = 20 << 20
)

// imageMediaTypes are the image types both providers take.
var imageMediaTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// imageTokensBound bounds an image of w×h pixels for either provider:
// the sum of Anthropic's w·h/750, OpenAI's 85 + 170 per tile of 512 px,
// and its patch count (32 px) at 2 tokens a patch, at most
// MaxImageTokens.
func imageTokensBound(w, h int) int {
	ceil := func(a, b int) int { return (a + b - 1) / b }
	n := ceil(w*h, 750) + 85 + 170*ceil(w, 512)*ceil(h, 512) + 2*ceil(w, 32)*ceil(h, 32)
	return min(n, MaxImageTokens)
}

// imageSize reads an image's dimensions from its header: PNG's IHDR,
// GIF's logical screen, WebP's VP8/VP8L/VP8X header or JPEG's SOF
// marker. ok is false when b is not an image of mediaType.
func imageSize(mediaType string, b []byte) (w, h int, ok bool) {
	switch mediaType {
	case "image/png":
		if len(b) >= 24 && bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) && string(b[12:16]) == "IHDR" {
			return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24])), true
		}
	case "image/gif":
		if len(b) >= 10 && (bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))) {
			return int(binary.LittleEndian.Uint16(b[6:8])), int(binary.LittleEndian.Uint16(b[8:10])), true
		}
	case "image/webp":
		return webpSize(b)
	case "image/jpeg":
		return jpegSize(b)
	}
	return 0, 0, false
}

func webpSize(b []byte) (int, int, bool) {
	if len(b) < 25 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	switch chunk := string(b[12:16]); {
	case len(b) < 30 && chunk != "VP8L":
	case chunk == "VP8 ":
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), true
	case chunk == "VP8L":
		v := binary.LittleEndian.Uint32(b[21:25])
		return int(v&0x3fff) + 1, int(v>>14&0x3fff) + 1, true
	case chunk == "VP8X":
		u24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
		return u24(b[24:27]) + 1, u24(b[27:30]) + 1, true
	}
	return 0, 0, false
}

// jpegSize walks the JPEG's markers to its first start-of-frame.
func jpegSize(b []byte) (int, int, bool) {
	if len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		return 0, 0, false
	}
	for i := 2; i+9 < len(b); {
		if b[i] != 0xff {
			return 0, 0, false
		}
		marker := b[i+1]
		if marker == 0xff { // fill byte
			i++
			continue
		}
		n := int(binary.BigEndian.Uint16(b[i+2 : i+4]))
		if marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc {
			return int(binary.BigEndian.Uint16(b[i+7 : i+9])), int(binary.BigEndian.Uint16(b[i+5 : i+7])), true
		}
		i += 2 + n
	}
	return 0, 0, false
}

// decodeMedia decodes base64 data (standard, padded or not), at most
// MaxMediaBytes.
func decodeMedia(data string) ([]byte, bool) {
	data = strings.TrimRight(data, "=")
	if base64.RawStdEncoding.DecodedLen(len(data)) > MaxMediaBytes {
		return nil, false
	}
	b, err := base64.RawStdEncoding.DecodeString(data)
	return b, err == nil
}

// pdfTokensBound bounds a PDF's input tokens by its pages (PDFPageTokens
// each): the page objects it holds in the clear, or MaxPDFPages when it
// has compressed object streams, where pages cannot be counted.
func pdfTokensBound(b []byte) int {
	pages := len(pdfPage.FindAllIndex(b, -1))
	if pages == 0 || bytes.Contains(b, []byte("/ObjStm")) {
		pages = max(pages, MaxPDFPages)
	}
	return pages * PDFPageTokens
}

// pdfPage matches a page object's type (not /Pages, the page tree's).
var pdfPage = regexp.MustCompile(`/Type\s*/Page(?:[^s]|$)`)
