package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/mcpserver"
)

const mcpUsage = `usage: rootbound mcp --root DIR|NAME=DIR [--root ...] [--http 127.0.0.1:PORT]

Serves glob, grep, read, list and stat over the Model Context Protocol: on stdin and stdout by
default, or on streamable HTTP at --http (loopback only, unless the
environment variable ROOTBOUND_MCP_TOKEN holds a bearer token that every
request must then carry).
`

// mcpServe runs the MCP server.
func mcpServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("rootbound mcp")
	rf := addRootFlags(fs, "calls and results")
	addr := fs.String("http", "", "serve streamable HTTP at this `ADDRESS` (127.0.0.1:PORT) instead of stdio")
	origins := fs.StringArray("allow-origin", nil, "an `ORIGIN` allowed besides loopback ones (repeat it)")
	timeout := fs.Duration("timeout", 20*time.Second, "the longest a call may run")
	audit := fs.Bool("audit", false, "write one line per call to stderr")
	if done, code := parse(fs, args, mcpUsage, stdout, stderr); done {
		return code
	}
	cfg, err := rf.config(fs.NArg())
	if err != nil {
		fmt.Fprintln(stderr, "rootbound mcp:", err)
		return 2
	}
	token := os.Getenv("ROOTBOUND_MCP_TOKEN")
	if *addr != "" {
		h, _, err := net.SplitHostPort(*addr)
		if err != nil {
			fmt.Fprintln(stderr, "rootbound mcp: --http:", err)
			return 2
		}
		if !mcpserver.Loopback(h) && token == "" {
			fmt.Fprintf(stderr, "rootbound mcp: --http %s is not a loopback address: set ROOTBOUND_MCP_TOKEN to serve it\n", *addr)
			return 2
		}
	}
	opts := mcpserver.Options{Version: version()}
	if *audit {
		opts.Audit = func(a host.AuditRecord) { fmt.Fprintln(stderr, "rootbound: audit:", a) }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s, err := mcpserver.New(ctx, cfg.WithTimeout(*timeout), opts)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound mcp:", err)
		return 2
	}
	defer s.Close(context.Background())
	if *addr == "" {
		t := mcpserver.StdioTransport(stdin, stdout)
		if err := s.MCP().Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "rootbound mcp:", err)
			return 2
		}
		return 0
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "rootbound mcp:", err)
		return 2
	}
	fmt.Fprintf(stderr, "rootbound mcp: serving http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: s.HTTPHandler(mcpserver.HTTPOptions{Token: token, Origins: *origins}), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "rootbound mcp:", err)
		return 2
	}
	return 0
}

// rootFlags are the flags of serve and mcp that say what may be read.
type rootFlags struct {
	roots, deny    []string
	hideHidden     bool
	noIndex        bool
	noDefaultSkips bool
}

func addRootFlags(fs *flag.FlagSet, what string) *rootFlags {
	rf := &rootFlags{}
	fs.StringArrayVar(&rf.roots, "root", nil, "a readable root: `DIR`, named by its absolute path, or NAME=DIR, NAME as "+what+" name it (repeat it; the first is the default)")
	fs.StringArrayVar(&rf.deny, "deny", nil, "what `GLOB` matches is never listed or read in any root, in gitignore syntax (\"*.pem\", \"secrets/\"; repeat it)")
	fs.BoolVar(&rf.hideHidden, "hide-hidden", false, "leave hidden files and directories out of every call, whatever it asks")
	fs.BoolVar(&rf.noIndex, "no-index", false, "keep no index of the roots' contents (by default one is built in the background, from the one kept in the user's cache directory when there is one, and repeat greps read only the files that can match)")
	fs.BoolVar(&rf.noDefaultSkips, "no-default-skips", false, "do not leave out node_modules/, __pycache__/ and .venv/ where no ignore file names them (by default they are left out, and counted as ignored)")
	return rf
}

// config makes a Config of the flags (and wants no other argument).
func (rf *rootFlags) config(extra int) (host.Config, error) {
	if len(rf.roots) == 0 || extra > 0 {
		return nil, errors.New("want --root DIR or --root NAME=DIR (one or more) and nothing else")
	}
	cfg, err := withIndexCache(host.NewConfig().WithIndex(!rf.noIndex, 0).WithDefaultSkips(!rf.noDefaultSkips))
	if err != nil {
		return nil, err
	}
	for _, root := range rf.roots {
		name, dir, ok := strings.Cut(root, "=")
		if !ok {
			// A directory alone: its absolute path names it, so the paths
			// an agent sees on the host work as they are.
			abs, err := filepath.Abs(root)
			if err != nil {
				return nil, fmt.Errorf("--root %s: %v", root, err)
			}
			name, dir = abs, abs
		}
		cfg = cfg.WithRoot(name, dir)
		if len(rf.deny) > 0 || rf.hideHidden {
			cfg = cfg.WithRootPolicy(name, host.RootPolicy{Deny: rf.deny, HideHidden: rf.hideHidden})
		}
	}
	return cfg, nil
}
