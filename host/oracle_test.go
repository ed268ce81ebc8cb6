package host

// The conformance suite's independent expectation: each request that
// ripgrep can express runs on the same tree with rg, and the golden
// answer's results must be rg's. The goldens are written by the native
// runner, so without this the suite would prove only that the hosts agree.
//
// rg runs as `rg --no-config --hidden --no-require-git --no-ignore-global
// -g '!.git'` (ignore files as ours, whether or not in a repository; hidden
// files searched; .git never), with --no-ignore, --max-depth, -t, -T and
// the globs the request has, in the search root itself so that globs are
// relative to it as ours are (rg reads the ignore files of the directories
// above it, as we do), with --max-filesize at our cap and --null so that
// any byte of a name survives. Files to list (glob) are `rg --files
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
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rootbound/rootbound/internal/server"
	"github.com/rootbound/rootbound/protocol"
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

// eachRequest runs check on each request of a case with its golden
// answer. What no oracle can compare is marked before check runs: a line
// that is not a request, an answer that is missing, an error, truncated (no
// oracle bounds its results), or under a root's policy.
func eachRequest(requests, golden []byte, check func(req protocol.Request, a *answer) (na, diff string)) []oracleVerdict {
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
		switch a := got[req.ID]; {
		case a == nil || a.done == nil:
			v.na = "no answer"
		case a.done.Status != protocol.StatusComplete:
			v.na = "an error, or ended early"
		case a.done.Truncated:
			v.na = "truncated (no oracle bounds its results)"
		case len(req.Policy) > 0:
			v.na = "a root's policy (no oracle has a deny list, a hidden policy or rules from a host)"
		case req.Glob != nil && req.Glob.Offset > 0 || req.Grep != nil && req.Grep.Offset > 0:
			v.na = "an offset (no oracle pages)"
		case req.Grep != nil && req.Grep.MaxColumnsPreview:
			v.na = "max_columns_preview (a printer's: TestFlagsAgreeWithRipgrep holds the command to rg)"
		case req.Grep != nil && req.Grep.ExcludePattern != "":
			v.na = "exclude_pattern (rg has no flag for it)"
		default:
			v.na, v.diff = check(req, a)
		}
		verdicts = append(verdicts, v)
	}
	return verdicts
}

// grepOptionArgs are rg's flags for a grep request's options. Multiline
// is rg's -U with --multiline-dotall: our "." matches a line break there.
func grepOptionArgs(g *protocol.GrepArgs) []string {
	var args []string
	for _, f := range []struct {
		flag string
		n    int
	}{{"-C", g.Context}, {"-B", g.BeforeContext}, {"-A", g.AfterContext}, {"-m", g.MaxCount}, {"-M", g.MaxColumns}} {
		if f.n > 0 {
			args = append(args, f.flag, strconv.Itoa(f.n))
		}
	}
	for _, f := range []struct {
		flag []string
		on   bool
	}{{[]string{"-U", "--multiline-dotall"}, g.Multiline}, {[]string{"-w"}, g.Word}, {[]string{"-v"}, g.Invert},
		{[]string{"-o"}, g.OnlyMatching}, {[]string{"--crlf"}, g.CRLF}} {
		if f.on {
			args = append(args, f.flag...)
		}
	}
	return args
}

// oracleCheck holds each request of a case to rg.
func oracleCheck(requests, golden []byte, roots []server.Root) []oracleVerdict {
	return eachRequest(requests, golden, func(req protocol.Request, a *answer) (string, string) {
		switch {
		case req.Glob != nil && (req.Glob.IncludeDirs || len(req.Glob.EntryType) > 0):
			return "directories or links in the results (rg --files lists files)", ""
		case req.Glob != nil && req.Glob.ChangedWithin > 0:
			return "changed_within (rg has no such filter)", ""
		case req.Grep != nil && a.done != nil && a.done.Skipped.Binary > 0 && !req.Grep.Text:
			return "a binary file (rg prints the matches before a NUL found past the first bytes, and stops there; we leave the file out)", ""
		case asShown(req):
			return "a pattern written as results show paths (rg's globs are relative to the search path)", ""
		case req.Grep != nil && req.Grep.Context > 0 && req.Grep.BeforeContext+req.Grep.AfterContext > 0:
			return "context with before or after context (rg 13 then drops -C; rg 14, as we do, keeps it for the other side)", ""
		case req.Grep != nil && req.Grep.MaxCount > 0 && req.Grep.Context+req.Grep.AfterContext > 0:
			return "max_count with after context (rg 13 prints a matching line past the count as a match; it is context)", ""
		}
		ours, theirs, err := oracleRun(req, a, roots)
		switch {
		case err != nil:
			return "", err.Error()
		case !slices.Equal(ours, theirs):
			return "", fmt.Sprintf("ours %q, rg %q", ours, theirs)
		}
		return "", ""
	})
}

