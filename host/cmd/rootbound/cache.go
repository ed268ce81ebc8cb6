package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rootbound/rootbound/host"
)

// The command's caches, under the user's cache directory: the index of
// each root it searched (host.WithIndexCache), at most
// ROOTBOUND_CACHE_LIMIT bytes of them (the roots used least recently
// removed first), and the compiled module (host.DefaultCacheDirs).
// `rootbound server --clear-cache` removes both.

// indexCacheDir is where the command keeps its roots' indexes between
// runs: rootbound/index under the user's cache directory, or none.
func indexCacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "rootbound", "index")
}

// cacheLimitEnv names what the index cache may hold.
const cacheLimitEnv = "ROOTBOUND_CACHE_LIMIT"

// cacheLimit is what cacheLimitEnv says, in bytes: a number, with K, M or
// G (powers of 1024, a trailing "B" or "iB" allowed); 0 when it is unset
// (host.DefaultIndexCacheLimit, 1 GiB).
func cacheLimit() (int64, error) {
	v := strings.TrimSpace(os.Getenv(cacheLimitEnv))
	if v == "" {
		return 0, nil
	}
	s := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(v), "B"), "I")
	shift := 0
	if i := strings.IndexAny(s, "KMG"); i >= 0 && i == len(s)-1 {
		shift = 10 * (strings.IndexByte("KMG", s[i]) + 1)
		s = s[:i]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%s=%q: want a size in bytes, such as 1073741824, 512M or 2G", cacheLimitEnv, v)
	}
	return n << shift, nil
}

// withIndexCache gives cfg the command's index cache and its limit.
func withIndexCache(cfg host.Config) (host.Config, error) {
	limit, err := cacheLimit()
	if err != nil {
		return nil, err
	}
	return cfg.WithIndexCache(indexCacheDir()).WithIndexCacheLimit(limit), nil
}

// clearCaches removes the command's caches (a link in a cache's place is
// removed, never followed) and returns those it removed.
func clearCaches() ([]string, error) {
	var removed []string
	var errs []error
	for _, dir := range append([]string{indexCacheDir()}, host.DefaultCacheDirs()...) {
		if dir == "" {
			continue
		}
		if _, err := os.Lstat(dir); err != nil {
			continue // none there
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	return removed, errors.Join(errs...)
}

// clearCommand is `rootbound server --clear-cache`, once the servers
// stopped.
func clearCommand(stderr io.Writer) int {
	removed, err := clearCaches()
	for _, dir := range removed {
		fmt.Fprintln(stderr, "rootbound server: removed", dir)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rootbound server:", err)
		return 2
	}
	if len(removed) == 0 {
		fmt.Fprintln(stderr, "rootbound server: no cache to remove")
	}
	return 0
}
