package host

// The conformance suite's independent expectation: each request that
// ripgrep can express runs on the same tree with rg, and the golden
// answer's results must be rg's. The goldens are written by the native
// runner, so without this the suite would prove only that the hosts agree.
//
// rg runs as `rg --no-config -uu -g '!.git'` (no ignore files, hidden files
// searched, .git never), in the search root itself so that globs are
// relative to it as ours are, with --max-filesize at our cap and --null so
// that any byte of a name survives. Files to list (glob) are `rg --files
// -g PATTERN`: rg's globs, like ours, match a name at any depth without a
// "/" and the path below the search root with one. Results are compared as
// sorted lists: content as path:N:text (path:N where we cut a long line to
// a snippet), count as path:N. A request rg cannot answer the same way is
// marked, with the reason: an error, a truncated or cut-short answer (rg
// has no bound on results, deadline or work), names that are not UTF-8
// (rg reads such files; no WASI host can).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/rootbound/rootbound/guest/protocol"
	"github.com/rootbound/rootbound/guest/server"
)

// oracleVerdict is what rg said of one request.
type oracleVerdict struct {
	id, na string // na: why rg cannot express it ("" when compared)
	diff   string // "" when rg agrees
}

// answer is one request's answer in a golden file.
type answer struct {
	items []protocol.Item
	done  *protocol.Done
}

// answers splits answer lines by request id.
func answers(golden []byte) map[string]*answer {
	out := map[string]*answer{}
	for _, l := range bytes.Split(golden, []byte("\n")) {
		var line protocol.Line
		if json.Unmarshal(l, &line) != nil {
			continue
		}
		a := out[line.ID]
		if a == nil {
			a = &answer{}
			out[line.ID] = a
		}
		switch {
		case line.Item != nil:
			a.items = append(a.items, *line.Item)
		case line.Done != nil:
			a.done = line.Done
		}
	}
	return out
}

// oracleCheck holds each request of a case to rg.
func oracleCheck(requests, golden []byte, roots []server.Root, notUTF8 bool) []oracleVerdict {
	got := answers(golden)
	var verdicts []oracleVerdict
	for _, l := range bytes.Split(requests, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var req protocol.Request
		if err := json.Unmarshal(l, &req); err != nil || (req.Glob == nil) == (req.Grep == nil) {
			verdicts = append(verdicts, oracleVerdict{id: req.ID, na: "not a request"})
			continue
		}
		v := oracleVerdict{id: req.ID}
		a := got[req.ID]
		switch {
		case a == nil || a.done == nil:
			v.na = "no answer"
		case a.done.Status != protocol.StatusComplete:
			v.na = "an error, or ended early"
		case a.done.Truncated:
			v.na = "truncated (rg has no bound on results)"
		case notUTF8 && req.Grep != nil:
			v.na = "names that are not UTF-8 (rg reads such files; no WASI host can)"
		}
		if v.na == "" {
			ours, theirs, err := oracleRun(req, a, roots)
			switch {
			case err != nil:
				v.diff = err.Error()
			case !slices.Equal(ours, theirs):
				v.diff = fmt.Sprintf("ours %q, rg %q", ours, theirs)
			}
		}
		verdicts = append(verdicts, v)
	}
	return verdicts
}

// oracleRun runs req with rg and returns both answers, normalised.
func oracleRun(req protocol.Request, a *answer, roots []server.Root) (ours, theirs []string, err error) {
	p := ""
	if req.Glob != nil {
		p = req.Glob.Path
	} else {
		p = req.Grep.Path
	}
	root, rel, rootPrefix := roots[0], p, ""
	if strings.HasPrefix(p, "/") {
		p = path.Clean(p)
		for _, r := range roots {
			if p == r.Name || strings.HasPrefix(p, r.Name+"/") {
				root, rel = r, strings.TrimPrefix(strings.TrimPrefix(p, r.Name), "/")
			}
		}
		if root.Name != roots[0].Name {
			rootPrefix = root.Name + "/"
		}
	}
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	dir, arg, display := root.Dir, "", rootPrefix
	if rel != "" {
		dir += "/" + rel
		display += rel + "/"
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode().IsRegular() {
		// A single file: search it from its directory.
		dir, arg = path.Dir(dir), path.Base(rel)
		display = rootPrefix
		if d := path.Dir(rel); d != "." {
			display += d + "/"
		}
	}
	args := []string{"--no-config", "-uu", "--null"}
	mode := ""
	if req.Glob != nil {
		args = append(args, "--files", "-g", req.Glob.Pattern, "-g", "!.git")
	} else {
		g := req.Grep
		mode = g.OutputMode
		if mode == "" {
			mode = protocol.ModeFiles
		}
		size := int64(protocol.DefaultMaxFileSize)
		if req.Limits != nil && req.Limits.MaxFileSize > 0 {
			size = req.Limits.MaxFileSize
		}
		args = append(args, "-H", "--max-filesize", strconv.FormatInt(size, 10))
		for _, glob := range g.Glob {
			args = append(args, "-g", glob)
		}
		args = append(args, "-g", "!.git")
		switch g.Case {
		case protocol.CaseInsensitive:
			args = append(args, "-i")
		case protocol.CaseSmart:
			args = append(args, "-S")
		default:
			args = append(args, "-s")
		}
		if g.Literal {
			args = append(args, "-F")
		}
		switch mode {
		case protocol.ModeFiles:
			args = append(args, "-l")
		case protocol.ModeCount:
			args = append(args, "-c")
		case protocol.ModeContent:
			args = append(args, "-n")
		}
		args = append(args, "-e", g.Pattern)
	}
	if arg != "" {
		args = append(args, "--", arg)
	}
	// An entry is a path and, for content and count, what follows it.
	type entry struct{ path, rest string }
	var mine, rgs []entry
	snippets := false
	for _, it := range a.items {
		e := entry{path: string(it.Path)}
		switch {
		case it.Text != nil:
			snippets = snippets || strings.Contains(string(*it.Text), "…")
			e.rest = strconv.Itoa(it.LineNumber) + ":" + string(*it.Text)
		case it.Count > 0:
			e.rest = strconv.Itoa(it.Count)
		}
		mine = append(mine, e)
	}
	cmd := exec.Command("rg", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() == 2 && len(out) == 0) {
		return nil, nil, fmt.Errorf("rg %q: %v", args, err)
	}
	// rg writes: path NUL, then for content "N:text\n", for count "N\n".
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			return nil, nil, fmt.Errorf("rg output without a NUL: %q", out)
		}
		e := entry{path: display + string(out[:i])}
		out = out[i+1:]
		if mode == protocol.ModeContent || mode == protocol.ModeCount {
			j := bytes.IndexByte(out, '\n')
			if j < 0 {
				j = len(out)
			}
			e.rest = string(out[:j])
			out = out[min(j+1, len(out)):]
		}
		rgs = append(rgs, e)
	}
	flat := func(es []entry) []string {
		var s []string
		for _, e := range es {
			x := e.path
			if e.rest != "" {
				rest := e.rest
				if snippets {
					// We cut long lines to a window around the match:
					// compare where the lines are, not what they say.
					rest, _, _ = strings.Cut(rest, ":")
				}
				x += "\x00" + rest
			}
			s = append(s, x)
		}
		slices.Sort(s)
		return s
	}
	return flat(mine), flat(rgs), nil
}