// asShown reports whether a request writes a glob as results show paths:
// "./x", under the root's name, with a trailing "/", or starting with the
// search path.
func asShown(req protocol.Request) bool {
	var globs []string
	p := ""
	if req.Glob != nil {
		globs, p = append([]string{req.Glob.Pattern}, req.Glob.Exclude...), req.Glob.Path
	} else {
		globs, p = req.Grep.Glob, req.Grep.Path
	}
	for _, g := range globs {
		g = strings.TrimPrefix(g, "!")
		if strings.HasPrefix(g, "./") || strings.HasPrefix(g, "/workspace") || strings.HasSuffix(g, "/") ||
			p != "" && strings.HasPrefix(g, strings.Trim(p, "/")+"/") {
			return true
		}
	}
	return false
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
	args := []string{"--no-config", "--no-require-git", "--no-ignore-global", "--null"}
	var types, typesNot []string
	var hidden *bool
	if req.Glob != nil {
		g := req.Glob
		types, typesNot, hidden = g.Type, g.TypeNot, g.Hidden
		if g.NoIgnore {
			args = append(args, "--no-ignore")
		}
		if g.MaxDepth > 0 {
			args = append(args, "--max-depth", strconv.Itoa(g.MaxDepth))
		}
		if g.CaseInsensitive {
			args = append(args, "--glob-case-insensitive")
		}
	} else {
		g := req.Grep
		types, typesNot, hidden = g.Type, g.TypeNot, g.Hidden
		if g.NoIgnore {
			args = append(args, "--no-ignore")
		}
		if g.MaxDepth > 0 {
			args = append(args, "--max-depth", strconv.Itoa(g.MaxDepth))
		}
	}
	if hidden == nil || *hidden {
		args = append(args, "--hidden")
	}
	for _, t := range types {
		args = append(args, "-t", t)
	}
	for _, t := range typesNot {
		args = append(args, "-T", t)
	}
	var mode protocol.OutputMode
	// patternArgs, for glob: rg's -g takes a file in over ignore files, so
	// the files a glob lists are those rg lists with ignore files and no
	// -g, that it also lists with -g PATTERN and no ignore files.
	var patternArgs, filterArgs []string
	if req.Glob != nil {
		args = append(args, "--files", "-g", "!.git")
		for _, e := range req.Glob.Exclude {
			args = append(args, "-g", "!"+strings.TrimPrefix(e, "!"))
		}
		patternArgs = []string{"--no-config", "--no-ignore", "--hidden", "--null", "--files", "-g", req.Glob.Pattern, "-g", "!.git"}
		if req.Glob.CaseInsensitive {
			patternArgs = append(patternArgs, "--glob-case-insensitive")
		}
		if len(req.Glob.Glob) > 0 {
			// The glob filter, as -g without ignore files: a file is listed
			// when the pattern and the filter both take it.
			filterArgs = []string{"--no-config", "--no-ignore", "--hidden", "--null", "--files"}
			for _, g := range req.Glob.Glob {
				filterArgs = append(filterArgs, "-g", g)
			}
		}
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
		for _, glob := range g.Iglob {
			args = append(args, "--iglob", glob)
		}
		args = append(args, "-g", "!.git")
		if g.Text {
			args = append(args, "-a")
		}
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
		case protocol.ModeCountMatches:
			args = append(args, "--count-matches")
		case protocol.ModeContent:
			args = append(args, "-n")
		}
		args = append(args, grepOptionArgs(g)...)
		for _, p := range append([]string{g.Pattern}, g.Patterns...) {
			args = append(args, "-e", p)
		}
	}
	// An entry is a path and, for content and count, what follows it.
	type entry struct{ path, rest string }
	var mine, rgs []entry
	snippets := false
	for _, it := range a.items {
		e := entry{path: string(it.Path)}
		switch {
		case it.LineNumber > 0:
			// No text: a line over max_columns, as rg -M prints it.
			sep, text := ":", "[Omitted long matching line]"
			if it.Context {
				sep, text = "-", "[Omitted long context line]"
			}
			if it.Text != nil {
				text = string(*it.Text)
				snippets = snippets || strings.Contains(text, "…")
			}
			e.rest = strconv.Itoa(it.LineNumber) + sep + text
		case it.Count > 0:
			e.rest = strconv.Itoa(it.Count)
		}
		mine = append(mine, e)
	}
	runRg := func(args []string) ([]entry, error) {
		if arg != "" {
			args = append(args, "--", arg)
		}
		cmd := exec.Command("rg", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() == 2 && len(out) == 0 && !strings.Contains(string(ee.Stderr), "No files were searched")) {
			return nil, fmt.Errorf("rg %q: %v", args, err)
		}
		// rg writes: path NUL, then for content "N:text\n", for count "N\n".
		var es []entry
		for len(out) > 0 {
			if rest, ok := bytes.CutPrefix(out, []byte("--\n")); ok {
				out = rest // a break between context groups: order is not compared here
				continue
			}
			i := bytes.IndexByte(out, 0)
			if i < 0 {
				return nil, fmt.Errorf("rg output without a NUL: %q", out)
			}
			e := entry{path: display + string(out[:i])}
			out = out[i+1:]
			if mode != "" && mode != protocol.ModeFiles {
				j := bytes.IndexByte(out, '\n')
				if j < 0 {
					j = len(out)
				}
				// rg prints a line's final '\r'; we never show it.
				e.rest = strings.TrimSuffix(string(out[:j]), "\r")
				out = out[min(j+1, len(out)):]
			}
			es = append(es, e)
		}
		return es, nil
	}
	if rgs, err = runRg(args); err != nil {
		return nil, nil, err
	}
	for _, more := range [][]string{patternArgs, filterArgs} {
		if more == nil {
			continue
		}
		matching, err := runRg(more)
		if err != nil {
			return nil, nil, err
		}
		rgs = slices.DeleteFunc(rgs, func(e entry) bool { return !slices.Contains(matching, e) })
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
					rest = rest[:strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })]
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

