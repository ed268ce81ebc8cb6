package server

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/rootbound/rootbound/internal/ignore"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// which decides which entries of a walk a call looks at (see skip for the
// order of the rules). What the root's policy, ignore files and hidden
// files leave out is counted, so an answer always says what it did not
// look at and why; what the call's own filters (globs, types, depth) leave
// out is what it asked for.
type which struct {
	c         *call
	sc        scope
	hidden    bool // hidden entries are looked at
	rootHides bool // the root hides them, whatever a call asks
	deny      *ignore.Rules
	ign       *ignore.Matcher // nil: no_ignore
	types     *ignore.Types
	filter    *match.Filter // nil: none
	// takes: the filter's inclusions take files over ignore files.
	takes    bool
	maxDepth int
	reader   *search.Reader
}

// pick are the arguments glob and grep share that pick files.
type pick struct {
	types, typesNot []string
	sort            protocol.Sort
	maxDepth        int
	noIgnore        bool
	hidden          *bool
}

func globPick(a *protocol.GlobArgs) pick {
	return pick{a.Type, a.TypeNot, a.Sort, a.MaxDepth, a.NoIgnore, a.Hidden}
}

func grepPick(a *protocol.GrepArgs) pick {
	return pick{a.Type, a.TypeNot, a.Sort, a.MaxDepth, a.NoIgnore, a.Hidden}
}

// newWhich validates a call's arguments that pick files and prepares them
// for the scope: the root's policy (from the request), ignore files above
// the search path, the search path itself when it is ignored (searched,
// and said so) or denied (refused).
func (s *Server) newWhich(c *call, sc scope, a pick, filter *match.Filter, takes bool, pol *protocol.RootPolicy) (*which, *protocol.Error) {
	wh := &which{c: c, sc: sc, hidden: true, filter: filter, takes: takes, maxDepth: a.maxDepth, reader: &s.reader}
	if a.hidden != nil {
		wh.hidden = *a.hidden
	}
	if pol != nil && pol.HideHidden {
		wh.hidden, wh.rootHides = false, true
	}
	types, err := ignore.CompileTypes(a.types, a.typesNot)
	if err != nil {
		return nil, protocol.NewError(protocol.CodeInvalidArgument, err.Error())
	}
	if !types.Empty() {
		types.SetMeter(c.meter)
		wh.types = types
	}
	if filter != nil {
		filter.SetMeter(c.meter)
	}
	if pol != nil && len(pol.Deny) > 0 {
		wh.deny = ignore.Parse([]byte(strings.Join(pol.Deny, "\n")), "the root's deny list")
	}
	if !a.noIgnore {
		wh.ign = &ignore.Matcher{Meter: c.meter}
	}
	var outside []protocol.IgnoreRules
	if pol != nil {
		outside = pol.Ignore
	}
	for _, r := range outside {
		k := slices.Index(protocol.IgnoreKinds, r.Kind)
		if k < 0 {
			return nil, protocol.NewError(protocol.CodeInvalidArgument,
				fmt.Sprintf("ignore rules of kind %q, want one of %s", r.Kind, strings.Join(protocol.IgnoreKinds, ", ")))
		}
		if wh.ign == nil {
			continue
		}
		source := r.Source
		if source == "" {
			source = r.Kind + " rules from the host"
		}
		wh.ign.AddHost(ignore.Kind(k), r.Base, ignore.Parse([]byte(r.Rules), source))
	}
	if perr := wh.prime(pol); perr != nil {
		return nil, perr
	}
	return wh, nil
}

// validWhich checks what a call asks of which files, before anything runs.
func validWhich(a pick) *protocol.Error {
	switch {
	case a.sort != "" && a.sort != protocol.SortPath && a.sort != protocol.SortMTime:
		return protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("sort %q, want path or mtime", a.sort))
	case a.maxDepth < 0:
		return protocol.NewError(protocol.CodeInvalidArgument, fmt.Sprintf("max_depth %d, want 1 or more (0 or left out: no bound)", a.maxDepth))
	}
	return nil
}

