// Package studies holds kbench's built-in studies, one YAML file per source study plus a
// quick demo, embedded in the binary. internal/study parses them.
package studies

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Names returns the built-in study names, sorted.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil // the embedded directory always reads
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Read returns a built-in study's YAML.
func Read(name string) ([]byte, error) {
	if !slices.Contains(Names(), name) {
		return nil, fmt.Errorf("no built-in study %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	return files.ReadFile(name + ".yaml")
}