// fdCheck holds each glob request of a case to fd, where fd can say the
// same: `fdfind --hidden --glob -s PATTERN --type f -E .git`, with -I,
// --max-depth, -E, -i and --type d as the request asks, run in the search
// root. fd lists what glob lists for a pattern without "/" (fd matches
// those against base names, as we do); it reads .gitignore only in a git
// repository (fd 8.6 has no --no-require-git) and never reads .rgignore,
// and it has no file types.
func fdCheck(requests, golden []byte, roots []server.Root) []oracleVerdict {
	return eachRequest(requests, golden, func(req protocol.Request, a *answer) (string, string) {
		g := req.Glob
		switch {
		case g == nil:
			return "grep (fd does not search contents)", ""
		case strings.Contains(g.Pattern, "/") || len(g.Type)+len(g.TypeNot) > 0:
			return "a path pattern or file types (fd has neither)", ""
		case len(g.Glob) > 0:
			return "a glob filter (fd has none but -e)", ""
		case strings.HasPrefix(g.Path, "/") && !strings.HasPrefix(g.Path, roots[0].Name):
			return "another root", ""
		}
		dir, rel := roots[0].Dir, strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(g.Path, roots[0].Name)), "/")
		if rel != "" {
			dir += "/" + rel
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return "a single file", ""
		} else if why := fdBlind(roots[0].Dir); why != "" && !g.NoIgnore {
			return why, ""
		}
		args := []string{"--hidden", "--glob", "-E", ".git", "--color", "never", "-0"}
		if g.Hidden != nil && !*g.Hidden {
			args[0] = "--no-hidden"
		}
		kinds := map[string]string{"file": "f", "directory": "d", "symlink": "l"}
		if len(g.EntryType) == 0 {
			args = append(args, "--type", "f")
		}
		for _, k := range g.EntryType {
			args = append(args, "--type", kinds[k])
		}
		if g.IncludeDirs {
			args = append(args, "--type", "d")
		}
		if g.ChangedWithin > 0 {
			args = append(args, "--changed-within", strconv.Itoa(g.ChangedWithin)+"s")
		}
		if g.NoIgnore {
			args = append(args, "--no-ignore")
		}
		if g.MaxDepth > 0 {
			args = append(args, "--max-depth", strconv.Itoa(g.MaxDepth))
		}
		for _, e := range g.Exclude {
			args = append(args, "-E", strings.TrimPrefix(e, "!"))
		}
		if g.CaseInsensitive {
			args = append(args, "-i")
		} else {
			args = append(args, "-s")
		}
		args = append(args, "--", g.Pattern)
		cmd := exec.Command("fdfind", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir) // no global ignore file
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Sprintf("fd %q: %v", args, err)
		}
		prefix := ""
		if rel != "" {
			prefix = rel + "/"
		}
		var theirs, ours []string
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				theirs = append(theirs, prefix+strings.TrimPrefix(p, "./"))
			}
		}
		for _, it := range a.items {
			ours = append(ours, string(it.Path))
		}
		slices.Sort(theirs)
		slices.Sort(ours)
		if !slices.Equal(ours, theirs) {
			return "", fmt.Sprintf("ours %q, fd %q", ours, theirs)
		}
		return "", ""
	})
}

// fdBlind says why fd would not see a tree's ignore files as we do: a
// .gitignore outside a git repository, or a .rgignore.
func fdBlind(root string) string {
	_, err := os.Lstat(root + "/.git")
	repo := err == nil
	why := ""
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Name() == ".rgignore":
			why = "a .rgignore (fd does not read it)"
		case d.Name() == ".gitignore" && !repo:
			why = "a .gitignore outside a repository (fd 8.6 has no --no-require-git)"
		}
		return nil
	})
	return why
}
