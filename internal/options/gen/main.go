// Command gen writes what comes from the table of options: the arguments of
// package protocol (package host's are aliases of them) and its Call, the
// module's dispatch of tools, the Node host's flag table and argument types,
// and the option lists of README.md and PROTOCOL.md (go generate
// ./internal/options).
package main

import (
	"log"
	"os"

	"github.com/rootbound/rootbound/internal/options"
)

func main() {
	const nodePath = "../../examples/node/flags.json"
	for _, doc := range []string{"../../README.md", "../../PROTOCOL.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			log.Fatal(err)
		}
		if text, err = options.ReplaceMarkdown(text); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(doc, text, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.WriteFile(nodePath, options.NodeFlags(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("../../examples/node/args.d.ts", options.TSArgs(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("../../protocol/args.go", options.GoArgs("protocol"), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("../../internal/server/dispatch.go", options.GoDispatch(), 0o644); err != nil {
		log.Fatal(err)
	}
}
