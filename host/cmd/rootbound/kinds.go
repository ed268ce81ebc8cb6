package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/protocol"
)

// A kind is what glob's and grep's subcommands do differently: searchIn
// is what they share, and asks its kind for the rest.
type kind interface {
	// like names the tool the subcommand reads as (fd, rg), and usage its
	// forms.
	like() string
	usage() string
	// pattern reads the pattern from the arguments after the flags, and
	// returns the PATHs; stdin: "-", or no PATH with a piped stdin, is
	// standard input. ok is false when there is no pattern.
	pattern(c *commandFlags, args []string) (pattern string, paths []string, stdin, ok bool)
	// call makes the call from the flags' arguments (JSON) and the
	// command's own, and returns the kind that runs it (grep --files is a
	// glob's).
	call(c *commandFlags, raw []byte) (kind, error)
	maxResults() int
	noIgnore() bool
	// streams says whether standard input is searched a piece at a time.
	streams(c *commandFlags) bool
	// style is how results print, on a terminal or not (tty), when the one
	// PATH is a file (single), where the environment allows colours.
	style(c *commandFlags, tty, single, colors bool) printer.Style
	// prefix is what results' paths are printed after for PATH p.
	prefix(c *commandFlags, p target) string
	// run runs the call on p, each item to out.
	run(ctx context.Context, r *host.Runner, c *commandFlags, p target, out *output) (*host.Result, error)
	// request is the call on file as the protocol carries it (--json).
	request(req *protocol.Request, file string)
	// none says, when nothing was found, what may explain it.
	none(stderr io.Writer)
}

// kinds make the kind of each searching subcommand.
var kinds = map[string]func() kind{
	"glob": func() kind { return &globKind{} },
	"grep": func() kind { return &grepKind{} },
}

// globKind is glob's: fd's shape.
type globKind struct {
	a host.GlobArgs
	// files: the call is grep --files's, whose pattern is no user's.
	files bool
}

func (*globKind) like() string { return "fd" }
func (*globKind) usage() string {
	return "PATTERN [PATH ...]\n       rootbound glob -e EXT [flags] [PATTERN [PATH ...]]"
}

func (*globKind) pattern(_ *commandFlags, args []string) (string, []string, bool, bool) {
	if len(args) == 0 {
		return "*", nil, false, true // as fd with no pattern, or with -e alone: every name
	}
	return args[0], args[1:], false, true
}

func (k *globKind) call(c *commandFlags, raw []byte) (kind, error) {
	if err := json.Unmarshal(raw, &k.a); err != nil {
		return nil, err
	}
	c.globArgs(&k.a)
	return k, nil
}

func (k *globKind) maxResults() int            { return k.a.MaxResults }
func (k *globKind) noIgnore() bool             { return k.a.NoIgnore }
func (k *globKind) streams(*commandFlags) bool { return false }

func (k *globKind) style(c *commandFlags, tty, _, _ bool) printer.Style {
	return printer.Style{Filename: true, Null: c.null, Names: names(tty, c.null)}
}

func (k *globKind) prefix(c *commandFlags, p target) string {
	switch {
	case c.absolute:
		return p.absolute
	case c.null && p.prefix == "" && !c.stripCWD:
		return "./" // as fd -0 prints the current directory's entries
	}
	return p.prefix
}

func (k *globKind) run(ctx context.Context, r *host.Runner, c *commandFlags, p target, out *output) (*host.Result, error) {
	k.a.Path = p.file
	each := out.item
	if c.entries.stats() || c.entries.minDepth > 0 {
		var fsys *rootfs.FS
		if c.entries.stats() {
			dir, err := rootfs.FromFile(p.dir)
			if err != nil {
				return nil, err
			}
			defer dir.Close()
			fsys = rootfs.New(dir, nil)
			defer fsys.Close()
		}
		each = c.entries.wrap(fsys, out.item)
	}
	return r.GlobEach(ctx, k.a, each)
}

func (k *globKind) request(req *protocol.Request, file string) {
	a := k.a
	a.Path, req.Glob = file, &a
}

