// Package piexport holds the page templates and the stylesheets and script
// that every exported page carries inline, and the example sessions.
//
// It lives at the module root because //go:embed cannot reach a parent
// directory: packages page and site read these files through Templates,
// Assets and LoadInline.
package piexport

import (
	"embed"
	"io/fs"
)

//go:embed templates assets
var files embed.FS

// Templates returns the html/template sources, rooted at templates/.
func Templates() fs.FS { return sub("templates") }

// Assets returns the CSS and JavaScript files, rooted at assets/.
func Assets() fs.FS { return sub("assets") }

func sub(dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		// fs.Sub fails only on an invalid path, and dir is a constant.
		panic(err)
	}
	return f
}
