package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/internal/index"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// An indexBench runs a package's benchmarks (internal/index's,
// internal/match's) as test binaries: "native", "wasm" (under wazero,
// this process) and "host" (wasm built with the tag hostgrams, whose
// trigrams come from hostTrigrams), each built when first run.
type indexBench struct {
	rt       wazero.Runtime
	tmp      string
	mu       sync.Mutex // over bins and compiled: runs may be at once
	bins     map[string]string
	compiled map[string]wazero.CompiledModule
	goroot   string
	mounts   []string // directories the wasm binaries may read, at their own paths
}

// indexPkg and matchPkg are the packages whose benchmarks the tables run.
const (
	indexPkg  = "./internal/index"
	matchPkg  = "./internal/match"
	walkPkg   = "./internal/walk"
	ignorePkg = "./internal/ignore"
)

func newIndexBench(ctx context.Context, tmp, goroot string) (*indexBench, error) {
	ib := &indexBench{tmp: tmp, bins: map[string]string{}, compiled: map[string]wazero.CompiledModule{}, goroot: goroot, mounts: []string{goroot, tmp}}
	ib.rt = wazero.NewRuntime(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, ib.rt)
	var mu sync.Mutex
	seen := make([]uint64, 1<<24/64) // under mu: one call at a time serves
	if _, err := ib.rt.NewHostModuleBuilder("rootbound_bench").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, stack []uint64) {
			mu.Lock()
			stack[0] = uint64(hostTrigrams(m.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), seen))
			mu.Unlock()
		}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		Export("trigrams").Instantiate(ctx); err != nil {
		ib.rt.Close(ctx)
		return nil, err
	}
	return ib, nil
}

// build builds package pkg's test binary name, and compiles a wasm one,
// unless it was, and returns them.
func (ib *indexBench) build(ctx context.Context, pkg, name string) (string, wazero.CompiledModule, error) {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	key := pkg + " " + name
	if bin := ib.bins[key]; bin != "" {
		return bin, ib.compiled[key], nil
	}
	bin := filepath.Join(ib.tmp, filepath.Base(pkg)+"-"+name+".test")
	args := []string{"test", "-c", "-o", bin}
	if name == "host" {
		args = append(args, "-tags", "hostgrams")
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = os.Environ()
	if name != "native" {
		cmd.Env = append(cmd.Env, "GOOS=wasip1", "GOARCH=wasm")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("build %s: %v\n%s", name, err, out)
	}
	if name != "native" {
		b, err := os.ReadFile(bin)
		if err == nil {
			ib.compiled[key], err = ib.rt.CompileModule(ctx, b)
		}
		if err != nil {
			return "", nil, err
		}
	}
	ib.bins[key] = bin
	return bin, ib.compiled[key], nil
}

// run runs package pkg's binary name's benchmarks that bench matches,
// benchtime 2x, with env, and returns their figures: by benchmark (its
// name without "Benchmark" and the -N suffix) and unit, e.g. "Build MB/s".
func (ib *indexBench) run(ctx context.Context, pkg, name, bench string, env ...string) (map[string]float64, error) {
	return ib.runIn(ctx, pkg, name, bench, "", env...)
}

// runIn is run with the directory tree (ROOTBOUND_BENCH_TREE) mounted in
// wasm as the module's hosts mount a root (host/internal/rootfs: a listing
// costs no stat an entry, as wazero's own mount does), at its own path.
func (ib *indexBench) runIn(ctx context.Context, pkg, name, bench, tree string, env ...string) (map[string]float64, error) {
	bin, compiled, err := ib.build(ctx, pkg, name)
	if err != nil {
		return nil, err
	}
	args := []string{"-test.run", "^$", "-test.bench", bench, "-test.benchtime", "2x"}
	env = append(env, "GOROOT="+ib.goroot)
	if tree != "" {
		env = append(env, "ROOTBOUND_BENCH_TREE="+tree)
	}
	var out bytes.Buffer
	if name == "native" {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Stdout, cmd.Stderr = append(os.Environ(), env...), &out, &out
		err = cmd.Run()
	} else {
		fsc := wazero.NewFSConfig()
		for _, d := range ib.mounts {
			fsc = fsc.WithReadOnlyDirMount(d, d)
		}
		if tree != "" {
			dir, err := rootfs.OpenDir(tree)
			if err != nil {
				return nil, err
			}
			defer dir.Close()
			fsc = fsc.(sysfs.FSConfig).WithSysFSMount(rootfs.New(dir, nil), tree)
		}
		cfg := wazero.NewModuleConfig().WithName("").WithArgs(append([]string{"index.test"}, args...)...).
			WithStdout(&out).WithStderr(&out).WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithFSConfig(fsc)
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			cfg = cfg.WithEnv(k, v)
		}
		var m api.Module
		if m, err = ib.rt.InstantiateModule(ctx, compiled, cfg); m != nil {
			m.Close(ctx)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", name, err, out.String())
	}
	figs := map[string]float64{}
	for _, l := range strings.Split(out.String(), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		b := f[0][len("Benchmark"):]
		if i := strings.LastIndexByte(b, '-'); i > 0 {
			b = b[:i]
		}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				figs[b+" "+f[i+1]] = v
			}
		}
	}
	return figs, nil
}

