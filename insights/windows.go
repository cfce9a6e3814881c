package insights

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

// windows.txt is pi's model registry's context windows (see
// internal/genwindows): session files do not record them.
//
//go:embed windows.txt
var windowsText string

// windowTables are the context windows by "provider/model", and by model
// alone where every provider that offers it agrees.
var windowTables = sync.OnceValues(func() (byKey, byModel map[string]int64) {
	byKey, byModel = map[string]int64{}, map[string]int64{}
	conflict := map[string]bool{}
	for line := range strings.Lines(windowsText) {
		key, n, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(key, "#") {
			continue
		}
		w, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			continue
		}
		byKey[key] = w
		_, model, _ := strings.Cut(key, "/")
		if old, seen := byModel[model]; seen && old != w {
			conflict[model] = true
		}
		byModel[model] = w
	}
	for m := range conflict {
		delete(byModel, m)
	}
	return byKey, byModel
})

// ContextWindow returns the context window of a model in tokens, as pi's
// model registry has it; 0 when the model is not known there. A provider
// pi does not know (a proxy, a custom endpoint) still finds the model
// when its name is one pi knows with a single window.
func ContextWindow(provider, model string) int64 {
	byKey, byModel := windowTables()
	if w, ok := byKey[provider+"/"+model]; ok {
		return w
	}
	return byModel[model]
}
