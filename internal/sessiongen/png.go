package sessiongen

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
)

// appendPNG appends the base64 of a valid PNG of about size bytes (5 KB at
// least). The picture looks like a screenshot: a title bar, panels and text
// lines with some noise. Pixels are stored without compression, which keeps
// the encoded size close to the requested one whatever the picture is, and
// keeps generation fast.
func (g *gen) appendPNG(b []byte, size int) []byte {
	size = max(size, 5<<10)
	w := g.r.between(64, 256)
	h := max(8, (size-200)/(3*w+1))
	raw := make([]byte, 0, h*(3*w+1))
	bg := [3]byte{byte(g.r.between(200, 255)), byte(g.r.between(200, 255)), byte(g.r.between(200, 255))}
	fg := [3]byte{byte(g.r.intn(90)), byte(g.r.intn(90)), byte(g.r.intn(120))}
	accent := [3]byte{byte(g.r.intn(256)), byte(g.r.intn(256)), byte(g.r.intn(256))}
	split := g.r.between(w/5, w/3)
	for y := 0; y < h; y++ {
		raw = append(raw, 0) // filter: none
		textRow := y > 12 && y%9 < 3
		lineEnd := split + 4 + int(g.r.u64()%uint64(w-split-4))
		for x := 0; x < w; x++ {
			c := bg
			switch {
			case y < 10:
				c = accent
			case x < split:
				c = [3]byte{bg[0] - 30, bg[1] - 30, bg[2] - 20}
				if textRow && x > 3 && x < split-4 {
					c = fg
				}
			case textRow && x > split+4 && x < lineEnd:
				c = fg
			}
			if g.r.intn(8) == 0 { // anti-aliasing and JPEG-like noise
				c[0] ^= byte(g.r.intn(8))
			}
			raw = append(raw, c[0], c[1], c[2])
		}
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.NoCompression)
	zw.Write(raw)
	zw.Close()

	png := make([]byte, 0, z.Len()+64)
	png = append(png, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8 // bit depth
	ihdr[9] = 2 // colour type: RGB
	png = appendChunk(png, "IHDR", ihdr[:])
	png = appendChunk(png, "IDAT", z.Bytes())
	png = appendChunk(png, "IEND", nil)
	return base64.StdEncoding.AppendEncode(b, png)
}

func appendChunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	start := len(b)
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}