// hostFnTable weighs a host function for trigram extraction (issue 32,
// item 4): internal/index's BenchmarkTrigrams (the per-byte loop alone)
// and BenchmarkBuild (a whole build of Go's src from memory) natively, in
// wasm under wazero with the module's own loop, and in wasm built with
// the tag hostgrams, whose trigrams come from a native function of this
// host (hostTrigrams). Rounds alternate the three; medians of MB/s. With
// -run hostfn or no -run: it compiles three test binaries.
func hostFnTable(ctx context.Context, keep *regexp.Regexp, b *indexBench) error {
	if !keep.MatchString("hostfn") {
		return nil
	}
	speeds := map[string][]float64{}
	rows := []string{"native", "wasm", "host"}
	for range 3 {
		var loop map[string]float64
		for _, name := range rows {
			figs, err := b.run(ctx, indexPkg, name, "^Benchmark(Trigrams|Build)$")
			if err != nil {
				return err
			}
			// The same trigrams leave the same files to each query's
			// search, whoever extracts them.
			for k, v := range figs {
				if name == "host" && strings.HasSuffix(k, "-share") && loop[k] != v {
					return fmt.Errorf("host: %s %v, with the module's loop %v", k, v, loop[k])
				}
			}
			if name == "wasm" {
				loop = figs
			}
			for _, bench := range []string{"Trigrams", "Build"} {
				speeds[name+" "+bench] = append(speeds[name+" "+bench], figs[bench+" MB/s"])
			}
		}
	}
	fmt.Println("\nA host function for trigram extraction (hostFnTable): internal/index's benchmarks on Go's src, MB/s, median of 3 rounds alternated")
	fmt.Println()
	fmt.Println("| benchmark | native | wasm, the module's loop | wasm, trigrams from the host | host ÷ loop |")
	fmt.Println("|---|---|---|---|---|")
	for _, bench := range []string{"Trigrams", "Build"} {
		n, w, h := mid(speeds["native "+bench]), mid(speeds["wasm "+bench]), mid(speeds["host "+bench])
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.2f× |\n", bench, n, w, h, h/w)
	}
	return nil
}

// splitBuildTable weighs a build split across two instances (issue 32,
// item 4) before one is built: in wasm, BenchmarkBuild of Go's src whole
// in one instance against its two halves (every other file, copied to
// tmp) built at once in two; and BenchmarkPersist, the encoding and
// decoding of the whole index, a floor of what handing a part built
// elsewhere to the index instance costs. Rounds alternate; medians. With
// -run splitbuild or no -run.
func splitBuildTable(ctx context.Context, keep *regexp.Regexp, tmp string, b *indexBench) error {
	if !keep.MatchString("splitbuild") {
		return nil
	}
	halves := filepath.Join(tmp, "halves")
	if err := writeHalves(filepath.Join(b.goroot, "src"), halves); err != nil {
		return err
	}
	build := "^BenchmarkBuild$"
	var whole, pair, persist []float64
	var enc, dec float64
	for range 3 {
		figs, err := b.run(ctx, indexPkg, "wasm", build, "INDEX_TREE="+halves)
		if err != nil {
			return err
		}
		whole = append(whole, figs["Build ns/op"])
		var parts [2]map[string]float64
		var errs [2]error
		var wg sync.WaitGroup
		for i, h := range []string{"0", "1"} {
			wg.Go(func() {
				parts[i], errs[i] = b.run(ctx, indexPkg, "wasm", build, "INDEX_TREE="+filepath.Join(halves, h))
			})
		}
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			return err
		}
		pair = append(pair, max(parts[0]["Build ns/op"], parts[1]["Build ns/op"]))
		if figs, err = b.run(ctx, indexPkg, "wasm", "^BenchmarkPersist$", "INDEX_TREE="+halves); err != nil {
			return err
		}
		persist = append(persist, figs["Persist/encode ns/op"]+figs["Persist/decode ns/op"])
		enc, dec = figs["Persist/encode MB/s"], figs["Persist/decode MB/s"]
	}
	w, p, h := mid(whole), mid(pair), mid(persist)
	fmt.Println("\nA build split across two instances (splitBuildTable): Go's src in wasm, median of 3 rounds alternated")
	fmt.Println()
	// With two instances, the index instance builds one half itself and
	// is handed the other: half the whole's encoding and decoding.
	fmt.Println("| one instance, the whole | two at once, a half each (the slower) | gain | the whole index encoded, decoded | gain with a half handed over |")
	fmt.Println("|---|---|---|---|---|")
	fmt.Printf("| %.0f ms | %.0f ms | %.2f× | %.0f ms (%.0f and %.0f MB/s) | %.2f× |\n", w/1e6, p/1e6, w/p, h/1e6, enc, dec, w/(p+h/2))
	return nil
}

