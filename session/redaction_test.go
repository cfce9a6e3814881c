package session

import "testing"

func TestRedactionSummary(t *testing.T) {
	for _, tc := range []struct {
		r    Redaction
		want string
	}{
		{Redaction{Secrets: true, Values: map[string]int{}}, "no secrets found"},
		{Redaction{Secrets: true, Values: map[string]int{"github-pat": 1, "aws-access-token": 2}, Home: true},
			"3 values masked: 2 aws-access-token, 1 github-pat; the home directory shown as ~, the user name as user"},
		{Redaction{Images: 2}, "2 images left out"},
		{Redaction{Secrets: true, Values: map[string]int{"a": 4, "b": 3, "c": 2, "d": 2, "e": 1, "f": 1, "g": 1}},
			"14 values masked: 4 a, 3 b, 2 c, 2 d, 1 e, 2 more by 2 other rules"},
	} {
		if got := tc.r.Summary(); got != tc.want {
			t.Errorf("Summary() = %q, want %q", got, tc.want)
		}
	}
}
