package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/rootbound/rootbound/host"
)

// serve answers protocol requests on stdin, through the wazero host.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("rootbound serve")
	rf := addRootFlags(fs, "requests and results")
	timeout := fs.Duration("timeout", 20*time.Second, "the longest a request may run (a request's own deadline_ms may be shorter)")
	instances := fs.Int("instances", 1, "`N` requests answered at once (they are answered in order)")
	threads := fs.IntP("threads", "j", 0, "split a grep across `N` instances, one core each (default: the CPUs)")
	if done, code := parse(fs, args, "usage: rootbound serve --root DIR|NAME=DIR [--root ...] < requests.jsonl\n", stdout, stderr); done {
		return code
	}
	cfg, err := rf.config(fs.NArg())
	if err != nil {
		fmt.Fprintln(stderr, "rootbound serve:", err)
		return 2
	}
	cfg = cfg.WithTimeout(*timeout).WithInstances(*instances).WithParallelism(*threads)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r, err := host.NewRunner(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	defer r.Close(context.Background())
	for _, w := range r.Warnings() {
		fmt.Fprintln(stderr, "rootbound: warning:", w)
	}
	if err := r.Serve(ctx, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "rootbound:", err)
		return 2
	}
	return 0
}
