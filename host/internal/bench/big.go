package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// A bigRow is a grep timed on a big tree beside rg; its goal is a ratio to
// rg's time, or, with vsWithout, not slower than the same grep without
// the index.
type bigRow struct {
	name      string
	ref       []string
	grep      host.GrepArgs
	goal      float64
	vsWithout bool
}

func bigGrep(pattern string, literal bool, c protocol.Case, mode protocol.OutputMode) host.GrepArgs {
	return host.GrepArgs{Pattern: pattern, Literal: literal, Case: c, OutputMode: mode, MaxResults: protocol.MaxResultsCeiling}
}

// bigTable times issues 20's and 32's goals on a tree of 100,000 files,
// about 1 GB (the generated C tree grown: writeCTreeOf): repeat greps on
// a runner with the index beside rg and the same greps without it, the
// index's build and memory, greps after a burst of edits, and the time
// from an edit to the grep that sees it. Only with -run big (or nothing):
// the tree takes a minute to write.
func bigTable(ctx context.Context, keep *regexp.Regexp, tmp string) error {
	if !keep.MatchString("big") {
		return nil
	}
	dir := filepath.Join(tmp, "big")
	start := time.Now()
	if err := writeCTreeOf(dir, 100_000, 4); err != nil {
		return err
	}
	g := bigGrep
	rows := []bigRow{
		{name: "grep -l rare literal", ref: rg("-l", "-F", "flash_probe_gpio_init"), grep: g("flash_probe_gpio_init", true, "", ""), goal: 0.1},
		{name: "grep -n rare literal", ref: rg("-n", "-F", "flash_probe_gpio_init"), grep: g("flash_probe_gpio_init", true, "", protocol.ModeContent), goal: 0.1},
		{name: `grep -l regex \w+_gpio_init\(`, ref: rg("-l", `\w+_gpio_init\(`), grep: g(`\w+_gpio_init\(`, false, "", ""), goal: 0.3},
		{name: "grep -l alternation of two identifiers", ref: rg("-l", "flash_probe_gpio_init|usb_phy_reset_init"), grep: g("flash_probe_gpio_init|usb_phy_reset_init", false, "", ""), goal: 0.3},
		{name: "grep -l -i literal", ref: rg("-l", "-i", "FLASH_PROBE_GPIO_INIT"), grep: g("FLASH_PROBE_GPIO_INIT", false, protocol.CaseInsensitive, ""), goal: 0.3},
	}
	return issueTable(ctx, dir, fmt.Sprintf("the generated C tree grown; written in %s", time.Since(start).Round(time.Second)), rows, true)
}

// realDir, when set (-real), is a tree of public repositories for
// realTable (make bench REAL=DIR; BENCHMARKS.md says how it was built).
var realDir = flag.String("real", "", "a tree of public repositories to time issue 32's goals on (-run real)")

// realTable times issue 32's goals on a real tree: repeat greps with the
// index beside rg and without it, and the index's build. Its files are
// never written to (no edit rows).
func realTable(ctx context.Context, keep *regexp.Regexp) error {
	if *realDir == "" || !keep.MatchString("real") {
		return nil
	}
	g := bigGrep
	rows := []bigRow{
		{name: "grep -l rare literal", ref: rg("-l", "-F", "ActiveSupport::Notifications::Fanout"), grep: g("ActiveSupport::Notifications::Fanout", true, "", ""), goal: 0.1},
		{name: "grep -n rare literal", ref: rg("-n", "-F", "ActiveSupport::Notifications::Fanout"), grep: g("ActiveSupport::Notifications::Fanout", true, "", protocol.ModeContent), goal: 0.1},
		{name: "grep -l identifier of common words", ref: rg("-l", "-F", "acpi_create_dmar_rmrr"), grep: g("acpi_create_dmar_rmrr", true, "", ""), goal: 0.2},
		{name: "grep -l alternation of two identifiers", ref: rg("-l", "acpi_create_dmar_rmrr|KafkaRaftClient"), grep: g("acpi_create_dmar_rmrr|KafkaRaftClient", false, "", ""), goal: 0.3},
		{name: "grep -l -i literal", ref: rg("-l", "-i", "ACPI_CREATE_DMAR_RMRR"), grep: g("ACPI_CREATE_DMAR_RMRR", false, protocol.CaseInsensitive, ""), goal: 0.3},
		{name: `grep -l literal-free regex \b[0-9a-f]{40}\b`, ref: rg("-l", `\b[0-9a-f]{40}\b`), grep: g(`\b[0-9a-f]{40}\b`, false, "", ""), vsWithout: true},
	}
	return issueTable(ctx, *realDir, "public repositories", rows, false)
}

