package web

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/scan"
	"parapet/views"
)

// Terraform source on the scanner page: several files or a folder chosen
// in the "source" inputs, each part's filename its path in the folder
// (repo/modules/net/main.tf). The path is read from the part's
// Content-Disposition as the browser sent it: the parsed form's Filename
// keeps only the last element.

// uploadedSource returns the files posted as "source", or a report saying
// why they cannot be scanned (too many, a path that leaves the folder).
func uploadedSource(c echo.Context) ([]scan.File, *views.ScanReport, error) {
	form := c.Request().MultipartForm
	if form == nil {
		return nil, nil, nil
	}
	var files []scan.File
	total := 0
	for _, h := range form.File["source"] {
		if h.Size == 0 && h.Filename == "" {
			continue // an input left empty
		}
		if len(files) == scan.MaxFiles {
			return nil, &views.ScanReport{Limit: fmt.Sprintf("More than %d files were chosen; the scanner takes at most %d files at once.", scan.MaxFiles, scan.MaxFiles)}, nil
		}
		name := h.Filename
		if _, params, err := mime.ParseMediaType(h.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
			name = params["filename"]
		}
		if _, err := scan.CheckFilePath(name); err != nil {
			rep, _ := reportOf(nil, err, nil)
			return nil, rep, nil
		}
		if total += int(h.Size); total > scan.MaxInputBytes {
			return nil, &views.ScanReport{Limit: fmt.Sprintf("The chosen files add up to more than %d bytes (5 MiB), the scanner's limit.", scan.MaxInputBytes)}, nil
		}
		f, err := h.Open()
		if err != nil {
			return nil, nil, echo.NewHTTPError(http.StatusBadRequest, "The uploaded file could not be read: "+err.Error())
		}
		data, err := io.ReadAll(io.LimitReader(f, scan.MaxInputBytes+1))
		f.Close()
		if err != nil {
			return nil, nil, echo.NewHTTPError(http.StatusBadRequest, "The uploaded file could not be read: "+err.Error())
		}
		files = append(files, scan.File{Path: name, Data: data})
	}
	return files, nil, nil
}

// sourceLines keeps, for the excerpts, the lines of the files that
// findings point into.
func sourceLines(res *scan.Result, files []scan.File) map[string][]string {
	wanted := map[string]bool{}
	for _, f := range res.Findings {
		if f.Location != nil {
			wanted[f.Location.File] = true
		}
	}
	out := map[string][]string{}
	for _, f := range files {
		if wanted[f.Path] {
			text := strings.TrimSuffix(strings.ReplaceAll(string(f.Data), "\r\n", "\n"), "\n")
			out[f.Path] = strings.Split(text, "\n")
		}
	}
	return out
}
