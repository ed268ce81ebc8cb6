// Command gen writes what comes from the table of options: the GlobArgs and
// GrepArgs of packages protocol and host, the Node host's flag table and
// README.md's option lists (go generate ./internal/options).
package main

import (
	"log"
	"os"

	"github.com/rootbound/rootbound/internal/options"
)

func main() {
	const readmePath, nodePath = "../../README.md", "../../examples/node/flags.json"
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		log.Fatal(err)
	}
	if readme, err = options.ReplaceMarkdown(readme); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(readmePath, readme, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(nodePath, options.NodeFlags(), 0o644); err != nil {
		log.Fatal(err)
	}
	for pkg, path := range map[string]string{"protocol": "../../protocol/args.go", "host": "../../host/args.go"} {
		if err := os.WriteFile(path, options.GoArgs(pkg), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
