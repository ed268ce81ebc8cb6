package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// writeCTree writes a C-like source tree under dir: about 20,000 .c and .h
// files in nested directories, about 110 MB, with C's keywords and the
// snake_case identifiers of a large C project (underscores everywhere, as
// the Go tree has not), the same bytes on every machine (a fixed seed). It
// stands in for the 38,000-file C tree the speed goals were first measured
// on, which not every machine has.
func writeCTree(dir string) error {
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
	for i := range 20_000 {
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
			for range 2 + rng.IntN(12) {
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
	}
	return nil
}
