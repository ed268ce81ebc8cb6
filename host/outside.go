package host

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OutsideIgnoreRules returns the ignore rules that apply to the directory
// dir from outside it, found as ripgrep finds them: the .rgignore, .ignore
// and .gitignore files of each directory above dir, nearest first
// (.gitignore only up to the top of the git repository dir is in, which
// also gives its .git/info/exclude), and the user's global excludes (git's
// core.excludesFile; by default $XDG_CONFIG_HOME/git/ignore). The module
// reads the ignore files inside a root itself; these it cannot see. Their
// sources name them relative to dir ("../.gitignore"), never by host path.
//
// Give them to WithRootPolicy. The rootbound command does, as rg does; a
// host serving a model decides whether rules from outside a root apply.
func OutsideIgnoreRules(dir string) ([]IgnoreRules, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return OutsideIgnoreRulesAt(f)
}

// OutsideIgnoreRulesAt is OutsideIgnoreRules of the directory dir was
// opened on (WithRootDir's). On Unix the directories above it are reached
// through it, a ".." at a time, never by a name, and each ignore file is
// opened relative to its directory, without blocking (a FIFO in an ignore
// file's place is passed over) and read only when it is a regular file:
// a cost linear in dir's depth.
func OutsideIgnoreRulesAt(dir *os.File) ([]IgnoreRules, error) {
	at, comps, err := aboveOf(dir)
	if err != nil {
		return nil, err
	}
	defer func() { at.close() }()
	var rules []IgnoreRules
	read := func(kind string, in above, file, base, source string) error {
		data, err := in.read(file)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission), errors.Is(err, errNotRegular):
			return nil
		case err != nil:
			return err
		}
		rules = append(rules, IgnoreRules{Kind: kind, Base: base, Source: source, Rules: string(data)})
		return nil
	}
	repoTop := -1 // levels above dir of the repository's top, -1 for none
	if at.isRepo() {
		repoTop = 0
	}
	up := ""
	for level := 1; level <= len(comps); level++ {
		parent, err := at.parent()
		if err != nil {
			break // the top, or one this user cannot search
		}
		at.close()
		at = parent
		up += "../"
		base := strings.Join(comps[len(comps)-level:], "/")
		for _, kind := range []string{"rgignore", "ignore", "gitignore"} {
			if kind == "gitignore" && repoTop >= 0 {
				continue // above the repository's top: not its rules
			}
			if err := read(kind, at, "."+kind, base, up+"."+kind); err != nil {
				return nil, err
			}
		}
		if repoTop < 0 && at.isRepo() {
			repoTop = level
			if err := read("exclude", at, ".git/info/exclude", base, up+".git/info/exclude"); err != nil {
				return nil, err
			}
		}
	}
	if global := globalExcludes(); global != "" {
		base := ""
		if repoTop > 0 {
			base = strings.Join(comps[len(comps)-repoTop:], "/")
		}
		data, err := os.ReadFile(global)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		case err != nil:
			return nil, err
		default:
			rules = append(rules, IgnoreRules{Kind: "global", Base: base, Source: "the global excludes (core.excludesFile)", Rules: string(data)})
		}
	}
	return rules, nil
}

// errNotRegular: an ignore file that is not a regular file, passed over.
var errNotRegular = errors.New("not a regular file")

// components are the names of a clean absolute path, "/" none.
func components(p string) []string {
	return strings.FieldsFunc(filepath.ToSlash(p), func(r rune) bool { return r == '/' })
}

// globalExcludes is the path of git's core.excludesFile: from the user's
// git configuration ($XDG_CONFIG_HOME/git/config, ~/.gitconfig, the latter
// winning as in git), else $XDG_CONFIG_HOME/git/ignore.
func globalExcludes() string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	file := ""
	for _, cfg := range []string{filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig")} {
		if v := coreExcludesFile(cfg); v != "" {
			file = v
		}
	}
	if file == "" && xdg != "" {
		file = filepath.Join(xdg, "git", "ignore")
	}
	if rest, ok := strings.CutPrefix(file, "~/"); ok && home != "" {
		file = filepath.Join(home, rest)
	}
	return file
}

// coreExcludesFile reads core.excludesFile from one git configuration file:
// the plain "[core]" section and "excludesfile = value" lines git writes
// (no includes, no quoting beyond a pair of double quotes).
func coreExcludesFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	value, inCore := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inCore = strings.EqualFold(strings.Trim(line, "[] \t"), "core")
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if inCore && ok && strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			value = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return value
}
