package main

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// buildingTable is issue 51's third goal (-run building): the index's
// build alone (a Runner without its cache, from the files), beside one
// scan (the grep below without an index, before any build); then, while
// a second such Runner builds, the same grep on it, 20 times back to back
// (or until its index is ready), beside the scan. Runners split a grep
// over two instances. (indexTable measures the build too, on one
// instance, against issue 32's goal.)
func buildingTable(ctx context.Context, keep *regexp.Regexp, trees map[string]string, without map[string]*host.Runner) error {
	if !keep.MatchString("building") {
		return nil
	}
	fmt.Println("\nWhile the index builds (issue 51): one scan (the grep without an index, nothing else running), the build alone, and the grep on a Runner while it builds; medians")
	fmt.Println()
	fmt.Println("| grep | tree | one scan | the build alone | ÷ one scan | goal ≤ 6× | while it builds | ÷ one scan | goal ≤ 1.2× | calls |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range []struct {
		tree string
		args protocol.GrepArgs
	}{
		{"go", protocol.GrepArgs{Pattern: "CanonicalMIMEHeaderKey", Literal: true, OutputMode: protocol.ModeFiles, MaxResults: protocol.MaxResultsCeiling}},
		{"c", protocol.GrepArgs{Pattern: "flash_probe_gpio_init", Literal: true, OutputMode: protocol.ModeFiles, MaxResults: protocol.MaxResultsCeiling}},
	} {
		grep := func(r *host.Runner) (time.Duration, error) {
			start := time.Now()
			_, err := r.Grep(ctx, c.args)
			return time.Since(start), err
		}
		scan := median(func() error { _, err := grep(without[c.tree]); return err })
		if scan.err != nil {
			return scan.err
		}
		start := time.Now()
		r, err := indexedRunner(ctx, trees, c.tree, 2)
		if err != nil {
			return err
		}
		built := time.Since(start)
		r.Close(ctx)
		if r, err = host.NewRunner(ctx, indexConfig(trees, c.tree, 2)); err != nil {
			return err
		}
		// Up to 20 calls, back to back: the build waits while a call runs
		// (its clock is held), and calls that never stop would hold it
		// for ever.
		var during []time.Duration
		for !r.Indexed() && len(during) < 20 {
			d, err := grep(r)
			if err != nil {
				r.Close(ctx)
				return err
			}
			if !r.Indexed() { // ended during the build
				during = append(during, d)
			}
		}
		r.Close(ctx)
		b := ratio(timing{d: built}, scan)
		while := "–"
		w := 0.0
		if len(during) > 0 {
			d := mid(during)
			w = float64(d) / float64(scan.d)
			while = fmt.Sprintf("%d ms", d.Milliseconds())
		}
		fmt.Printf("| -l %s | %s | %s | %d ms | %.1f× | %s | %s | %.2f× | %s | %d |\n", c.args.Pattern, c.tree, ms(scan), built.Milliseconds(), b, verdict(b <= 6),
			while, w, verdict(len(during) > 0 && w <= 1.2), len(during))
	}
	return nil
}
