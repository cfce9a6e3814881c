package archive

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
)

// encodeKeys codes sorted keys as the deltas between them, each a varint,
// in base64: about two bytes a key.
func encodeKeys(keys []uint64) string {
	b := make([]byte, 0, 2*len(keys))
	var prev uint64
	for _, k := range keys {
		b = binary.AppendUvarint(b, k-prev)
		prev = k
	}
	return base64.StdEncoding.EncodeToString(b)
}

// decodeKeys reads what encodeKeys wrote.
func decodeKeys(s string) ([]uint64, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	var keys []uint64
	var k uint64
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("a search key list is damaged")
		}
		k += d
		keys = append(keys, k)
		b = b[n:]
	}
	return keys, nil
}
