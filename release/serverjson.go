package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// SchemaURL is the MCP registry's server.json schema the entry is written
// to (and validated against, release_test.go).
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// ServerJSON is the release's entry in the MCP registry: the OCI image
// (docker run with the workspace mounted read-only) and a bundle per
// platform, each with its SHA-256 as the registry requires. The npm
// package is the Node host's library and command, not an MCP server, so
// it is not listed.
func (r *Release) ServerJSON() (map[string]any, error) {
	stdio := map[string]string{"type": "stdio"}
	packages := []map[string]any{{
		"registryType": "oci",
		"identifier":   Image + ":" + r.Version,
		"transport":    stdio,
		"runtimeHint":  "docker",
		"runtimeArguments": []map[string]any{{
			"type":        "named",
			"name":        "--volume",
			"description": "The directory the tools may read, mounted read-only at /workspace",
			"value":       "{workspace}:/workspace:ro",
			"isRequired":  true,
			"variables": map[string]any{"workspace": map[string]any{
				"description": "The directory the tools may read (an absolute path)",
				"format":      "filepath",
				"isRequired":  true,
			}},
		}},
	}}
	for _, p := range Platforms {
		sum, err := fileSHA256(r.Bundle(p))
		if err != nil {
			return nil, err
		}
		packages = append(packages, map[string]any{
			"registryType": "mcpb",
			"identifier":   r.DownloadURL(r.Bundle(p)),
			"version":      r.Version,
			"fileSha256":   sum,
			"transport":    stdio,
		})
	}
	return map[string]any{
		"$schema":     SchemaURL,
		"name":        ServerName,
		"title":       "rootbound",
		"description": "Read-only glob, grep, read and list, confined by WebAssembly: no link followed, .git never read.",
		"repository":  map[string]string{"url": Repository, "source": "github"},
		"websiteUrl":  Repository,
		"version":     r.Version,
		"packages":    packages,
	}, nil
}

func (r *Release) serverJSON() error {
	v, err := r.ServerJSON()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.Out, "server.json"), append(b, '\n'), 0o644)
}
