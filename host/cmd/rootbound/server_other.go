//go:build !linux

package main

import (
	"fmt"
	"io"
)

// The resident server (server_linux.go) checks each client's user by the
// socket's peer credentials, which it reads the Linux way; elsewhere every
// call runs in its own process.

func viaServer([]string, io.Writer, io.Writer) (int, bool) { return 0, false }

func serverCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rootbound server")
	clearCache := fs.Bool("clear-cache", false, "remove the command's caches (each root's index, the compiled module), and exit")
	if done, code := parse(fs, args, "usage: rootbound server --clear-cache\n", stdout, stderr); done {
		return code
	}
	if *clearCache {
		return clearCommand(stderr)
	}
	fmt.Fprintln(stderr, "rootbound server: the resident server runs on Linux only; the tools run in their own process here")
	return 2
}
