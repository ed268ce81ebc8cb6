package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootbound/rootbound/host"
)

// A Go agent configures its readable roots once, then calls glob and grep
// and hands Result.Text() to its model.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n\nfunc main() {} // TODO: args\n"), 0o644)

	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		panic(err)
	}
	defer r.Close(ctx)

	res, _ := r.Glob(ctx, host.GlobArgs{Pattern: "*.go"})
	fmt.Print(res.Text())
	res, _ = r.Grep(ctx, host.GrepArgs{Pattern: `TODO:?\s`, OutputMode: "content"})
	fmt.Print(res.Text())
	res, err = r.Grep(ctx, host.GrepArgs{Pattern: "x", Path: "../etc"})
	fmt.Print(res.Text())
	fmt.Println(err.(*host.Error).Code)
	// Output:
	// 1 file matching "*.go" in "/workspace":
	// src/main.go
	// 1 matching line for "TODO:?\s" in "/workspace":
	// src/main.go:3:func main() {} // TODO: args
	// [Error (outside_root): path "../etc" is outside the readable roots (/workspace)]
	// outside_root
}

// After glob and grep, an agent reads what it found: Read numbers the lines
// as cat -n does and says where to read on; List shows a directory's
// entries with their sizes.
func ExampleRunner_Read() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\nimport \"os\"\nfunc main() { os.Exit(0) }\n"), 0o644)

	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir))
	if err != nil {
		panic(err)
	}
	defer r.Close(ctx)

	res, _ := r.Read(ctx, host.ReadArgs{Path: "src/main.go", Offset: 2, Limit: 1})
	fmt.Print(res.Text())
	res, _ = r.List(ctx, host.ListArgs{Depth: 2})
	fmt.Print(res.Text())
	_, err = r.Read(ctx, host.ReadArgs{Path: "src"})
	fmt.Println(err.(*host.Error).Code)
	// Output:
	// Line 2 of "src/main.go" (3 lines):
	//      2	import "os"
	// [Truncated: the file has 3 lines; this answer ends at line 2: pass offset: 3 to read on.]
	// 2 entries in "/workspace":
	// src/
	// src/main.go (52 bytes)
	// not_a_file
}

// A permission layer sees what a call will read before it runs: Prepare
// validates the call once and resolves its reads, the layer inspects them,
// and Run runs exactly what was prepared. The read guard is consulted
// before every call, however it is made; a denial is a typed error, never
// an empty result. The audit gets one record of each call.
func ExampleRunner_PrepareGrep() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.MkdirAll(filepath.Join(dir, "secrets"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main // TODO\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secrets", "key.txt"), []byte("TODO rotate\n"), 0o644)

	// The guard denies any call that would read secrets/, or all of a root
	// (which holds it).
	guard := func(_ context.Context, tool string, reads []host.Read) error {
		for _, rd := range reads {
			if rd.Path == "" || rd.Path == "secrets" || strings.HasPrefix(rd.Path, "secrets/") {
				return fmt.Errorf("%s may not read %s", tool, rd)
			}
		}
		return nil
	}
	audit := func(a host.AuditRecord) {
		fmt.Println("audit:", a.Tool, a.Pattern, a.Path, a.Status, a.Code, a.Results)
	}
	ctx := context.Background()
	r, err := host.NewRunner(ctx, host.NewConfig().WithRoot("/workspace", dir).WithReadGuard(guard).WithAudit(audit))
	if err != nil {
		panic(err)
	}
	defer r.Close(ctx)

	p, err := r.PrepareGrep(host.GrepArgs{Pattern: "TODO", Path: "src", OutputMode: host.ModeContent})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Tool(), "reads", p.Reads()[0]) // what a permission prompt shows
	res, _ := p.Run(ctx)
	fmt.Print(res.Text())

	_, err = r.Grep(ctx, host.GrepArgs{Pattern: "TODO", Path: "secrets"})
	fmt.Println(err.(*host.Error).Code)
	fmt.Println(err)

	_, err = r.PrepareGrep(host.GrepArgs{Pattern: "a("})
	fmt.Println(err.(*host.Error).Code)
	// Output:
	// grep reads /workspace/src
	// audit: grep TODO src complete  1
	// 1 matching line for "TODO" in "src":
	// src/main.go:1:package main // TODO
	// audit: grep TODO secrets failed denied 0
	// denied
	// denied: reading /workspace/secrets was denied: grep may not read /workspace/secrets (the readable roots: /workspace)
	// invalid_pattern
}
