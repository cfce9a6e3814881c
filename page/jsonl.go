package page

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
)

// The session file itself, for a reader to download from the page, when
// the export was asked to carry it (Options.JSONL): it can double the
// page, so it is not by default. The original bytes are gzipped and
// written as base64 (URL alphabet, no padding) in an inert <script
// type="application/x-piexport-jsonl"> at the very end of the page, with
// the file's name; the header's Download button (code.js) unpacks them
// into a file. Without JavaScript it is not offered.

// jsonlScriptType is the type of the inert block that holds the file.
const jsonlScriptType = "application/x-piexport-jsonl"

// background is a value a page carries at its end, made on another core
// while the page's entries are rendered.
type background struct {
	done chan struct{}
	data string
}

// wait returns the value once it is made.
func (b *background) wait() string {
	<-b.done
	return b.data
}

// packJSONL starts compressing the session file's bytes.
func packJSONL(raw []byte) *background {
	b := &background{done: make(chan struct{})}
	go func() {
		defer close(b.done)
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		// Writes to a bytes.Buffer cannot fail.
		_, _ = zw.Write(raw)
		_ = zw.Close()
		b.data = base64.RawURLEncoding.EncodeToString(z.Bytes())
	}()
	return b
}