// issueTable times rows on dir with and without the index, and the
// index's build; with edits, also greps after a burst of edits and the
// time from an edit to the grep that sees it (which write to dir).
func issueTable(ctx context.Context, dir, what string, rows []bigRow, edits bool) error {
	files, bytes := 0, int64(0)
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				files++
				bytes += fi.Size()
			}
		}
		return nil
	})
	cfg := func() host.Config {
		return host.NewConfig().WithRoot("/tree", dir).WithTimeout(5*time.Minute).WithBudget(0, 0).WithMaxResultBytes(1 << 30).WithParallelism(1)
	}
	without, err := host.NewRunner(ctx, cfg())
	if err != nil {
		return err
	}
	defer without.Close(ctx)
	// A runner with the index as it comes (its cap sized from the tree)
	// beside one without.
	// Its index is kept in a cache, for the new runners timed last.
	cache, err := os.MkdirTemp("", "rootbound-bench-cache")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	cache = filepath.Join(cache, "index")
	rss0 := rss()
	start := time.Now()
	with, err := host.NewRunner(ctx, cfg().WithIndex(true, 0).WithIndexCache(cache))
	if err != nil {
		return err
	}
	defer with.Close(ctx)
	for !with.Indexed() {
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("the index of the tree was not built in 10 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
	built, memory := time.Since(start), rss()-rss0
	fmt.Printf("\nIssues 20 and 32 on a tree of %d files, %d MB (%s): %d interleaved rounds, median\n\n",
		files, bytes>>20, what, Runs)
	fmt.Println("| case | rg | without the index | with it | with ÷ rg | goal | with ÷ without |")
	fmt.Println("|---|---|---|---|---|---|---|")
	lib := func(r *host.Runner, a host.GrepArgs) func() error {
		return func() error { _, err := r.Grep(ctx, a); return err }
	}
	for _, c := range rows {
		t := interleaved(func() error { return refRun(c.ref, dir) }, lib(without, c.grep), lib(with, c.grep))
		q := ratio(t[2], t[0])
		goal, verdict := fmt.Sprintf("≤ %.1f× rg", c.goal), "met"
		if c.vsWithout {
			goal = "≤ without"
		}
		if q == 0 || c.vsWithout && t[2].d > t[1].d || !c.vsWithout && q > c.goal {
			verdict = "missed"
		}
		fmt.Printf("| %s | %s | %s | %s | %.2f× | %s (%s) | %.2f× |\n", c.name, ms(t[0]), ms(t[1]), ms(t[2]), q, goal, verdict, ratio(t[2], t[1]))
	}
	scan := median(lib(without, rows[0].grep))
	v := "met"
	if built > 2*scan.d {
		v = "missed"
	}
	fmt.Printf("\n| index build, runner start to ready (its save to the cache included) | %s | one full scan %s | %.1f× | goal ≤ 2× (%s) | the process's memory grew %d MB |",
		ms(timing{d: built}), ms(scan), float64(built)/float64(scan.d), v, memory>>20)
	fmt.Println()
	if !edits {
		return restarted(ctx, dir, cfg().WithIndex(true, 0).WithIndexCache(cache), cache, rows[0], built)
	}
	// A burst of edits (a line appended to 200 files across the tree),
	// then the rare literal's grep: the feed names the files, which are
	// read again; the other 99,800 are still known.
	var edited []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".c") && len(edited) < 200 && len(p)%7 == 0 {
			edited = append(edited, p)
		}
		return nil
	})
	burst := func(round int) error {
		for _, p := range edited {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(f, "/* edit %d */\n", round)
			f.Close()
		}
		return nil
	}
	var after, rgAfter []time.Duration
	for round := range Runs {
		if err := burst(round); err != nil {
			return err
		}
		t0 := time.Now()
		if err := refRun(rows[0].ref, dir); err != nil {
			return err
		}
		rgAfter = append(rgAfter, time.Since(t0))
		if err := burst(round); err != nil {
			return err
		}
		t0 = time.Now()
		if _, err := with.Grep(ctx, rows[0].grep); err != nil {
			return err
		}
		after = append(after, time.Since(t0))
	}
	fmt.Printf("\n| grep -l rare literal after a burst of edits (%d files appended to) | rg %s | with the index %s | %.2f× |\n",
		len(edited), ms(timing{d: mid(rgAfter)}), ms(timing{d: mid(after)}), float64(mid(after))/float64(mid(rgAfter)))

	// From an edit to the grep that sees it: a new name written, then a
	// grep for it, which must find it at once.
	var seen []time.Duration
	for round := range Runs {
		token := "edited_token_" + strconv.Itoa(round) + "_" + strconv.FormatInt(time.Now().UnixNano(), 36)
		t0 := time.Now()
		if err := os.WriteFile(edited[round], []byte("int "+token+";\n"), 0o644); err != nil {
			return err
		}
		res, err := with.Grep(ctx, host.GrepArgs{Pattern: token, Literal: true})
		if err != nil {
			return err
		}
		if len(res.Items) != 1 {
			return fmt.Errorf("the grep after the edit found %d files, want 1", len(res.Items))
		}
		seen = append(seen, time.Since(t0))
	}
	fmt.Printf("\n| from an edit to the grep that sees it (the first grep after it, every round) | %s |\n", ms(timing{d: mid(seen)}))
	return restarted(ctx, dir, cfg().WithIndex(true, 0).WithIndexCache(cache), cache, rows[0], built)
}

