package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// writeCTree writes a C-like source tree under dir: about 20,000 .c and .h
// files in nested directories, about 110 MB, 53 .gitignore files and the
// build outputs they ignore (a .o beside one .c in eight), with C's keywords and the
// snake_case identifiers of a large C project (underscores everywhere, as
// the Go tree has not), the same bytes on every machine (a fixed seed). It
// stands in for the 38,000-file C tree the speed goals were first measured
// on, which not every machine has.
func writeCTree(dir string) error { return writeCTreeOf(dir, 20_000, 1) }

// writeCTreeOf writes a C-like tree of files files, with functions times
// as many functions in each as writeCTree's (the 100,000-file tree of
// bigTable: 5 times the files, 4 times the functions, about 1 GB).
func writeCTreeOf(dir string, files, functions int) error {
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"dev", "priv", "data", "buf", "len", "reg", "addr", "val", "cfg", "info",
		"node", "list", "ops", "ctx", "spi", "i2c", "gpio", "clk", "irq", "dma", "mmc", "usb",
		"eth", "phy", "mac", "pci", "bus", "port", "chip", "flash", "read", "write", "probe",
		"remove", "reset", "enable", "disable", "status", "flags", "mask", "offset", "size"}
	ident := func() string {
		n := 1 + rng.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(parts, "_")
	}
	var b strings.Builder
	function := func() {
		name := ident()
		if rng.IntN(40) == 0 {
			name += "_init"
		}
		fmt.Fprintf(&b, "static int %s(struct %s *%s, unsigned long %s)\n{\n", name, ident(), ident(), ident())
		for range 3 + rng.IntN(12) {
			switch rng.IntN(8) {
			case 0:
				fmt.Fprintf(&b, "\tif (%s->%s & %s_MASK)\n\t\treturn -EINVAL;\n", ident(), ident(), strings.ToUpper(ident()))
			case 1:
				fmt.Fprintf(&b, "\tfor (i = 0; i < %s; i++)\n\t\t%s[i] = %s(%s, i);\n", ident(), ident(), ident(), ident())
			case 2:
				fmt.Fprintf(&b, "\t/* %s the %s before %s */\n", ident(), ident(), ident())
			case 3:
				fmt.Fprintf(&b, "\tret = %s(%s, %s, 0x%x);\n\tif (ret)\n\t\tgoto err_%s;\n", ident(), ident(), ident(), rng.IntN(1<<16), ident())
			case 4:
				fmt.Fprintf(&b, "\t%s->%s = %s;\n", ident(), ident(), ident())
			case 5:
				fmt.Fprintf(&b, "\tdebug(\"%s: %%s %%d\\n\", __func__, %s);\n", ident(), ident())
			case 6:
				if rng.IntN(30) == 0 {
					fmt.Fprintf(&b, "\t/* TODO: %s %s */\n", ident(), ident())
				} else {
					fmt.Fprintf(&b, "\tu32 %s = readl(%s + %s);\n", ident(), ident(), strings.ToUpper(ident()))
				}
			default:
				fmt.Fprintf(&b, "\t%s(%s);\n", ident(), ident())
			}
		}
		b.WriteString("\treturn 0;\n}\n\n")
	}
	for i := range files {
		b.Reset()
		name := fmt.Sprintf("%s/%s/%s_%d", words[i%len(words)], words[(i/len(words))%len(words)], ident(), i)
		if i%4 == 0 {
			name += ".h"
			fmt.Fprintf(&b, "#ifndef __%s_H\n#define __%s_H\n\n", strings.ToUpper(ident()), strings.ToUpper(ident()))
			for range 10 + rng.IntN(60) {
				fmt.Fprintf(&b, "#define %s\t0x%x\n", strings.ToUpper(ident()), rng.IntN(1<<20))
			}
			b.WriteString("\n#endif\n")
		} else {
			name += ".c"
			b.WriteString("#include <common.h>\n#include <dm.h>\n#include <asm/io.h>\n\n")
			for range functions * (2 + rng.IntN(12)) {
				function()
			}
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return err
		}
		if i%8 == 1 { // a build's output beside its source, ignored
			obj := strings.TrimSuffix(p, ".c") + ".o"
			if err := os.WriteFile(obj, []byte("\x7fELF\x02\x01\x01\x00"+b.String()[:min(len(b.String()), 2000)]), 0o644); err != nil {
				return err
			}
		}
	}
	return writeCIgnores(dir, words, rng)
}

// writeCIgnores writes the ignore files of a large C project: a root
// .gitignore of build outputs (negations and anchored rules among them)
// and 52 more in its directories, as the 38,000-file C tree the ignore
// cost was measured on has 53.
func writeCIgnores(dir string, words []string, rng *rand.Rand) error {
	root := `#
# Build outputs
#
*.o
*.o.*
*.a
*.s
*.ko
*.so
*.so.dbg
*.mod
*.mod.c
*.lst
*.order
*.symtypes
*.tab.[ch]
*.lex.c
*.bin
*.elf
*.dtb
*.gz
*.lzma
*.xz
.*.cmd
.*.d
.tmp_*
/build/
/tags
/TAGS
/cscope.*
/System.map
/Module.symvers
modules.builtin
!.gitignore
!.mailmap
*.orig
*~
\#*#
`
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(root), 0o644); err != nil {
		return err
	}
	for i := range 52 {
		d := words[i%len(words)]
		if i >= len(words) {
			d = filepath.Join(d, words[(i*7)%len(words)])
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# generated in %s\n", d)
		for range 1 + rng.IntN(6) {
			switch rng.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "/%s_gen.[ch]\n", words[rng.IntN(len(words))])
			case 1:
				fmt.Fprintf(&b, "%s_*_table.c\n", words[rng.IntN(len(words))])
			case 2:
				fmt.Fprintf(&b, "/%s_helper\n", words[rng.IntN(len(words))])
			default:
				fmt.Fprintf(&b, "!%s_keep.o\n", words[rng.IntN(len(words))])
			}
		}
		if err := os.WriteFile(filepath.Join(dir, d, ".gitignore"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