// policy returns the request's policy for root, if any.
func policy(pols []protocol.RootPolicy, root string) *protocol.RootPolicy {
	for i := range pols {
		if pols[i].Root == root {
			return &pols[i]
		}
	}
	return nil
}

// rootRel is rel, relative to the search root, made relative to the root.
func (wh *which) rootRel(rel string) string {
	switch {
	case wh.sc.file:
		return wh.sc.rel
	case wh.sc.rel == "":
		return rel
	case rel == "":
		return wh.sc.rel
	}
	return wh.sc.rel + "/" + rel
}

// prime walks down from the root to the search path: it loads the ignore
// files of each directory above the search path, and checks each step
// against the deny list (a denied path is refused), the root's hidden
// policy (refused too) and ignore files (searched, and said so).
func (wh *which) prime(pol *protocol.RootPolicy) *protocol.Error {
	if wh.sc.rel == "" {
		return nil
	}
	parts := strings.Split(wh.sc.rel, "/")
	dir := ""
	for i, part := range parts {
		if wh.ign != nil {
			if err := wh.load(dir, nil, false); err != nil {
				return protocol.AsError(err)
			}
		}
		p := below(dir, part)
		isDir := i < len(parts)-1 || !wh.sc.file
		if wh.deny != nil {
			if v, _ := wh.deny.Match(p, isDir, nil); v == ignore.Ignore {
				return protocol.NewError(protocol.CodeOutsideRoot, fmt.Sprintf("path %q is denied by the policy of root %s", wh.sc.displayRoot(p), wh.sc.root.Name))
			}
		}
		if pol != nil && pol.HideHidden && strings.HasPrefix(part, ".") {
			return protocol.NewError(protocol.CodeOutsideRoot, fmt.Sprintf("path %q is hidden, and root %s does not show hidden files", wh.sc.displayRoot(p), wh.sc.root.Name))
		}
		if wh.ign != nil && wh.c.done.IgnoredBy == "" {
			if v, rules, n := wh.ign.Match(p, isDir); v == ignore.Ignore {
				wh.c.done.IgnoredBy = rules.Describe(n)
			}
		}
		dir = p
	}
	return nil
}

// listed loads a directory's ignore files as the walk enters it.
func (wh *which) listed(_, tpath string, entries []walk.Entry) error {
	if wh.ign == nil {
		return nil
	}
	return wh.load(tpath, entries, true)
}

func (wh *which) left(rel string) {
	if wh.ign != nil {
		wh.ign.Leave(wh.rootRel(rel))
	}
}