func (k *globKind) none(stderr io.Writer) {
	if k.files || k.a.Pattern == "" {
		return
	}
	// fd takes a regular expression that may match a part of a name; a
	// glob without a wildcard is a whole name.
	switch g, isRegex, ok := regexGlob(k.a.Pattern); {
	case ok:
		fmt.Fprintf(stderr, "rootbound glob: %s reads as a regular expression (fd's pattern), and is taken as a glob: %s finds what fd would find with it\n",
			escape.Path(k.a.Pattern), escape.Path(g))
	case isRegex:
		fmt.Fprintf(stderr, "rootbound glob: %s reads as a regular expression (fd's pattern), and is taken as a glob (* ? [a-z] {a,b} **), which cannot say all of it\n",
			escape.Path(k.a.Pattern))
	case !strings.ContainsAny(k.a.Pattern, "*?[{\\/"):
		fmt.Fprintf(stderr, "rootbound glob: %s is a glob, and matches whole names only (fd's pattern is a regex that matches a part): %s finds the names that hold it\n",
			escape.Path(k.a.Pattern), escape.Path("*"+k.a.Pattern+"*"))
	}
}

// grepKind is grep's: rg's shape.
type grepKind struct {
	a       host.GrepArgs
	rewrite func(host.Item) host.Item // -r
}

func (*grepKind) like() string { return "rg" }
func (*grepKind) usage() string {
	return "PATTERN [PATH ...]\n       rootbound grep [flags] -e PATTERN ... [PATH ...]\n       rootbound grep --files [flags] [PATH ...]"
}

func (*grepKind) pattern(c *commandFlags, args []string) (string, []string, bool, bool) {
	switch {
	case c.files:
		return "x", args, false, true // none: the PATHs follow
	case len(c.regexps) > 0:
		return c.regexps[0], args, true, true // as rg: with -e, the arguments are PATHs
	case len(args) > 0:
		return args[0], args[1:], true, true
	}
	return "", nil, false, false
}

func (k *grepKind) call(c *commandFlags, raw []byte) (kind, error) {
	if err := json.Unmarshal(raw, &k.a); err != nil {
		return nil, err
	}
	c.grepArgs(&k.a)
	if c.files {
		// rg --files: what grep would search, listed, as a glob of every
		// file through grep's filters.
		a := k.a
		return &globKind{files: true, a: host.GlobArgs{Pattern: "*", Glob: append(a.Glob, anyCaseAll(a.Iglob)...), Type: a.Type, TypeNot: a.TypeNot,
			Sort: a.Sort, MaxDepth: a.MaxDepth, NoIgnore: a.NoIgnore, Hidden: a.Hidden, MaxResults: a.MaxResults, Offset: a.Offset}}, nil
	}
	if c.replaced {
		var err error
		if k.rewrite, err = replacer(k.a, c.replace); err != nil {
			return nil, err
		}
	}
	if (c.column || c.vimgrep) && k.a.OnlyMatching {
		return nil, errors.New("--column and --vimgrep do not go with -o here: a match alone carries no column")
	}
	return k, nil
}

func (k *grepKind) maxResults() int { return k.a.MaxResults }
func (k *grepKind) noIgnore() bool  { return k.a.NoIgnore }

// streams: stdin is searched a piece at a time but for a multiline
// pattern (which may span pieces) and --json (whose lines the module
// writes).
func (k *grepKind) streams(c *commandFlags) bool { return !k.a.Multiline && !c.json }

func (k *grepKind) style(c *commandFlags, tty, single, colors bool) printer.Style {
	s := printer.Style{
		Filename: c.filename.or(!single),
		Heading:  c.heads.or(tty) && !c.vimgrep,
		Column:   c.column, Vimgrep: c.vimgrep,
		LineNumbers: c.lineNumbers.or(tty) || c.column || c.vimgrep,
		// As rg: --color auto colours a terminal (and -p any output)
		// whose environment allows it (TERM, NO_COLOR).
		Color: c.color == "always" || c.color == "auto" && (tty || c.pretty) && colors,
		Null:  c.null,
		Trim:  c.trim,
		Grep:  &k.a,
		Names: names(tty, c.null),
	}
	if c.vimgrep {
		s.Filename, s.Color = true, false // as rg prints it
	}
	return s
}

func (k *grepKind) prefix(_ *commandFlags, p target) string { return p.prefix }

func (k *grepKind) run(ctx context.Context, r *host.Runner, c *commandFlags, p target, out *output) (*host.Result, error) {
	k.a.Path = p.file
	out.rewrite = k.rewrite
	if p.stream != nil {
		return grepStream(ctx, r, p, k.a, c.maxSize, out), nil
	}
	res, err := r.GrepEach(ctx, k.a, out.item)
	if p.file != "" && !k.a.Text && res.Done.Results == 0 && res.Done.Skipped.Binary > 0 {
		res = namedBinary(ctx, r, k.a, out)
	}
	return res, err
}

func (k *grepKind) request(req *protocol.Request, file string) {
	a := k.a
	a.Path, req.Grep = file, &a
}

func (*grepKind) none(io.Writer) {}
