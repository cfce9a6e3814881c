package session

import "testing"

func TestHomeOf(t *testing.T) {
	for _, tc := range []struct{ cwd, home, want string }{
		// Another user's home is not the reader's ~.
		{"/home/dev/projects/x", "/root", "/root"},
		{"/home/selim/Documents/Code/civ6.ch", "/home/dev", "/home/dev"},
		{"/root/p", "/root", "/root"},
		{"/home/dev/projects/x", "", "/home/dev"},
		{"/Users/ann/src", "", "/Users/ann"},
		{`E:\003Resources\monathena`, "", ""},
		{`C:\Users\bob\code`, "", `C:\Users\bob`},
		{"/data/data/com.termux/files/home/projects/earth-0", "", "/data/data/com.termux/files/home"},
	} {
		if got := HomeOf(tc.cwd, tc.home); got != tc.want {
			t.Errorf("HomeOf(%q, %q) = %q, want %q", tc.cwd, tc.home, got, tc.want)
		}
	}
}
