package main

import (
	"context"
	"fmt"
	"regexp"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// walkTable is issue 50's item 3 (-run walk): a glob on one instance and
// split by ranges over two (its first call on a path runs whole and says
// where the files lie), beside fd -j2, in interleaved rounds; and what a
// walk's entry costs before any rule, natively and in wasm under wazero
// (internal/walk's BenchmarkWalk: a plain os.ReadDir walk, and the
// module's walker), the floor a glob stands on.
func walkTable(ctx context.Context, keep *regexp.Regexp, b *indexBench, trees map[string]string, one, two map[string]*host.Runner) error {
	if !keep.MatchString("walk") {
		return nil
	}
	fmt.Printf("\nGlobs split by ranges (issue 50, item 3): the library on one instance and on two; fd -j2; %d interleaved rounds, median\n\n", Runs)
	fmt.Println("| glob | tree | fd -j2 | one instance | two | ÷ fd | goal ≤ 2× fd | two ÷ one |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, c := range []struct{ tree, pattern string }{{"go", "*.go"}, {"go", "*.nomatch"}, {"c", "*.c"}, {"c", "*.nomatch"}} {
		args := host.GlobArgs{Pattern: c.pattern, MaxResults: protocol.MaxResultsCeiling}
		lib := func(r *host.Runner) func() error {
			return func() error { _, err := r.Glob(ctx, args); return err }
		}
		t := interleaved(func() error {
			return refRun([]string{"fdfind", "-j2", "-H", "-t", "f", "-g", c.pattern}, trees[c.tree])
		},
			lib(one[c.tree]), lib(two[c.tree]))
		q := ratio(t[2], t[0])
		fmt.Printf("| %s | %s | %s | %s | %s | %.2f× | %s | %.2f× |\n", c.pattern, c.tree, ms(t[0]), ms(t[1]), ms(t[2]), q, verdict(q > 0 && q <= 2), ratio(t[2], t[1]))
	}
	fmt.Println("\n| a walk's entry (BenchmarkWalk), ns | tree | native | wasm | wasm ÷ native |")
	fmt.Println("|---|---|---|---|---|")
	for _, tree := range []string{"go", "c"} {
		dir := trees[tree]
		if tree == "go" {
			dir += "/src"
		}
		figs := map[string][]float64{}
		for range 3 {
			for _, v := range []string{"native", "wasm"} {
				f, err := b.runIn(ctx, walkPkg, v, "^BenchmarkWalk$", dir)
				if err != nil {
					return err
				}
				for _, w := range []string{"os", "Walker"} {
					figs[v+" "+w] = append(figs[v+" "+w], f["Walk/"+w+" ns/entry"])
				}
			}
		}
		for _, w := range []string{"os", "Walker"} {
			n, m := mid(figs["native "+w]), mid(figs["wasm "+w])
			fmt.Printf("| %s | %s | %.0f | %.0f | %.1f× |\n", map[string]string{"os": "os.ReadDir, recursively", "Walker": "internal/walk's Walker"}[w], tree, n, m, m/n)
		}
	}
	// The ignore rules' share of an entry (internal/ignore's
	// BenchmarkMatch): a C project's root rules and a directory's, 1,000
	// names; its TestMain makes no directory when ROOTBOUND_TEST_CACHE is
	// set.
	figs := map[string][]float64{}
	for range 3 {
		for _, v := range []string{"native", "wasm"} {
			f, err := b.run(ctx, ignorePkg, v, "^BenchmarkMatch$", "ROOTBOUND_TEST_CACHE=1")
			if err != nil {
				return err
			}
			figs[v] = append(figs[v], f["Match ns/path"])
		}
	}
	n, m := mid(figs["native"]), mid(figs["wasm"])
	fmt.Printf("| ignore rules, a name (BenchmarkMatch) | c | %.0f | %.0f | %.1f× |\n", n, m, m/n)
	return nil
}
