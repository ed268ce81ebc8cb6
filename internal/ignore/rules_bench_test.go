package ignore

import (
	"fmt"
	"testing"
)

// benchRoot is a large C project's root .gitignore (build outputs: most
// rules an extension, some with wildcards between literals, anchored
// paths); benchDir one of its directories'.
const (
	benchRoot = "*.o\n*.o.*\n*.a\n*.s\n*.ko\n*.so\n*.so.dbg\n*.mod\n*.mod.c\n*.lst\n*.order\n*.symtypes\n*.tab.[ch]\n" +
		"*.lex.c\n*.bin\n*.elf\n*.dtb\n*.gz\n*.lzma\n*.xz\n.*.cmd\n.*.d\n.tmp_*\n/build/\n/tags\n/TAGS\n/cscope.*\n" +
		"/System.map\n/Module.symvers\nmodules.builtin\n!.gitignore\n!.mailmap\n*.orig\n*~\n\\#*#\n"
	benchDir = "buf_*_table.c\nreg_*_table.c\n/port_gen.[ch]\n/offset_gen.[ch]\n/size_gen.[ch]\n!node_keep.o\n"
)

// BenchmarkMatch matches a C tree's file names against the rules of the
// root and of their directory, as the walk asks of every entry: the
// cost a glob's entry pays for ignore files, natively and in wasm
// (`GOOS=wasip1 GOARCH=wasm go test -c`, run under wazero).
func BenchmarkMatch(b *testing.B) {
	var m Matcher
	var files [NumKinds]*Rules
	files[KindGitignore] = Parse([]byte(benchRoot), ".gitignore")
	m.Enter("", files, true)
	files[KindGitignore] = Parse([]byte(benchDir), "spi/.gitignore")
	m.Enter("spi", files, false)
	words := []string{"dev", "priv", "data", "buf", "len", "reg", "addr", "val", "cfg", "info"}
	var paths []string
	for i := range 1000 {
		ext := ".c"
		switch i % 8 {
		case 0, 4:
			ext = ".h"
		case 1:
			ext = ".o"
		}
		paths = append(paths, fmt.Sprintf("spi/%s/%s_%s_%d%s", words[i%7], words[i%10], words[i%3], i, ext))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range paths {
			m.Match(p, false)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(paths)), "ns/path")
}
