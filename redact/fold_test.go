package redact

import "testing"

// TestLiteralsInAnyCase (issue 33, item 3): the user's words are found
// in any case of any script, composed or not, and the placeholder takes
// the place of exactly the characters they cover, whatever their length
// in bytes.
func TestLiteralsInAnyCase(t *testing.T) {
	const p = "[REDACTED:literal#1]"
	for _, tc := range []struct{ literal, text, want string }{
		{"Müller", "Herr MÜLLER und Frau müller", "Herr " + p + " und Frau [REDACTED:literal#2]"},
		{"MÜLLER GmbH", "bei Müller GmbH.", "bei " + p + "."},
		{"Дмитрий", "от ДМИТРИЙ, привет", "от " + p + ", привет"},
		{"Ørsted", "ørsted and ØRSTED", p + " and [REDACTED:literal#2]"},
		{"Ångström Corp", "for ÅNGSTRÖM CORP today", "for " + p + " today"},
		{"Ångström Corp", "for A\u030angstro\u0308m corp today", "for " + p + " today"},
		{"A\u030angstro\u0308m", "at Ångström.", "at " + p + "."},
		{"ΑΘΗΝΑ", "στην Αθηνα σήμερα", "στην " + p + " σήμερα"},
		{"Kelvin", "\u212aelvin Ltd", p + " Ltd"},
		{"ſecret-corp", "SECRET-CORP ok", p + " ok"},
		{"acme", "ACME and Acme", p + " and [REDACTED:literal#2]"},
		// Not the word: an accent follows, or only part of a character.
		{"Angstro", "Ångström", "Ångström"},
		{"Angstro", "A\u030angstro\u0308m", "A\u030angstro\u0308m"},
		{"Ang", "A\u030ang", "A\u030ang"},
	} {
		r := redactor(t, Options{Literals: []string{tc.literal}})
		if got := r.Text(tc.text); got != tc.want {
			t.Errorf("literal %q in %q: got %q, want %q", tc.literal, tc.text, got, tc.want)
		}
	}
}
