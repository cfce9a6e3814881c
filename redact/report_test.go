package redact

import (
	"strings"
	"testing"
)

func TestPreview(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"sk-ant-api03-" + strings.Repeat("x7", 40) + "Q4xA", "sk-ant-…Q4xA"},
		{"ghp_" + strings.Repeat("a1", 17) + "GGVS", "ghp_…GGVS"},
		{"github_pat_11ABCDEFGHIJ" + strings.Repeat("z9", 30), "github_pat_…z9z9"},
		{"AKIAQWERTYUIOPASDFGH", "AKIA…DFGH"},
		{"hunter2hunter", "(13 characters)"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----… (66 characters)"},
	} {
		if got := Preview(tc.value); got != tc.want {
			t.Errorf("Preview(%q) = %q, want %q", tc.value, got, tc.want)
		}
	}
}
