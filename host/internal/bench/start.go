package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// startTable is issue 51's first start (-run start): the command with
// its caches empty (a fresh install: no compiled module, no index) and
// with them warm, on the tiny tree: how long an MCP client waits for its
// initialize to be answered, and for its first tool call, and how long
// `rootbound glob` takes to print its first line and to end (on a fresh
// install it ends once the module is compiled and cached), a process
// each, 3 rounds, medians.
func startTable(keep *regexp.Regexp, cli, tmp string, trees map[string]string) error {
	if !keep.MatchString("start") {
		return nil
	}
	fmt.Println("\nA first start (issue 51): the command on the tiny tree, caches empty (a new user cache directory each round) and warm; 3 rounds, median")
	fmt.Println()
	fmt.Println("| caches | MCP initialize answered | goal ≤ 200 ms | MCP first glob answered | rootbound glob: its first line | goal ≤ 500 ms | its process ends |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, empty := range []bool{true, false} {
		var inits, calls, globs, ends []time.Duration
		warm := filepath.Join(tmp, "start-warm")
		for round := range 3 {
			cache := warm
			if empty {
				cache = filepath.Join(tmp, fmt.Sprintf("start-empty-%d", round))
			} else if round == 0 {
				// Fill the warm caches once.
				if _, _, err := mcpFirst(cli, cache, trees["tiny"]); err != nil {
					return err
				}
			}
			in, call, err := mcpFirst(cli, cache, trees["tiny"])
			if err != nil {
				return err
			}
			inits, calls = append(inits, in), append(calls, call)
			if empty {
				cache += "-cli"
			}
			cmd := exec.Command(cli, "glob", "*", trees["tiny"])
			cmd.Env = startEnv(cache)
			out, err := cmd.StdoutPipe()
			if err != nil {
				return err
			}
			start := time.Now()
			if err := cmd.Start(); err != nil {
				return err
			}
			lines := bufio.NewReader(out)
			if _, err := lines.ReadString('\n'); err != nil {
				return fmt.Errorf("rootbound glob: %v", err)
			}
			globs = append(globs, time.Since(start))
			io.Copy(io.Discard, lines)
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("rootbound glob: %v", err)
			}
			ends = append(ends, time.Since(start))
		}
		caches := "warm"
		if empty {
			caches = "empty"
		}
		in, call, glob := mid(inits), mid(calls), mid(globs)
		fmt.Printf("| %s | %d ms | %s | %d ms | %d ms | %s | %d ms |\n", caches, in.Milliseconds(), verdict(in <= 200*time.Millisecond),
			call.Milliseconds(), glob.Milliseconds(), verdict(glob <= 500*time.Millisecond), mid(ends).Milliseconds())
	}
	return nil
}

// startEnv is the command's environment with cache as the user's cache
// directory (and home), and no resident server.
func startEnv(cache string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_CACHE_HOME=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CACHE_HOME="+cache, "HOME="+cache, "ROOTBOUND_SERVER=off")
}

// mcpFirst starts `rootbound mcp` on tree with cache as the user's cache
// directory, and returns how long after its start its answer to
// initialize came, and its answer to a first glob.
func mcpFirst(cli, cache, tree string) (initialize, call time.Duration, err error) {
	cmd := exec.Command(cli, "mcp", "--root", tree)
	cmd.Env = startEnv(cache)
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	lines := bufio.NewReader(out)
	answer := func(id string) error {
		for {
			l, err := lines.ReadString('\n')
			if err != nil {
				return fmt.Errorf("mcp: %v (%q)", err, l)
			}
			if strings.Contains(l, `"id":`+id+`,`) || strings.Contains(l, `"id":`+id+`}`) {
				return nil
			}
		}
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`+"\n")
	if err := answer("1"); err != nil {
		return 0, 0, err
	}
	initialize = time.Since(start)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"glob","arguments":{"pattern":"*"}}}`+"\n")
	if err := answer("2"); err != nil {
		return 0, 0, err
	}
	return initialize, time.Since(start), nil
}
