// Package piexport holds the page template and the stylesheets and script
// that every exported page carries inline.
//
// It lives at the module root because //go:embed cannot reach a parent
// directory: package export reads these files through Templates and Assets.
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
