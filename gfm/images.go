package gfm

import (
	"encoding/base64"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// image writes an image of the session: kept as a file beside the
// document and linked (Options.Images), or named by a line. A document
// never carries an image as a data: URL, which GitHub does not show and
// which would make it as large as the session.
func (m *mdWriter) image(b session.Block) string {
	if m.opt.Images == nil || strings.HasPrefix(b.Data, "blob:") {
		return imageNote(b)
	}
	data := strings.TrimSpace(b.Data)
	if i := strings.Index(data, ";base64,"); strings.HasPrefix(data, "data:") && i >= 0 {
		data = data[i+len(";base64,"):]
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(data, "=")); err != nil {
			return imageNote(b)
		}
	}
	link, err := m.opt.Images.Add(b.MimeType, raw)
	if err != nil {
		if m.err == nil {
			m.err = err
		}
		return imageNote(b)
	}
	dest := markdownLink(link)
	if dest == "" {
		return imageNote(b)
	}
	mime := b.MimeType
	if mime == "" {
		mime = "image"
	}
	return "![" + mdInline(mime+", "+humanize.Bytes(int64(len(raw)))) + "](" + dest + ")"
}

// imageNote names an image the document does not include: one not in
// the session file, one that is no image a page shows safely, or every
// image when no store keeps them (a document written to standard output).
func imageNote(b session.Block) string {
	mime := mdInline(b.MimeType)
	if mime == "" {
		mime = "unknown type"
	}
	if strings.HasPrefix(b.Data, "blob:") {
		return "_[image: " + mime + ", not stored in the session file]_"
	}
	size := len(strings.TrimRight(strings.TrimSpace(b.Data), "=")) * 3 / 4
	return "_[image: " + mime + ", " + humanize.Bytes(int64(size)) + ", not included]_"
}
