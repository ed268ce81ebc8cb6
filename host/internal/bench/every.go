package main

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// everyTable is issue 50's "Done when" table (-run every): the searches no
// literal narrows, a case-insensitive alternation, a rare literal and a
// glob, each through the library on its default split (two instances),
// without an index and with one built, beside rg -j2 or fd -j2 on the same
// files, in interleaved rounds.
func everyTable(ctx context.Context, keep *regexp.Regexp, trees map[string]string, without map[string]*host.Runner) error {
	if !keep.MatchString("every") {
		return nil
	}
	type row struct {
		name, tree string
		ref        []string
		grep       *protocol.GrepArgs
		glob       *protocol.GlobArgs
		goal       float64 // ratio to rg (fd), with and without the index
	}
	g := func(pattern string, mode protocol.OutputMode) *protocol.GrepArgs {
		return &protocol.GrepArgs{Pattern: pattern, OutputMode: mode, MaxResults: protocol.MaxResultsCeiling}
	}
	rows := []row{}
	for _, tree := range []string{"go", "c"} {
		for _, p := range []string{`[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}`, `\b[0-9a-f]{40}\b`, `\w+\s*[=:]\s*\w+[(\[]`, `[A-Z]{3}_[0-9]{4}`} {
			rows = append(rows,
				row{"grep -l " + p, tree, rg("-j2", "-l", p), g(p, protocol.ModeFiles), nil, 2},
				row{"grep -n " + p, tree, rg("-j2", "-n", p), g(p, protocol.ModeContent), nil, 2})
		}
		rows = append(rows, row{"grep -n (?i)todo|fixme|xxx", tree, rg("-j2", "-n", "(?i)todo|fixme|xxx"), g("(?i)todo|fixme|xxx", protocol.ModeContent), nil, 3})
	}
	rows = append(rows,
		row{"grep -l rare literal", "go", rg("-j2", "-l", "-F", "CanonicalMIMEHeaderKey"),
			&protocol.GrepArgs{Pattern: "CanonicalMIMEHeaderKey", Literal: true, OutputMode: protocol.ModeFiles, MaxResults: protocol.MaxResultsCeiling}, nil, 2.5},
		row{"glob *.go", "go", []string{"fdfind", "-j2", "-H", "-t", "f", "-g", "*.go"}, nil,
			&protocol.GlobArgs{Pattern: "*.go", MaxResults: protocol.MaxResultsCeiling}, 2},
		row{"glob *.c", "c", []string{"fdfind", "-j2", "-H", "-t", "f", "-g", "*.c"}, nil,
			&protocol.GlobArgs{Pattern: "*.c", MaxResults: protocol.MaxResultsCeiling}, 2})

	indexed := map[string]*host.Runner{}
	for _, tree := range []string{"go", "c"} {
		r, err := indexedRunner(ctx, trees, tree, 2)
		if err != nil {
			return err
		}
		defer r.Close(ctx)
		indexed[tree] = r
	}
	fmt.Printf("\nEvery pattern (issue 50): the library split over two instances, without an index and with one built; rg/fd with -j2; %d interleaved rounds, median\n\n", Runs)
	fmt.Println("| case | tree | rg/fd | without the index | ÷ ref | with it | ÷ ref | goal | with ÷ without |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, c := range rows {
		lib := func(r *host.Runner) func() error {
			if c.glob != nil {
				return func() error { _, err := r.Glob(ctx, host.GlobArgs(*c.glob)); return err }
			}
			return func() error { _, err := r.Grep(ctx, *c.grep); return err }
		}
		t := interleaved(func() error { return refRun(c.ref, trees[c.tree]) }, lib(without[c.tree]), lib(indexed[c.tree]))
		verdict := "met"
		if q, w := ratio(t[1], t[0]), ratio(t[2], t[0]); q > c.goal || w > c.goal || q == 0 || w == 0 {
			verdict = "missed"
		}
		slower := ""
		if t[2].d > t[1].d+max(time.Millisecond, t[1].d/10) {
			slower = " (slower)"
		}
		fmt.Printf("| %s | %s | %s | %s | %.2f× | %s | %.2f× | ≤ %.1f× (%s) | %.2f×%s |\n", c.name, c.tree, ms(t[0]), ms(t[1]), ratio(t[1], t[0]),
			ms(t[2]), ratio(t[2], t[0]), c.goal, verdict, ratio(t[2], t[1]), slower)
	}
	return nil
}
