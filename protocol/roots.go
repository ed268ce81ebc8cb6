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
		if slices.ContainsFunc(strings.Split(name, "/"), IsDotGit) {
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

// ResolvePath finds what a path argument names among the roots (by name,
// the default first): the index of the root and the clean path below it
// ("" for the root itself). Relative paths are below the default root;
// absolute ones must be a root's name or below it. ".." that leaves a root
// is an error, never a clamp, and so is any path into .git.
func ResolvePath(names []string, p string) (root int, rel string, err *Error) {
	outside := func() (int, string, *Error) {
		return 0, "", NewError(CodeOutsideRoot,
			fmt.Sprintf("path %q is outside the readable roots (%s)", p, strings.Join(names, ", ")))
	}
	if strings.IndexByte(p, 0) >= 0 {
		return 0, "", NewError(CodeInvalidArgument, "path contains a NUL byte")
	}
	if strings.HasPrefix(p, "/") {
		clean := path.Clean(p)
		root = -1
		for i, name := range names {
			if clean == name || strings.HasPrefix(clean, name+"/") {
				root, rel = i, strings.TrimPrefix(strings.TrimPrefix(clean, name), "/")
				break
			}
		}
		if root < 0 {
			return outside()
		}
	} else {
		rel = path.Clean(p) // "" becomes "."
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return outside()
		}
		if rel == "." {
			rel = ""
		}
	}
	if slices.ContainsFunc(strings.Split(rel, "/"), IsDotGit) {
		return 0, "", NewError(CodeOutsideRoot,
			fmt.Sprintf("path %q is inside .git, which is never read (it can hold credentials)", p))
	}
	return root, rel, nil
}

// SymlinkError refuses the path argument p: link, a component of it (as
// results show paths), is a symbolic link; "" when p itself is one. The
// module and a host that checks before a call give the same words.
func SymlinkError(p, link string) *Error {
	if link == "" {
		return NewError(CodeSymlink, fmt.Sprintf(
			"path %q is a symbolic link, and links are never followed: name what it points to instead", p))
	}
	return NewError(CodeSymlink, fmt.Sprintf(
		"path %q goes through %q, a symbolic link, and links are never followed: name what it points to instead", p, link))
}

// IsDotGit reports whether name is ".git" in any case: on a file system
// that folds case (macOS's and Windows' by default) ".GIT/config" is
// .git/config, and the module cannot tell which kind it reads. On one that
// does not, a directory named ".GIT" is left out too, as git's own is.
func IsDotGit(name string) bool { return strings.EqualFold(name, ".git") }
