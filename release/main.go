// Command release makes every artifact of a rootbound release, into one
// directory, reproducibly (the same source and Go give the same bytes):
//
//   - static binaries of the command for linux, darwin and windows, each on
//     amd64 and arm64 (CGO_ENABLED=0, -trimpath, no build ID, VERSION
//     embedded);
//   - the manual page and the shells' completions, as the command prints
//     them;
//   - an MCP bundle (.mcpb) per binary: manifest.json and the binary, for
//     one-click installs in MCPB clients;
//   - an OCI image of `rootbound mcp` for linux/amd64 and linux/arm64, as an
//     OCI image layout in a tar file (ko-style: the static binary on an
//     empty base, built here without a container engine);
//   - the npm package of the Node host (examples/node), packed by npm;
//   - server.json, the MCP registry's entry, naming the bundles (with their
//     SHA-256) and the image;
//   - SHA256SUMS of all of them.
//
// Run it from the repository (make release): go run ./release -out dist.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Platform is one target of the binaries.
type Platform struct{ OS, Arch string }

// Platforms are the release's targets, in the order they are built.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Exe is the binary's name on p.
func (p Platform) Exe() string {
	if p.OS == "windows" {
		return "rootbound.exe"
	}
	return "rootbound"
}

// Names of the project, as the registries know it.
const (
	Repository = "https://github.com/rootbound/rootbound"
	ServerName = "io.github.rootbound/rootbound" // the MCP registry's name
	Image      = "ghcr.io/rootbound/rootbound"   // the OCI image's repository
)

// epoch is the time every archive entry carries, so that archives do not
// change with the time they were made.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Release is one release being made.
type Release struct {
	Version string // VERSION's, without a "v"
	Repo    string // the repository's top directory
	Out     string // where the artifacts go
	Logf    func(format string, args ...any)
}

func main() {
	out := flag.String("out", "dist", "the `DIR` the artifacts go to (emptied first)")
	repo := flag.String("repo", ".", "the repository's top `DIR`")
	flag.Parse()
	log.SetFlags(0)
	r, err := New(*repo, *out)
	if err != nil {
		log.Fatal("release: ", err)
	}
	r.Logf = log.Printf
	if err := r.Make(); err != nil {
		log.Fatal("release: ", err)
	}
}

// New returns the release of the repository at repo, its version read from
// VERSION, to be made in out.
func New(repo, out string) (*Release, error) {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	v, err := os.ReadFile(filepath.Join(repo, "VERSION"))
	if err != nil {
		return nil, err
	}
	return &Release{Version: strings.TrimSpace(string(v)), Repo: repo, Out: out, Logf: func(string, ...any) {}}, nil
}

// Make makes every artifact.
func (r *Release) Make() error {
	if err := os.RemoveAll(r.Out); err != nil {
		return err
	}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return err
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"binaries", r.binaries},
		{"manual and completions", r.docs},
		{"MCP bundles", r.bundles},
		{"OCI image", r.image},
		{"npm package", r.npm},
		{"server.json", r.serverJSON},
		{"SHA256SUMS", r.sums},
	}
	for _, s := range steps {
		start := time.Now()
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		r.Logf("release: %s (%.1f s)", s.name, time.Since(start).Seconds())
	}
	return nil
}

// Binary is the path of p's binary in the release.
func (r *Release) Binary(p Platform) string {
	name := fmt.Sprintf("rootbound-%s-%s-%s", r.Version, p.OS, p.Arch)
	if p.OS == "windows" {
		name += ".exe"
	}
	return filepath.Join(r.Out, name)
}

// Bundle is the path of p's MCP bundle.
func (r *Release) Bundle(p Platform) string {
	return filepath.Join(r.Out, fmt.Sprintf("rootbound-%s-%s-%s.mcpb", r.Version, p.OS, p.Arch))
}

// ImageArchive is the path of the OCI image layout's tar file.
func (r *Release) ImageArchive() string {
	return filepath.Join(r.Out, fmt.Sprintf("rootbound-%s-oci.tar", r.Version))
}

// NPMPackage is the path of the npm package.
func (r *Release) NPMPackage() string {
	return filepath.Join(r.Out, fmt.Sprintf("rootbound-%s.tgz", r.Version))
}

// DownloadURL is where a release asset is published.
func (r *Release) DownloadURL(file string) string {
	return fmt.Sprintf("%s/releases/download/v%s/%s", Repository, r.Version, filepath.Base(file))
}

// sums writes SHA256SUMS: every other file of the release, by name.
func (r *Release) sums() error {
	entries, err := os.ReadDir(r.Out)
	if err != nil {
		return err
	}
	var lines []string
	for _, e := range entries {
		if e.IsDir() || e.Name() == "SHA256SUMS" {
			continue
		}
		sum, err := fileSHA256(filepath.Join(r.Out, e.Name()))
		if err != nil {
			return err
		}
		lines = append(lines, sum+"  "+e.Name()+"\n")
	}
	slices.Sort(lines)
	return os.WriteFile(filepath.Join(r.Out, "SHA256SUMS"), []byte(strings.Join(lines, "")), 0o644)
}

func fileSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
