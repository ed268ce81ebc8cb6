package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// binaries builds the command for every platform: static (no cgo), with
// no path of this machine, no build ID and no VCS stamp in it, and the
// release's version embedded (VERSION), so the same source gives the same bytes.
func (r *Release) binaries() error {
	for _, p := range Platforms {
		if err := r.build(p, r.Binary(p)); err != nil {
			return fmt.Errorf("%s/%s: %w", p.OS, p.Arch, err)
		}
	}
	return nil
}

// build builds the command for p into out.
func (r *Release) build(p Platform, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-mod=readonly",
		"-ldflags", "-s -w -buildid=",
		"-o", out, "./host/cmd/rootbound")
	cmd.Dir = r.Repo
	// The module as it is published: no workspace of the checkout.
	cmd.Env = append(os.Environ(), "GOOS="+p.OS, "GOARCH="+p.Arch, "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// docs writes the manual page and the shells' completions as the command
// of this machine prints them (every release's command prints the same).
func (r *Release) docs() error {
	self := Platform{runtime.GOOS, runtime.GOARCH}
	bin := r.Binary(self)
	if _, err := os.Stat(bin); err != nil {
		// Not a platform of the release: a build of its own, removed after.
		bin = filepath.Join(r.Out, ".rootbound-docs")
		if err := r.build(self, bin); err != nil {
			return err
		}
		defer os.Remove(bin)
	}
	for file, args := range map[string][]string{
		"rootbound.1":    {"man"},
		"rootbound.bash": {"completion", "bash"},
		"rootbound.zsh":  {"completion", "zsh"},
		"rootbound.fish": {"completion", "fish"},
	} {
		var out bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout = &out
		cmd.Env = append(os.Environ(), "ROOTBOUND_SERVER=off")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("rootbound %v: %w", args, err)
		}
		if err := os.WriteFile(filepath.Join(r.Out, file), out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
