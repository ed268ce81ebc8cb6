//go:build unix

package host

// The hostile suite's rows for links inside a root: a link at every
// position of a call's path (first, in the middle, chained, ".." after a
// link, absolute, last) to every place a policy keeps out (.git always,
// a denied directory, a hidden one, one a read guard refuses), through
// every entry point (the library, Tools.Call, Serve, the rootbound command's
// grep, serve and mcp, the Node and wasmtime hosts). No answer may hold a
// byte of what policy keeps out, and each is refused with a typed error.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// linkTarget is a place a policy keeps out and the secret in it.
type linkTarget struct {
	policy string // ".git", "deny", "hidden", "guard"
	dir    string // the directory, below the root
	file   string // a file in it, below dir
	secret string
}

var linkTargets = []linkTarget{
	{".git", ".git", "config", "POLICY-GIT-9a1c"},
	{"deny", "secrets", "key.txt", "POLICY-DENY-3b7e"},
	{"hidden", ".hidden", "x.txt", "POLICY-HIDDEN-5d2f"},
	{"guard", "private", "notes.txt", "POLICY-GUARD-8c4a"},
}

// linkTree writes the tree: for each target, a link to it at the top
// (first), one in a real directory (middle), a link to that link (chained),
// and w -> <dir>/sub, so "w/../<file>" is the secret when links are
// followed and a missing file when ".." is cleaned as text.
func linkTree(t *testing.T) string {
	spec := map[string]string{
		"ok/fine.txt": "fine\n",
		// .git/info as a link: its exclude would leave every .txt out.
		".git/info":       "->../infodir",
		"infodir/exclude": "*.txt\n",
	}
	for _, tg := range linkTargets {
		n := strings.Trim(tg.dir, ".")
		spec[tg.dir+"/"+tg.file] = tg.secret + "\n"
		spec[tg.dir+"/sub/.keep"] = ""
		spec["first-"+n] = "->" + tg.dir
		spec["mid/to-"+n] = "->../" + tg.dir
		spec["chain-"+n] = "->first-" + n
		spec["w-"+n] = "->" + tg.dir + "/sub"
	}
	return testtree.New(t, spec)
}

// linkPaths are the spellings of a path into the target through links.
func linkPaths(tg linkTarget) []struct{ name, path string } {
	n := strings.Trim(tg.dir, ".")
	return []struct{ name, path string }{
		{"first", "first-" + n + "/" + tg.file},
		{"middle", "mid/to-" + n + "/" + tg.file},
		{"chained", "chain-" + n + "/" + tg.file},
		{".. after a link", "w-" + n + "/../" + tg.file},
		{"absolute", "/workspace/mid/to-" + n + "/" + tg.file},
		{"last (the link itself)", "first-" + n},
	}
}

// guardPrivate is the read guard of the rows: it refuses /workspace/private.
func guardPrivate(_ context.Context, _ string, reads []Read) error {
	for _, rd := range reads {
		if rd.Path == "private" || strings.HasPrefix(rd.Path, "private/") {
			return errors.New("private is off limits")
		}
	}
	return nil
}

var linkPolicy = RootPolicy{Deny: []string{"secrets/"}, HideHidden: true}

