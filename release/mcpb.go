package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// An MCP bundle (MCPB, github.com/modelcontextprotocol/mcpb) is a zip of a
// manifest.json and the server it starts: here the static binary, a
// "binary" server whose one setting is the directory it may read.

// mcpbPlatform is the bundle format's name of an OS.
var mcpbPlatform = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}

// Manifest is an MCPB manifest (version 0.3). Its tools are the table of
// tools' (examples/node/flags.json, which go generate writes from it).
func (r *Release) Manifest(p Platform) (map[string]any, error) {
	tools, err := r.tools()
	if err != nil {
		return nil, err
	}
	entry := "server/" + p.Exe()
	return map[string]any{
		"manifest_version": "0.3",
		"name":             "rootbound",
		"display_name":     "rootbound",
		"version":          r.Version,
		"description":      "Read-only glob, grep, read and list of one directory, confined by a WebAssembly runtime: no symbolic link is followed, .git is never read.",
		"long_description": "rootbound gives an agent four read-only tools over the directory you choose: glob (find files by name), grep (search contents, as ripgrep), read (a file's numbered lines) and list (a directory's entries). The search runs in a WebAssembly module that can open nothing outside that directory.",
		"author":           map[string]any{"name": "The rootbound authors", "url": Repository},
		"repository":       map[string]any{"type": "git", "url": Repository},
		"homepage":         Repository,
		"license":          "Apache-2.0",
		"keywords":         []string{"grep", "glob", "ripgrep", "search", "files", "sandbox", "wasm"},
		"server": map[string]any{
			"type":        "binary",
			"entry_point": entry,
			"mcp_config": map[string]any{
				"command": "${__dirname}/" + entry,
				"args":    []string{"mcp", "--root", "${user_config.workspace}"},
			},
		},
		"tools":         tools,
		"compatibility": map[string]any{"platforms": []string{mcpbPlatform[p.OS]}},
		"user_config": map[string]any{
			"workspace": map[string]any{
				"type":        "directory",
				"title":       "Workspace",
				"description": "The directory the tools may read (nothing outside it, no link out of it)",
				"required":    true,
			},
		},
	}, nil
}

// tools are the manifest's tools: each tool's name and its line in the
// command's usage, from examples/node/flags.json.
func (r *Release) tools() ([]map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(r.Repo, "examples", "node", "flags.json"))
	if err != nil {
		return nil, err
	}
	var table map[string]json.RawMessage
	if err := json.Unmarshal(b, &table); err != nil {
		return nil, fmt.Errorf("examples/node/flags.json: %w", err)
	}
	var tools []map[string]string
	for _, name := range slices.Sorted(maps.Keys(table)) {
		var t struct{ Summary string }
		if name == "generated" || json.Unmarshal(table[name], &t) != nil || t.Summary == "" {
			continue
		}
		tools = append(tools, map[string]string{"name": name, "description": strings.ToUpper(t.Summary[:1]) + t.Summary[1:] + "."})
	}
	return tools, nil
}

// bundles writes an MCP bundle for each platform's binary.
func (r *Release) bundles() error {
	license, err := os.ReadFile(filepath.Join(r.Repo, "LICENSE"))
	if err != nil {
		return err
	}
	for _, p := range Platforms {
		m, err := r.Manifest(p)
		if err != nil {
			return err
		}
		manifest, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		bin, err := os.ReadFile(r.Binary(p))
		if err != nil {
			return err
		}
		zipped, err := zipOf([]zipEntry{
			{"manifest.json", append(manifest, '\n'), 0o644},
			{"LICENSE", license, 0o644},
			{"server/" + p.Exe(), bin, 0o755},
		})
		if err != nil {
			return err
		}
		if err := os.WriteFile(r.Bundle(p), zipped, 0o644); err != nil {
			return err
		}
	}
	return nil
}

type zipEntry struct {
	name string
	data []byte
	mode fs.FileMode
}

// zipOf zips entries in their order, each with the release's epoch and
// its Unix mode, so the same entries give the same bytes.
func zipOf(entries []zipEntry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
