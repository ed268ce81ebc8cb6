package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// unitsTable weighs a split grep that divides the walk too (issue 32,
// "walk once"): each shard lists the directories above a split depth k
// (the frontier, every shard the same) and walks only the units it owns:
// each directory at depth k, and each file above it, owned in walk order
// round robin (unit i by shard i mod n), so no shard needs another's
// walk to know what it owns. For each tree and k it gives the frontier's
// share of the tree's directories (what every shard still repeats), the
// largest unit's share of the files (what no split goes below), and the
// balance of the files over n shards: all files ÷ the most any shard
// holds (n would be perfect). It times nothing: the files are counted as
// the tree holds them, ignore rules aside.
func unitsTable(keep *regexp.Regexp, trees map[string]string) {
	if !keep.MatchString("units") {
		return
	}
	fmt.Println("\nA walk split by subtrees (unitsTable): files per unit, owned round robin in walk order; balance = all files ÷ the most one shard holds")
	fmt.Println()
	fmt.Println("| tree | split depth | units | dirs every shard lists | largest unit | balance at 2 | 4 | 8 | 16 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, name := range []string{"go", "c", "node", "real"} {
		dir := trees[name]
		if dir == "" {
			continue
		}
		entries := treeEntries(dir)
		for k := 1; k <= 4; k++ {
			u := splitUnits(entries, k)
			line := fmt.Sprintf("| %s | %d | %d | %d of %d (%.1f%%) | %.1f%% |", name, k, len(u.files), u.frontier, u.dirs,
				100*float64(u.frontier)/float64(max(u.dirs, 1)), 100*float64(slices.Max(u.files))/float64(max(u.total, 1)))
			for _, n := range []int{2, 4, 8, 16} {
				load := make([]int64, n)
				for i, f := range u.files {
					load[i%n] += f
				}
				line += fmt.Sprintf(" %.1f× |", float64(u.total)/float64(max(slices.Max(load), 1)))
			}
			fmt.Println(line)
		}
		// Ranges: shard i walks the files from the i/n-th on, cut where the
		// tree's walk (the call before, say) had them; it also lists the
		// directories above its first file, for their ignore rules, and
		// counts none of them.
		var paths []string
		for _, e := range entries {
			if !e.dir {
				paths = append(paths, e.rel)
			}
		}
		line := fmt.Sprintf("| %s | ranges | – | most listed above a range's start, at 16: %d | – |", name, rangeContext(paths, 16))
		for _, n := range []int{2, 4, 8, 16} {
			most := 0
			for i := range n {
				most = max(most, (i+1)*len(paths)/n-i*len(paths)/n)
			}
			line += fmt.Sprintf(" %.1f× |", float64(len(paths))/float64(max(most, 1)))
		}
		fmt.Println(line)
	}
}

// units is a tree cut at a split depth: the files of each unit in walk
// order, the directories above the depth (listed by every shard) and in
// all, and the files in all.
type units struct {
	files          []int64
	frontier, dirs int
	total          int64
}

// treeEntry is a directory or a regular file of a tree, "/"-separated.
type treeEntry struct {
	rel string
	dir bool
}

// treeEntries is a tree's directories (below its top) and regular files
// in walk order: filepath.WalkDir walks in the order the module does; .git
// is left out, as the module leaves it.
func treeEntries(dir string) []treeEntry {
	var out []treeEntry
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || p == dir:
			return nil
		case d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir() || d.Type().IsRegular():
			rel, _ := filepath.Rel(dir, p)
			out = append(out, treeEntry{filepath.ToSlash(rel), d.IsDir()})
		}
		return nil
	})
	return out
}

// splitUnits cuts a tree at depth k: a unit is a directory at depth k with
// all below it, or a file above that depth.
func splitUnits(entries []treeEntry, k int) units {
	u := units{dirs: 1, frontier: 1} // the top, listed by every shard
	for _, e := range entries {
		depth := strings.Count(e.rel, "/") + 1
		switch {
		case e.dir:
			u.dirs++
			if depth < k {
				u.frontier++
			}
			if depth == k {
				u.files = append(u.files, 0) // a unit, though it may hold no file
			}
		case depth <= k:
			u.total++
			u.files = append(u.files, 1) // a file above the depth: a unit of its own
		default:
			u.total++
			u.files[len(u.files)-1]++ // the unit of the directory at depth k above it
		}
	}
	if len(u.files) == 0 {
		u.files = []int64{0}
	}
	return u
}

// rangeContext is the most directories one of n ranges lists above its
// first file: the depth of that file.
func rangeContext(paths []string, n int) int {
	most := 0
	for i := 1; i < n && i*len(paths)/n < len(paths); i++ {
		most = max(most, strings.Count(paths[i*len(paths)/n], "/")+1)
	}
	return most
}
