package protocol

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// CheckRootNames refuses root names a module cannot serve: one that is not
// a clean absolute path, is /, or names .git; a name given twice; and a
// name inside another (with /workspace and /workspace/src, a path below
// /workspace/src would name two places).
func CheckRootNames(names []string) error {
	for i, name := range names {
		if !strings.HasPrefix(name, "/") || path.Clean(name) != name || name == "/" {
			return fmt.Errorf("root name %q, want a clean absolute path other than / (such as /workspace)", name)
		}
		if slices.Contains(strings.Split(name, "/"), ".git") {
			return fmt.Errorf("root name %q names .git, which is never read", name)
		}
		for _, o := range names[:i] {
			switch {
			case o == name:
				return fmt.Errorf("root %q given twice", name)
			case strings.HasPrefix(name, o+"/"), strings.HasPrefix(o, name+"/"):
				return fmt.Errorf("roots %q and %q nest: give roots that do not", o, name)
			}
		}
	}
	return nil
}
