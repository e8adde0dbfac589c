package arch

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/kbench/kbench/"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// packages lists the module's packages with `go list -json ./...`, as a newcomer would.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestArchitecture: every package is listed in docs/architecture.md (as `path`), and no
// import crosses a forbidden arrow.
func TestArchitecture(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string][]string{
		"internal/report": {"internal/load", "internal/cluster"},
		"internal/study":  {"internal/cluster", "internal/load"},
	}
	for _, p := range packages(t) {
		path := strings.TrimPrefix(p.ImportPath, module)
		if path == "internal/arch" {
			continue
		}
		if !strings.Contains(string(doc), "`"+path+"`") {
			t.Errorf("package %s is not in docs/architecture.md", path)
		}
		for _, dep := range p.Deps {
			dep = strings.TrimPrefix(dep, module)
			for _, f := range forbidden[path] {
				if dep == f {
					t.Errorf("%s depends on %s: a forbidden arrow", path, f)
				}
			}
		}
		if path != "internal/cli" && path != "cmd/kbench" {
			for _, imp := range p.Imports {
				if imp == module+"internal/cli" {
					t.Errorf("%s imports internal/cli: only the binary may", path)
				}
			}
		}
	}
}
