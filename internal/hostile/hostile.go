// Package hostile holds strings that would run script or add markup if
// any of them reached a page unescaped, for the tests of the packages that
// write pages. Each sets window.__xss or document.title, so a browser test
// can tell.
package hostile

// The strings, each named for where the tests put it.
const (
	Title   = `Fix it <script>window.__xss=1;document.title="pwned"</script> "><img src=x onerror="window.__xss=2">`
	Cwd     = `~/src/"><svg onload="window.__xss=3">`
	Label   = `"><script>window.__xss=4</script>`
	Preview = `</script><script>window.__xss=5</script> javascript:alert(1)`
	Role    = `Assistant · <b onmouseover="window.__xss=6">x</b>`
	Foot    = `'"><script>window.__xss=7</script>`
	ID      = `"><script>window.__xss=8</script>`
	Model   = `javascript:alert(1)`
)
