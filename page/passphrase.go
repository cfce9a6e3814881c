package page

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CheckPassphrase returns passphrase as an encrypted page takes it, in
// Unicode's NFC form (as the page's script takes what is typed: the same
// text may arrive composed or not), or an error of one sentence when it
// is one a browser cannot type, so that the page it would make could
// never be opened: empty, not UTF-8 text, or holding a control character
// (a carriage return left by a file with Windows line ends, a tab, an
// escape).
func CheckPassphrase(passphrase string) (string, error) {
	if passphrase == "" {
		return "", errors.New("the passphrase is empty")
	}
	if !utf8.ValidString(passphrase) {
		return "", errors.New("the passphrase is not UTF-8 text, which a browser cannot type")
	}
	for i, r := range passphrase {
		if !unicode.IsControl(r) {
			continue
		}
		where := "holds"
		switch {
		case i == 0:
			where = "begins with"
		case i+utf8.RuneLen(r) == len(passphrase):
			where = "ends with"
		}
		return "", fmt.Errorf("the passphrase %s %s, which a browser cannot type", where, controlName(r))
	}
	return norm.NFC.String(passphrase), nil
}

// controlName names a control character for a person.
func controlName(r rune) string {
	switch r {
	case '\r':
		return "a carriage return (U+000D)"
	case '\n':
		return "a line feed (U+000A)"
	case '\t':
		return "a tab (U+0009)"
	case 0x1b:
		return "an escape (U+001B)"
	}
	return fmt.Sprintf("a control character (U+%04X)", r)
}
