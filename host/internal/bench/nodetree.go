package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// writeNodeTree writes a JavaScript project under dir as agents meet them:
// 2,000 source files under src/, and a node_modules/ of 300 packages and
// 36,000 files that its .gitignore leaves out (with dist/ and logs), in a
// git repository (a .git directory, so that fd reads .gitignore too). The
// same bytes on every machine (a fixed seed).
func writeNodeTree(dir string) error {
	rng := rand.New(rand.NewPCG(3, 5))
	words := []string{"const", "let", "function", "return", "import", "export", "from", "async", "await",
		"value", "props", "state", "render", "config", "options", "handler", "request", "response", "items"}
	file := func(lines int) string {
		var b strings.Builder
		for range lines {
			for j := range 4 + rng.IntN(8) {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[rng.IntN(len(words))])
			}
			b.WriteString(";\n")
		}
		return b.String()
	}
	write := func(rel, content string) error {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return err
	}
	if err := write(".gitignore", "node_modules/\ndist/\n*.log\n"); err != nil {
		return err
	}
	for i := range 2000 {
		content := file(40 + rng.IntN(80))
		if i == 1234 {
			content += "export const needleInSource = 1;\n"
		}
		if err := write(fmt.Sprintf("src/mod%02d/file%04d.js", i%40, i), content); err != nil {
			return err
		}
	}
	for p := range 300 {
		for f := range 120 {
			content := file(10 + rng.IntN(40))
			if p == 7 && f == 7 {
				content += "var needleInSource = 2;\n"
			}
			if err := write(fmt.Sprintf("node_modules/pkg%03d/lib/part%d/f%03d.js", p, f%6, f), content); err != nil {
				return err
			}
		}
	}
	for i := range 50 {
		if err := write(fmt.Sprintf("dist/bundle%02d.js", i), file(200)); err != nil {
			return err
		}
	}
	return write("build.log", file(100))
}
