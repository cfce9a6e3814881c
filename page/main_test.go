package page

import (
	"testing"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestMain says, once, how many browser tests were skipped for want of
// Chromium, and how to run them.
func TestMain(m *testing.M) { browsertest.Main(m, "piexport/page") }
