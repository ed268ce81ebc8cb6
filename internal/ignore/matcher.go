package ignore

import (
	"strings"

	"github.com/rootbound/rootbound/internal/meter"
)

// Kind is where rules come from. Kinds are listed in ripgrep's order of
// precedence: a match in a kind decides before any rule of a later kind is
// looked at, and within a kind the deepest directory's file decides first
// (git's order among .gitignore files, and ripgrep's among all).
// Their names in the protocol are protocol.IgnoreKinds, in the same order.
type Kind uint8

const (
	KindRgignore  Kind = iota // .rgignore
	KindIgnore                // .ignore
	KindGitignore             // .gitignore
	KindExclude               // .git/info/exclude
	KindGlobal                // the user's global excludes (git's core.excludesFile), from the host
	NumKinds
)

// Files are the ignore files each directory may hold, by kind.
var Files = [...]string{KindRgignore: ".rgignore", KindIgnore: ".ignore", KindGitignore: ".gitignore"}

// ExcludeFile is the one file read inside ".git": its rules, never its
// bytes, decide; nothing else of ".git" is ever opened.
const ExcludeFile = ".git/info/exclude"

// Matcher holds the rules that apply at one point of a walk: those of the
// directories from the root down to the one being walked, and the host's
// rules from above the root. Paths are relative to the root ("" for the
// root itself, "src/main.go").
type Matcher struct {
	levels []level
	wild   int // Wild rules of all levels
	// Meter, if set, is charged for matching.
	Meter *meter.Meter
}

// level is one directory's rules.
type level struct {
	dir    string // relative to the root, with a trailing "/" ("" for the root)
	above  string // rules from above the root: the root's path below their directory, with "/"
	host   bool   // from the host: never left
	files  [NumKinds]*Rules
	hasGit bool // the directory holds ".git": a repository's top
}

// path is rel relative to the level's directory.
func (l *level) path(rel string) string {
	if l.host {
		return l.above + rel
	}
	return rel[len(l.dir):]
}

// AddHost adds rules the host passed, from above the root: base is the
// root's path below the directory the rules belong to ("" when they belong
// to the root, or are global). Rules added first take precedence over
// rules added later, within a kind; all of them come after every file
// inside the root.
func (m *Matcher) AddHost(kind Kind, base string, r *Rules) {
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	l := level{host: true, above: base}
	l.files[kind] = r
	m.wild += r.Wild()
	// Host levels sit below every level of the walk: the lookup goes from
	// the last level to the first.
	m.levels = append([]level{l}, m.levels...)
}

// Enter adds the rules of directory dir (relative to the root, "" for the
// root): files holds the directory's ignore files by kind (nil where it
// has none; KindExclude only for a repository's top), hasGit whether it
// holds ".git". Leave(dir) takes them away again.
func (m *Matcher) Enter(dir string, files [NumKinds]*Rules, hasGit bool) {
	empty := !hasGit
	for _, f := range files {
		empty = empty && f == nil
	}
	if empty {
		return
	}
	if dir != "" {
		dir += "/"
	}
	for _, f := range files {
		if f != nil {
			m.wild += f.Wild()
		}
	}
	m.levels = append(m.levels, level{dir: dir, files: files, hasGit: hasGit})
}

// Leave undoes Enter(dir).
func (m *Matcher) Leave(dir string) {
	if dir != "" {
		dir += "/"
	}
	if n := len(m.levels); n > 0 && !m.levels[n-1].host && m.levels[n-1].dir == dir {
		for _, f := range m.levels[n-1].files {
			if f != nil {
				m.wild -= f.Wild()
			}
		}
		m.levels = m.levels[:n-1]
	}
}

// MaxWild bounds the rules with wildcards that apply at once (Rules.Wild):
// about 80 MiB of matchers. Real ignore files hold tens; a file that would
// take the count past it is not applied, and its caller says so.
const MaxWild = 20_000

// Wild is the number of rules with wildcards that apply (Rules.Wild).
func (m *Matcher) Wild() int { return m.wild }

// Match says whether rel (relative to the root) is ignored, and by which
// file and rule. Kinds are looked at in order; within a kind, from the
// deepest directory up. As ripgrep does, .gitignore and exclude rules stop
// at a repository's top: those above it do not apply inside it.
//
// A path inside an ignored directory is never asked about: the walk does
// not enter it, so, as in git, no rule can take a file back out of an
// ignored directory.
func (m *Matcher) Match(rel string, isDir bool) (Verdict, *Rules, int) {
	for k := range NumKinds {
		for i := len(m.levels) - 1; i >= 0; i-- {
			l := &m.levels[i]
			if f := l.files[k]; f != nil {
				if v, n := f.Match(l.path(rel), isDir, m.Meter); v != None {
					return v, f, n
				}
			}
			if l.hasGit && (k == KindGitignore || k == KindExclude) {
				break
			}
		}
	}
	return None, nil, -1
}

// Empty reports whether no rules apply.
func (m *Matcher) Empty() bool { return len(m.levels) == 0 }