// writeHalves copies every other regular file of src (in walk order) to
// dst/0 and dst/1.
func writeHalves(src, dst string) error {
	n := 0
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, strconv.Itoa(n%2), rel)
		n++
		data, err := os.ReadFile(path)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(to), 0o755)
		}
		if err == nil {
			err = os.WriteFile(to, data, 0o644)
		}
		return err
	})
}

// hostTrigrams is the host function of hostgrams.go: internal/index's
// loop, run natively on the module's bytes [ptr, ptr+n), writing the
// distinct trigrams in place at out (little-endian uint32s, as this host
// and wasm both are) and returning how many (0 when either range is
// outside the module's memory).
func hostTrigrams(mem api.Memory, ptr, n, out uint32, seen []uint64) uint32 {
	content, ok := mem.Read(ptr, n)
	dst, ok2 := mem.Read(out, n*4)
	if !ok || !ok2 || n < 3 || out%4 != 0 {
		return 0
	}
	tris := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), n)
	return uint32(len(index.AppendTrigrams(tris[:0], seen, content)))
}

// dfaTable times internal/match's BenchmarkDFA and BenchmarkSearch (issue
// 50: five literal-free patterns over the Go tree's source, as grep -n
// searches it; the DFA alone, and the matcher as compiled, with the skip
// scan of the byte sets a match holds where it has one) and
// BenchmarkLocate (grep -n's spans) natively and in wasm under wazero,
// single core; rounds alternate the two; medians of MB/s, the searches
// beside the goals (1 GB/s natively, 400 MB/s in wasm). With -run dfa or
// no -run.
func dfaTable(ctx context.Context, keep *regexp.Regexp, b *indexBench) error {
	if !keep.MatchString("dfa") {
		return nil
	}
	speeds := map[string][]float64{}
	var names []string
	for range 3 {
		for _, v := range []string{"native", "wasm"} {
			figs, err := b.run(ctx, matchPkg, v, "^Benchmark(DFA|Search|Locate)$")
			if err != nil {
				return err
			}
			for k, f := range figs {
				if name, ok := strings.CutSuffix(k, " MB/s"); ok {
					if len(speeds[v+" "+name]) == 0 && v == "native" {
						names = append(names, name)
					}
					speeds[v+" "+name] = append(speeds[v+" "+name], f)
				}
			}
		}
	}
	slices.Sort(names)
	fmt.Println("\n| pattern (the Go tree's source, as grep -n) | DFA alone (BenchmarkDFA), native MB/s | wasm | as compiled (BenchmarkSearch), native MB/s | goal ≥ 1,000 | wasm | goal ≥ 400 |")
	fmt.Println("|---|---|---|---|---|---|---|")
	met := func(v, goal float64) string {
		if v >= goal {
			return "met"
		}
		return "missed"
	}
	for _, name := range names {
		if n, w := mid(speeds["native "+name]), mid(speeds["wasm "+name]); strings.HasPrefix(name, "DFA/") {
			p := strings.TrimPrefix(name, "DFA/")
			sn, sw := mid(speeds["native Search/"+p]), mid(speeds["wasm Search/"+p])
			fmt.Printf("| %s | %.0f | %.0f | %.0f | %s | %.0f | %s |\n", p, n, w, sn, met(sn, 1000), sw, met(sw, 400))
		}
	}
	fmt.Println("\n| grep -n's spans (BenchmarkLocate, 16 MiB of the Go tree's source, every match of every matching line) | native MB/s | wasm MB/s | wasm ÷ native |")
	fmt.Println("|---|---|---|---|")
	for _, name := range names {
		if n, w := mid(speeds["native "+name]), mid(speeds["wasm "+name]); strings.HasPrefix(name, "Locate/") {
			fmt.Printf("| %s | %.0f | %.0f | %.2f× |\n", strings.TrimPrefix(name, "Locate/"), n, w, w/n)
		}
	}
	return nil
}
