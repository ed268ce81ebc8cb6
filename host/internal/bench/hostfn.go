package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rootbound/rootbound/internal/index"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// hostFnTable weighs a host function for trigram extraction (issue 32,
// item 4): internal/index's BenchmarkTrigrams (the per-byte loop alone)
// and BenchmarkBuild (a whole build of Go's src from memory) natively, in
// wasm under wazero with the module's own loop, and in wasm built with
// the tag hostgrams, whose trigrams come from a native function of this
// host (hostTrigrams). Rounds alternate the three; medians of MB/s. With
// -run hostfn or no -run: it compiles three test binaries.
func hostFnTable(keep *regexp.Regexp, tmp, goroot string) error {
	if !keep.MatchString("hostfn") {
		return nil
	}
	bins := map[string]string{}
	for name, env := range map[string][]string{
		"native": nil,
		"wasm":   {"GOOS=wasip1", "GOARCH=wasm"},
		"host":   {"GOOS=wasip1", "GOARCH=wasm"},
	} {
		bins[name] = filepath.Join(tmp, "index-"+name+".test")
		args := []string{"test", "-c", "-o", bins[name]}
		if name == "host" {
			args = append(args, "-tags", "hostgrams")
		}
		cmd := exec.Command("go", append(args, "./internal/index")...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	}
	args := []string{"-test.run", "^$", "-test.bench", "^Benchmark(Trigrams|Build)$", "-test.benchtime", "2x"}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	seen := make([]uint64, 1<<24/64) // one module runs at a time: one serves
	if _, err := rt.NewHostModuleBuilder("rootbound_bench").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, stack []uint64) {
			stack[0] = uint64(hostTrigrams(m.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), seen))
		}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		Export("trigrams").Instantiate(ctx); err != nil {
		return err
	}
	compiled := map[string]wazero.CompiledModule{}
	for _, name := range []string{"wasm", "host"} {
		b, err := os.ReadFile(bins[name])
		if err != nil {
			return err
		}
		if compiled[name], err = rt.CompileModule(ctx, b); err != nil {
			return err
		}
	}
	run := func(name string) (string, error) {
		if name == "native" {
			cmd := exec.Command(bins[name], args...)
			cmd.Env = append(os.Environ(), "GOROOT="+goroot)
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		var out bytes.Buffer
		cfg := wazero.NewModuleConfig().WithName("").WithArgs(append([]string{"index.test"}, args...)...).
			WithEnv("GOROOT", goroot).WithStdout(&out).WithStderr(&out).
			WithSysWalltime().WithSysNanotime().WithSysNanosleep().
			WithFSConfig(wazero.NewFSConfig().WithReadOnlyDirMount(goroot, goroot))
		m, err := rt.InstantiateModule(ctx, compiled[name], cfg)
		if m != nil {
			m.Close(ctx)
		}
		return out.String(), err
	}
	speeds := map[string]map[string][]float64{}
	rows := []string{"native", "wasm", "host"}
	for range 3 {
		for _, name := range rows {
			out, err := run(name)
			if err != nil {
				return fmt.Errorf("%s: %v\n%s", name, err, out)
			}
			if speeds[name] == nil {
				speeds[name] = map[string][]float64{}
			}
			for _, l := range strings.Split(out, "\n") {
				f := strings.Fields(l)
				if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
					continue
				}
				for i := 1; i+1 < len(f); i++ {
					if f[i+1] == "MB/s" {
						v, _ := strconv.ParseFloat(f[i], 64)
						bench := strings.TrimPrefix(strings.SplitN(f[0], "-", 2)[0], "Benchmark")
						speeds[name][bench] = append(speeds[name][bench], v)
					}
				}
			}
		}
	}
	med := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	fmt.Println("\nA host function for trigram extraction (hostFnTable): internal/index's benchmarks on Go's src, MB/s, median of 3 rounds alternated")
	fmt.Println()
	fmt.Println("| benchmark | native | wasm, the module's loop | wasm, trigrams from the host | host ÷ loop |")
	fmt.Println("|---|---|---|---|---|")
	for _, b := range []string{"Trigrams", "Build"} {
		n, w, h := med(speeds["native"][b]), med(speeds["wasm"][b]), med(speeds["host"][b])
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.2f× |\n", b, n, w, h, h/w)
	}
	return nil
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
