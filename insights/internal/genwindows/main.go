// Command genwindows writes insights/windows.txt, the context window of
// every model pi's model registry knows, from the registry's data files:
//
//	npm pack @earendil-works/pi-ai@1.5.2 && tar xzf earendil-works-pi-ai-1.5.2.tgz
//	go run ./insights/internal/genwindows package/dist/providers/data > insights/windows.txt
//
// Each data file maps an API to models by key; a model names its
// provider, id and contextWindow.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genwindows DATA_DIR > insights/windows.txt")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "genwindows:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no *.json in %s", dir)
	}
	windows := map[string]int64{}
	for _, f := range files {
		if filepath.Base(f)[0] == '.' {
			continue // the package's own manifest
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var apis map[string]map[string]struct {
			ID            string `json:"id"`
			Provider      string `json:"provider"`
			ContextWindow int64  `json:"contextWindow"`
		}
		if err := json.Unmarshal(b, &apis); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, models := range apis {
			for _, m := range models {
				if m.ID != "" && m.Provider != "" && m.ContextWindow > 0 {
					windows[m.Provider+"/"+m.ID] = m.ContextWindow
				}
			}
		}
	}
	keys := make([]string, 0, len(windows))
	for k := range windows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Println("# The context windows of pi's model registry (@earendil-works/pi-ai 1.5.2, MIT):")
	fmt.Println("# provider/model tokens. Made by insights/internal/genwindows; do not edit.")
	for _, k := range keys {
		fmt.Printf("%s %d\n", k, windows[k])
	}
	return nil
}
