// Command rootbound is the rootbound core: as a WASI module (GOOS=wasip1
// GOARCH=wasm) it sees only the directories its host preopens and answers
// JSON-lines requests on stdin with JSON lines on stdout until stdin closes.
//
//	rootbound.wasm --root /workspace [--root /docs ...]
//
// The same program builds natively, for tests and for measuring what the
// sandbox costs; there a root may name the directory behind it:
//
//	rootbound --root /workspace=/path/on/disk
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/rootbound/rootbound/internal/server"
)

func main() {
	roots, err := parseArgs(os.Args[1:])
	if err == nil {
		var s *server.Server
		if s, err = server.New(roots); err == nil {
			err = s.Serve(os.Stdin, os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rootbound:", err)
		os.Exit(2)
	}
}

func parseArgs(args []string) ([]server.Root, error) {
	var roots []server.Root
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "--root" && i+1 < len(args):
			i++
			v = args[i]
		case strings.HasPrefix(a, "--root="):
			v = strings.TrimPrefix(a, "--root=")
		default:
			return nil, fmt.Errorf("unknown argument %q (usage: rootbound --root NAME[=DIR], one for each root)", a)
		}
		name, dir, ok := strings.Cut(v, "=")
		if !ok {
			dir = name
		}
		roots = append(roots, server.Root{Name: name, Dir: dir})
	}
	return roots, nil
}
