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
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var rules []IgnoreRules
	read := func(kind, file, base, source string) error {
		data, err := os.ReadFile(file)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
			return nil
		case err != nil:
			return err
		}
		rules = append(rules, IgnoreRules{Kind: kind, Base: base, Source: source, Rules: string(data)})
		return nil
	}
	repoTop := ""
	if isRepo(abs) {
		repoTop = abs
	}
	up := ""
	for cur := abs; ; {
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		up += "../"
		base, _ := filepath.Rel(parent, abs)
		base = filepath.ToSlash(base)
		for _, kind := range []string{"rgignore", "ignore", "gitignore"} {
			if kind == "gitignore" && repoTop != "" {
				continue // above the repository's top: not its rules
			}
			if err := read(kind, filepath.Join(parent, "."+kind), base, up+"."+kind); err != nil {
				return nil, err
			}
		}
		if repoTop == "" && isRepo(parent) {
			repoTop = parent
			if err := read("exclude", filepath.Join(parent, ".git", "info", "exclude"), base, up+".git/info/exclude"); err != nil {
				return nil, err
			}
		}
		cur = parent
	}
	if global := globalExcludes(); global != "" {
		base := ""
		if repoTop != "" {
			base, _ = filepath.Rel(repoTop, abs)
			if base = filepath.ToSlash(base); base == "." {
				base = ""
			}
		}
		if err := read("global", global, base, "the global excludes (core.excludesFile)"); err != nil {
			return nil, err
		}
	}
	return rules, nil
}

// isRepo reports whether dir is the top of a git repository (or worktree).
func isRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
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
