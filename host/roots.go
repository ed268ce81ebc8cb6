package host

import (
	"strings"

	"github.com/rootbound/rootbound/internal/match"
)

// RootInfo is what a caller may know of a root: its name, and what its
// policy leaves out. It never holds the root's host directory.
type RootInfo struct {
	// Name is the root's name: a path under it starts with it ("/docs/x"),
	// except under the default root.
	Name string `json:"name"`
	// Default: paths that start with no root's name are below this root.
	Default bool `json:"default,omitempty"`
	// HidesHidden: hidden files and directories are left out of every
	// call (RootPolicy.HideHidden).
	HidesHidden bool `json:"hides_hidden,omitempty"`
	// Deny are the patterns whose matches are never listed or opened.
	Deny []string `json:"deny,omitempty"`
	// IgnoreFrom names the sources of ignore rules from outside the root
	// (a parent's .gitignore, the global excludes, the host's default
	// skips), which no_ignore turns off.
	IgnoreFrom []string `json:"ignore_from,omitempty"`
}

// Roots returns the Runner's roots, the default first, as a caller may
// know them (an MCP client reads them as a resource).
func (r *Runner) Roots() []RootInfo {
	out := make([]RootInfo, 0, len(r.cfg.roots))
	for i, root := range r.cfg.roots {
		info := RootInfo{Name: root.Name, Default: i == 0}
		for _, p := range r.policy {
			if p.Root != root.Name {
				continue
			}
			info.HidesHidden, info.Deny = p.HideHidden, p.Deny
			for _, ig := range p.Ignore {
				src := ig.Source
				if src == "" {
					src = ig.Kind
				}
				info.IgnoreFrom = append(info.IgnoreFrom, src)
			}
		}
		out = append(out, info)
	}
	return out
}

// RootsText words roots for a model: one line each.
func RootsText(roots []RootInfo) string {
	var b strings.Builder
	for _, ri := range roots {
		var notes []string
		if ri.Default {
			notes = append(notes, "the default: a path that starts with no root's name is below it")
		}
		if ri.HidesHidden {
			notes = append(notes, "hidden files and directories are left out")
		}
		if len(ri.Deny) > 0 {
			q := make([]string, len(ri.Deny))
			for i, d := range ri.Deny {
				q[i] = match.Quote(d)
			}
			notes = append(notes, "never opened: "+strings.Join(q, ", "))
		}
		if len(ri.IgnoreFrom) > 0 {
			q := make([]string, len(ri.IgnoreFrom))
			for i, s := range ri.IgnoreFrom {
				q[i] = match.Quote(s)
			}
			notes = append(notes, "ignore rules from "+strings.Join(q, ", ")+" (no_ignore turns them off)")
		}
		b.WriteString(match.Quote(ri.Name))
		if len(notes) > 0 {
			b.WriteString(": " + strings.Join(notes, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