// restarted times issue 32's new process on a tree indexed before: a new
// runner with the index cache (what the MCP server or the CLI's server
// does when it starts) until its index is loaded and every file checked,
// then its first grep of row, beside rg's, in interleaved rounds.
func restarted(ctx context.Context, dir string, cfg host.Config, cache string, row bigRow, built time.Duration) error {
	var size int64
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			size += fi.Size()
		}
	}
	var rgT, checked, first []time.Duration
	for range Runs {
		t0 := time.Now()
		if err := refRun(row.ref, dir); err != nil {
			return err
		}
		rgT = append(rgT, time.Since(t0))
		t0 = time.Now()
		r, err := host.NewRunner(ctx, cfg)
		if err != nil {
			return err
		}
		for !r.Indexed() {
			if time.Since(t0) > 10*time.Minute {
				r.Close(ctx)
				return fmt.Errorf("the index was not loaded in 10 minutes")
			}
			time.Sleep(10 * time.Millisecond)
		}
		checked = append(checked, time.Since(t0))
		t0 = time.Now()
		_, err = r.Grep(ctx, row.grep)
		first = append(first, time.Since(t0))
		r.Close(ctx)
		if err != nil {
			return err
		}
	}
	q := float64(mid(first)) / float64(mid(rgT))
	v := "met"
	if q > 0.2 {
		v = "missed"
	}
	fmt.Printf("\n| a new runner on the tree indexed before (a new process's start), %d rounds, median | | |\n|---|---|---|\n", Runs)
	fmt.Printf("| start to ready: the cache's file (%d MB) loaded and every file looked at | %s | the build was %s (%.2f×) |\n",
		size>>20, ms(timing{d: mid(checked)}), ms(timing{d: built}), float64(mid(checked))/float64(built))
	fmt.Printf("| its first %s | %s | rg %s: %.2f× (goal ≤ 0.2×, %s) |\n", row.name, ms(timing{d: mid(first)}), ms(timing{d: mid(rgT)}), q, v)
	return nil
}

// mid is the median of ds.
func mid[T cmp.Ordered](ds []T) T {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// rss is the process's resident memory.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
