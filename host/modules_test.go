package host_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleRequiresOnlyWhatItUses builds the module list of a program that
// imports only host, as a library user's would be: no SDK that only an
// example or a test uses may be in it (minimal version selection would
// raise the user's own versions of them).
func TestModuleRequiresOnlyWhatItUses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module example.com/user\n\ngo 1.26.8\n\nrequire github.com/rootbound/rootbound v0.0.0\n\nreplace github.com/rootbound/rootbound => " + repo + "\n",
		"go.sum":  string(sum),
		"main.go": "package main\n\nimport _ \"github.com/rootbound/rootbound/host\"\n\nfunc main() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "list", "-mod=mod", "-m", "all")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, sdk := range []string{"openai-go", "anthropic-sdk-go", "wasmtime-go", "go.bytecodealliance.org"} {
		if strings.Contains(string(out), sdk) {
			t.Errorf("a program that imports only host requires %s:\n%s", sdk, out)
		}
	}
}