func TestHostileLinks(t *testing.T) {
	root := linkTree(t)
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", root).WithTimeout(timeout).
		WithRootPolicy("/workspace", linkPolicy).WithReadGuard(guardPrivate))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	tools := NewTools(r)
	bin, _ := buildCLI(t)
	mcp := startMCP(t, bin, root)
	wirePolicy := []protocol.RootPolicy{{Root: "/workspace", Deny: linkPolicy.Deny, HideHidden: true}}
	procs := processRuntimes(t)

	type entry struct {
		name string
		// run answers a grep of path; "" as the text means the entry point
		// cannot express the row (the note says why).
		run func(path string, tg linkTarget) (text, note string)
	}
	request := func(path string) []byte {
		line, _ := json.Marshal(protocol.Request{V: protocol.Version, ID: "1",
			Call:   protocol.Call{Grep: &protocol.GrepArgs{Pattern: "POLICY", Path: path, OutputMode: protocol.ModeContent}},
			Limits: &protocol.Limits{DeadlineMS: timeout.Milliseconds()}, Policy: wirePolicy})
		return append(line, '\n')
	}
	noGuard := func(tg linkTarget) string {
		if tg.policy == "guard" {
			return "n/a: a read guard is the library's (Serve and the protocol hosts pass lines through)"
		}
		return ""
	}
	entries := []entry{
		{"wazero library", func(path string, _ linkTarget) (string, string) {
			res, _ := r.Grep(ctx, GrepArgs{Pattern: "POLICY", Path: path, OutputMode: ModeContent})
			raw, _ := json.Marshal(res)
			return res.Text() + string(raw), ""
		}},
		{"Tools.Call", func(path string, _ linkTarget) (string, string) {
			args, _ := json.Marshal(map[string]any{"pattern": "POLICY", "path": path, "output_mode": "content"})
			text, res := tools.Call(ctx, "grep", args)
			raw, _ := json.Marshal(res)
			return text + string(raw), ""
		}},
		{"Serve", func(path string, tg linkTarget) (string, string) {
			if why := noGuard(tg); why != "" {
				return "", why
			}
			var out bytes.Buffer
			r.Serve(ctx, bytes.NewReader(request(path)), &out)
			return out.String(), ""
		}},
		{"wazero CLI", func(path string, tg linkTarget) (string, string) {
			if tg.policy != ".git" {
				return "", "n/a: the command's PATH is the root a person names, and it has no deny or hidden policy"
			}
			if strings.HasPrefix(path, "/") {
				return "", "n/a: an absolute PATH is a host path"
			}
			// The shell's spelling, not cleaned: the host resolves it.
			out, _ := exec.Command(bin, "grep", "-n", "POLICY", root+"/"+path).CombinedOutput()
			return string(out), ""
		}},
		{"rootbound mcp", func(path string, tg linkTarget) (string, string) {
			if why := noGuard(tg); why != "" {
				return "", why
			}
			return mcp.call(t, "grep", map[string]any{"pattern": "POLICY", "path": path, "output_mode": "content"}), ""
		}},
	}
	for _, rt := range procs {
		entries = append(entries, entry{rt, func(path string, tg linkTarget) (string, string) {
			if why := noGuard(tg); why != "" {
				return "", why
			}
			out, err := pipe(append(serveArgv(rt), "--root", "/workspace="+root), request(path))
			if err != nil {
				return string(out) + err.Error(), ""
			}
			return string(out), ""
		}})
	}

	for _, tg := range linkTargets {
		for _, p := range linkPaths(tg) {
			name := fmt.Sprintf("link %s, to %s (%s)", p.name, tg.dir, tg.policy)
			t.Run(name, func(t *testing.T) {
				badInputs.Add(1)
				for _, e := range entries {
					text, note := e.run(p.path, tg)
					if text == "" && note != "" {
						record(name, e.name, note, true)
						continue
					}
					ok, verdict := linkVerdict(text, p.name)
					if !ok {
						t.Errorf("%s: %s\n%.600s", e.name, verdict, text)
					}
					record(name, e.name, verdict, ok)
				}
			})
		}
	}

	// A walk of the whole root lists the links as skipped and reads none of
	// what policy keeps out; .git/info as a link is not read through (its
	// exclude would have left private/notes.txt out), and says so.
	t.Run("walk", func(t *testing.T) {
		res, _ := r.Grep(ctx, GrepArgs{Pattern: "POLICY", OutputMode: ModeContent})
		text := res.Text()
		for _, tg := range linkTargets[:3] {
			if strings.Contains(text, tg.secret) {
				t.Errorf("the walk read %s:\n%s", tg.dir, text)
			}
		}
		ok := res.Done.Skipped.Symlink == int64(4*len(linkTargets)) && res.Err() == nil &&
			strings.Contains(text, linkTargets[3].secret) && res.Done.Skipped.Ignored == 0 &&
			len(res.Problems) == 1 && strings.Contains(res.Problems[0].Message, "symbolic link")
		record("walk of a root full of links, .git/info a link", "wazero library",
			fmt.Sprintf("%d links skipped, nothing policy keeps out read, .git/info/exclude not read through a link", res.Done.Skipped.Symlink), ok)
		if !ok {
			t.Errorf("skipped %+v, problems %+v, err %v\n%s", res.Done.Skipped, res.Problems, res.Err(), text)
		}
	})
}

// linkVerdict says whether an answer to a path through links held: no
// secret, and a typed refusal (for ".. after a link", cleaned as text, a
// missing file).
func linkVerdict(text, position string) (bool, string) {
	for _, tg := range linkTargets {
		if strings.Contains(text, tg.secret) {
			return false, "read " + tg.dir + " through the link"
		}
	}
	want := protocol.CodeSymlink
	if position == ".. after a link" {
		want = protocol.CodeNotFound
	}
	// The command refuses a PATH through a link before any call, in its
	// own words (exit 2).
	for _, code := range []string{want, "is inside .git", "no link is followed, at any component of a PATH"} {
		if strings.Contains(text, code) {
			return true, "refused: " + code
		}
	}
	return false, "no " + want + " error"
}

// mcpProc is a `rootbound mcp` process spoken to over stdio.
type mcpProc struct {
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

// startMCP starts `rootbound mcp` on root with the rows' policy and
// initializes the session.
func startMCP(t *testing.T, bin, root string) *mcpProc {
	cmd := exec.Command(bin, "mcp", "--root", "/workspace="+root, "--deny", "secrets/", "--hide-hidden")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	m := &mcpProc{in: in, out: bufio.NewReader(out)}
	m.rpc(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "hostile", "version": "1"}})
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

// rpc sends a request and returns the raw line of its response.
func (m *mcpProc) rpc(t *testing.T, method string, params any) string {
	m.next++
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.next, "method": method, "params": params})
	if _, err := m.in.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`"id":%d`, m.next)
	deadline := time.Now().Add(2 * timeout)
	for time.Now().Before(deadline) {
		resp, err := m.out.ReadString('\n')
		if err != nil {
			t.Fatalf("rootbound mcp: %v", err)
		}
		if strings.Contains(resp, want) {
			return resp
		}
	}
	t.Fatal("rootbound mcp: no response")
	return ""
}

func (m *mcpProc) call(t *testing.T, tool string, args map[string]any) string {
	return m.rpc(t, "tools/call", map[string]any{"name": tool, "arguments": args})
}

// TestLinkRootRefused: a root that is, or is reached through a link into,
// .git is refused when the runner starts.
func TestLinkRootRefused(t *testing.T) {
	dir := testtree.New(t, map[string]string{".git/config": "x", "g": "->.git"})
	for _, d := range []string{filepath.Join(dir, ".git"), filepath.Join(dir, "g"), filepath.Join(dir, "g", "..", ".git")} {
		if _, err := NewRunner(context.Background(), NewConfig().WithRoot("/w", d)); err == nil || !strings.Contains(err.Error(), "inside .git") {
			t.Errorf("root %s: %v, want refused as inside .git", d, err)
		}
	}
}