// load reads the ignore files of dir (relative to the root) and adds their
// rules. When the directory was listed, entries say which files there are;
// otherwise each is tried. An ignore file that cannot be read (a link in
// its path among the reasons) is a problem of the answer, and its rules are
// not applied.
func (wh *which) load(dir string, entries []walk.Entry, listed bool) error {
	var files [ignore.NumKinds]*ignore.Rules
	has := func(name string) (walk.Type, bool) {
		i, ok := slices.BinarySearchFunc(entries, name, func(e walk.Entry, n string) int { return strings.Compare(e.Name, n) })
		if !ok {
			return 0, false
		}
		return entries[i].Type, true
	}
	hasGit, gitDir := false, false
	wild := 0 // of the files read so far
	if listed {
		var t walk.Type
		t, hasGit = has(".git")
		gitDir = hasGit && t == walk.TypeDir
	} else if st, err := wh.sc.tree.Lstat(below(dir, ".git")); err == nil {
		hasGit, gitDir = true, st.Type == nofollow.Dir
	}
	read := func(kind ignore.Kind, name string) error {
		if listed && kind != ignore.KindExclude {
			if t, ok := has(name); !ok || t != walk.TypeFile {
				return nil
			}
		}
		data, n, err := wh.reader.Read(wh.sc.tree, below(dir, name), wh.c.maxSize, 0, wh.c.meter)
		if berr := wh.c.addBytes(n); berr != nil {
			return berr
		}
		switch {
		case wh.c.meter.Err() != nil:
			return wh.c.meter.Err()
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, search.ErrSpecial) && !listed:
			return nil
		}
		display := wh.sc.displayRoot(below(dir, name))
		switch {
		case errors.Is(err, search.ErrTooLarge):
			return wh.c.problem(display, errors.New("ignore file over the size cap: its rules were not applied"))
		case err != nil:
			return wh.c.problem(display, fmt.Errorf("%s: its rules were not applied", errnoText(err)))
		}
		rules, err := ignore.ParseLimited(data, display, wh.c.meter, ignore.MaxWild-wh.ign.Wild()-wild)
		switch {
		case wh.c.meter.Err() != nil:
			return wh.c.meter.Err()
		case err != nil:
			return wh.c.problem(display, fmt.Errorf("more than %d ignore rules with wildcards would apply at once: the rules of this file were not applied", ignore.MaxWild))
		}
		wild += rules.Wild()
		files[kind] = rules
		if rules.Long > 0 {
			return wh.c.problem(display, fmt.Errorf("%s longer than %d bytes (the first on line %d) not applied; the other rules were",
				plural(rules.Long, "a rule", fmt.Sprintf("%d rules", rules.Long)), ignore.MaxRuleBytes, rules.FirstLong))
		}
		return nil
	}
	for k, name := range ignore.Files {
		if err := read(ignore.Kind(k), name); err != nil {
			return err
		}
	}
	if gitDir {
		if err := read(ignore.KindExclude, ignore.ExcludeFile); err != nil {
			return err
		}
	}
	wh.ign.Enter(dir, files, hasGit)
	return nil
}

// below is the path of name in the directory dir (clean, relative; ""
// the root), without path.Join's cleaning of what is clean already: on a
// path thousands of directories deep that is a copy a level, not a scan.
func below(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// skip says whether the walk leaves an entry out, and counts why. After
// the root's own rules (its deny list, and hidden files when it hides
// them, which nothing a call asks can override), the order is ripgrep's:
// the call's globs (an inclusion of grep's takes the entry at once), ignore
// files, file types, then hidden files, unless a negated ignore rule
// ("!.env") names the entry.
func (wh *which) skip(rel, name string, typ walk.Type) bool {
	c := wh.c
	isDir := typ == walk.TypeDir
	rr := wh.rootRel(rel)
	if wh.deny != nil {
		if v, _ := wh.deny.Match(rr, isDir, c.meter); v == ignore.Ignore {
			c.done.Skipped.Denied++
			return true
		}
	}
	hidden := !wh.hidden && name[0] == '.'
	if hidden && wh.rootHides {
		c.done.Skipped.Hidden++
		return true
	}
	if wh.filter != nil {
		alt := ""
		if rr != rel {
			alt = rr
		}
		switch wh.filter.Decide(rel, alt, isDir) {
		case match.Drop:
			return true
		case match.Take:
			if wh.takes {
				return false
			}
		}
	}
	whitelisted := false
	if wh.ign != nil && !wh.ign.Empty() {
		switch v, _, _ := wh.ign.Match(rr, isDir); v {
		case ignore.Ignore:
			c.done.Skipped.Ignored++
			return true
		case ignore.Keep:
			whitelisted = true
		}
	}
	if wh.types != nil && typ == walk.TypeFile && !wh.types.Match(name) {
		return true
	}
	if hidden && !whitelisted {
		c.done.Skipped.Hidden++
		return true
	}
	return false
}

// walker returns a walker over the scope with these rules.
func (wh *which) walker() *walk.Walker {
	c := wh.c
	return &walk.Walker{
		Check:    c.check,
		Enter:    c.meter.Check,
		Meter:    c.meter,
		Listed:   wh.listed,
		Left:     wh.left,
		Skip:     wh.skip,
		MaxDepth: wh.maxDepth,
		Problem:  func(rel string, err error) error { return c.problem(wh.sc.display(rel), err) },
	}
}

// plural picks one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
