package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// npm packs the Node host (examples/node) with the module beside it: the
// files its package.json names, its README, the repository's LICENSE and
// host/rootbound.wasm, staged in a directory of their own and packed by
// npm (whose tarballs carry fixed times, so the bytes repeat).
func (r *Release) npm() error {
	src := filepath.Join(r.Repo, "examples", "node")
	pkgJSON, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return err
	}
	var pkg struct {
		Version string   `json:"version"`
		Files   []string `json:"files"`
	}
	if err := json.Unmarshal(pkgJSON, &pkg); err != nil {
		return err
	}
	if pkg.Version != r.Version {
		return fmt.Errorf("examples/node/package.json's version is %s, VERSION's %s", pkg.Version, r.Version)
	}
	stage, err := os.MkdirTemp("", "rootbound-npm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	copies := map[string]string{
		"package.json":   filepath.Join(src, "package.json"),
		"README.md":      filepath.Join(src, "README.md"),
		"LICENSE":        filepath.Join(r.Repo, "LICENSE"),
		"rootbound.wasm": filepath.Join(r.Repo, "host", "rootbound.wasm"),
	}
	for _, f := range pkg.Files {
		if _, ok := copies[f]; !ok {
			copies[f] = filepath.Join(src, f)
		}
	}
	for name, from := range copies {
		b, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if name == "rootbound.mjs" {
			mode = 0o755 // the package's bin
		}
		if err := os.WriteFile(filepath.Join(stage, name), b, mode); err != nil {
			return err
		}
	}
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", r.Out)
	cmd.Dir = stage
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("npm pack: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != filepath.Base(r.NPMPackage()) {
		return fmt.Errorf("npm pack wrote %q, want %s", got, filepath.Base(r.NPMPackage()))
	}
	return nil
}
