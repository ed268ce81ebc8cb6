package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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
	// 1 matching line for "TODO:?\\s" in "/workspace":
	// src/main.go:3:func main() {} // TODO: args
	// [Error (outside_root): path "../etc" is outside the readable roots (/workspace)]
	// outside_root
}
