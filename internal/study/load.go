package study

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kbench/kbench/studies"
)

// Load reads a study from a file path or, when ref names no file, from the built-in
// studies. A path is anything containing a path separator or ending in .yaml or .yml.
func Load(ref string) (*Plan, error) {
	if looksLikePath(ref) {
		data, err := os.ReadFile(ref)
		if err != nil {
			return nil, fmt.Errorf("unable to read study: %w", err)
		}
		plan, err := Parse(ref, data)
		if err != nil {
			return nil, err
		}
		if ext := plan.Cluster.External; ext != nil && ext.CommandConfig != "" && !filepath.IsAbs(ext.CommandConfig) {
			ext.CommandConfig = filepath.Join(filepath.Dir(ref), ext.CommandConfig)
		}
		return plan, nil
	}
	data, err := studies.Read(ref)
	if err != nil {
		return nil, fmt.Errorf("unable to load study %q: %w; or give a path to a study file", ref, err)
	}
	return Parse("builtin:"+ref, data)
}

// Builtins returns the built-in study names.
func Builtins() []string { return studies.Names() }

func looksLikePath(ref string) bool {
	return strings.ContainsRune(ref, os.PathSeparator) || strings.ContainsRune(ref, '/') ||
		strings.HasSuffix(ref, ".yaml") || strings.HasSuffix(ref, ".yml")
}
