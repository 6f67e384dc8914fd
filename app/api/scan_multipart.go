package api

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/scan"
)

// maxScanMultipartBytes bounds a multipart body: the engine's 5 MiB of
// files plus room for the parts' headers (a thousand files' framing).
const maxScanMultipartBytes = scan.MaxInputBytes + 1<<20

// readScanFiles reads a multipart/form-data body of Terraform source, one
// part per file, each part's filename its path relative to the root
// (modules/net/main.tf). The filename is read from the part's
// Content-Disposition as sent: Go's FileName() would drop its directories.
// Over scan.MaxFiles files, or a path too deep, is 413 naming the limit;
// a path that leaves the root ("..", absolute) or a part without a
// filename is 400.
func readScanFiles(c echo.Context, boundary string) ([]scan.File, error) {
	if boundary == "" {
		return nil, apierr.InvalidRequest("a multipart/form-data body needs its boundary parameter")
	}
	body, err := httpx.ReadBody(c, maxScanMultipartBytes)
	if err != nil {
		return nil, err
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var files []scan.File
	for {
		part, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, apierr.InvalidRequest("malformed multipart body: %v", err)
		}
		_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		name := params["filename"]
		if err != nil || name == "" {
			return nil, apierr.InvalidRequest("each part needs a filename: the file's path relative to the root, e.g. modules/net/main.tf")
		}
		if len(files) == scan.MaxFiles {
			return nil, apierr.PayloadTooLarge("more than 1000 files: the limit is 1000 files per scan (files)")
		}
		if _, err := scan.CheckFilePath(name); err != nil {
			return nil, scanError(err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, apierr.InvalidRequest("malformed multipart body: %v", err)
		}
		files = append(files, scan.File{Path: name, Data: data})
	}
	if len(files) == 0 {
		return nil, apierr.InvalidRequest("the multipart body has no files: send one part per file, its filename the path relative to the root")
	}
	return files, nil
}
