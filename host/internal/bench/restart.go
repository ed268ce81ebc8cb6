package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// restartTable is issue 51's first and second goals on the bench's trees
// (-run restart): a Runner builds the index and saves it to a cache; then,
// Runs times, a new Runner with that cache (a new process's start) until
// its index is loaded and every file looked at, what the process grew by
// meanwhile, and its first grep. bigTable and realTable time the same on
// the 1 GB and the real tree (restarted).
func restartTable(ctx context.Context, keep *regexp.Regexp, tmp string, trees map[string]string) error {
	if !keep.MatchString("restart") {
		return nil
	}
	fmt.Printf("\nA new Runner on a tree indexed before (issue 51): its start to its index ready, %d rounds, medians\n\n", Runs)
	fmt.Println("| tree | text | cache file | ÷ text | goal ≤ 15% | start to ready | goal ≤ 1 s | the process grew by | goal ≤ 300 MB | first grep -l |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range []struct{ tree, pattern string }{{"go", "CanonicalMIMEHeaderKey"}, {"c", "flash_probe_gpio_init"}} {
		cache := filepath.Join(tmp, "restart-"+c.tree)
		cfg := indexConfig(trees, c.tree, 2).WithIndexCache(cache)
		r, err := host.NewRunner(ctx, cfg)
		if err != nil {
			return err
		}
		err = waitIndexed(r, 5*time.Minute)
		r.Close(ctx)
		if err != nil {
			return err
		}
		var ready, first []time.Duration
		var grew []int64
		for range Runs {
			before, start := rss(), time.Now()
			r, err := host.NewRunner(ctx, cfg)
			if err != nil {
				return err
			}
			if err := waitIndexed(r, time.Minute); err != nil {
				r.Close(ctx)
				return err
			}
			ready, grew = append(ready, time.Since(start)), append(grew, rss()-before)
			start = time.Now()
			_, err = r.Grep(ctx, protocol.GrepArgs{Pattern: c.pattern, Literal: true, OutputMode: protocol.ModeFiles})
			first = append(first, time.Since(start))
			r.Close(ctx)
			if err != nil {
				return err
			}
		}
		text, size := treeBytes(trees[c.tree]), treeBytes(cache)
		share := float64(size) / float64(text)
		fmt.Printf("| %s | %d MB | %.1f MB | %.0f%% | %s | %d ms | %s | %d MB | %s | %.1f ms |\n", c.tree, text>>20, float64(size)/(1<<20), 100*share, verdict(share <= 0.15),
			mid(ready).Milliseconds(), verdict(mid(ready) <= time.Second), mid(grew)>>20, verdict(mid(grew) <= 300<<20), float64(mid(first).Microseconds())/1000)
	}
	return nil
}

// waitIndexed waits until r's index is ready, or within.
func waitIndexed(r *host.Runner, within time.Duration) error {
	for start := time.Now(); !r.Indexed(); time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > within {
			return fmt.Errorf("the index was not ready in %s", within)
		}
	}
	return nil
}

// treeBytes is what dir's regular files hold.
func treeBytes(dir string) int64 {
	n := int64(0)
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
