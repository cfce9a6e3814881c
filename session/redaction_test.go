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
	} {
		if got := tc.r.Summary(); got != tc.want {
			t.Errorf("Summary() = %q, want %q", got, tc.want)
		}
	}
}
